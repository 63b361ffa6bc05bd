import { eq } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../db/schema';
import { S3Storage, StorageNotFoundError } from '../../platform/storage';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';
import { filePolicy } from './policy';
import { docxBytes, elfBytes, gifBytes, multipartBody, pdfBytes, pngBytes } from './test-fixtures';

type Uploaded = { file_id: number; name: string; type: string; size: number; src: string; abilities: Record<string, boolean> };
const OWNER_ABILITIES = { read: true, replace: true, delete: true };

function uploader(t: () => TestApp) {
  const send = (method: 'POST' | 'PUT', url: string, user: BuiltUser | null, file: Parameters<typeof multipartBody>[0], fields = {}) => {
    const { payload, headers } = multipartBody(file, fields);
    return t().app.inject({ method, url, payload, headers: { ...headers, ...(user?.auth ?? {}) } });
  };
  return {
    upload: (user: BuiltUser | null, file: Parameters<typeof multipartBody>[0], fields: Record<string, string> = {}) =>
      send('POST', '/api/files', user, file, fields),
    replace: (user: BuiltUser | null, id: number, file: Parameters<typeof multipartBody>[0]) => send('PUT', `/api/files/${id}`, user, file),
    get: (url: string, user: BuiltUser | null = null, headers: Record<string, string> = {}) =>
      t().app.inject({ url, headers: { ...(user?.auth ?? {}), ...headers } }),
  };
}

describe(`files (${testDbKind()}, local disk)`, () => {
  let t: TestApp;
  let owner: BuiltUser;
  let stranger: BuiltUser;
  let manager: BuiltUser;
  let admin: BuiltUser;
  const { upload, replace, get } = uploader(() => t);
  const countFiles = async () => (await t.ctx.db.select().from(files)).length;
  const storedKey = async (id: number) => (await t.ctx.db.select().from(files).where(eq(files.fileId, id)))[0]?.storageKey;

  beforeAll(async () => {
    t = await createTestApp({ MAX_UPLOAD_MB: '1' });
    owner = await buildUser(t.ctx, { access: true });
    stranger = await buildUser(t.ctx, { access: true });
    manager = await buildUser(t.ctx, { staffRole: 'manager' });
    admin = await buildUser(t.ctx, { staffRole: 'admin' });
  });
  afterAll(() => t.close());

  it('uploads and downloads a file byte for byte, with safe headers', async () => {
    const bytes = pngBytes();
    const res = await upload(owner, { name: 'photo.png', bytes, contentType: 'image/png' });
    expect(res.statusCode).toBe(201);
    const body = res.json() as Uploaded;
    expect(body).toEqual({ file_id: expect.any(Number), name: 'photo.png', type: 'png', size: bytes.length, src: `/api/files/${body.file_id}`, abilities: OWNER_ABILITIES });

    const download = await get(body.src, owner);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(bytes)).toBe(true);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-disposition']).toBe(`inline; filename="photo.png"; filename*=UTF-8''photo.png`);
    expect(download.headers['cache-control']).toBe('private, no-store');
    expect(download.headers['content-security-policy']).toContain('sandbox');
  });

  it('serves documents as attachments under their UTF-8 name', async () => {
    const res = await upload(owner, { name: 'Informe año; final.pdf', bytes: pdfBytes(), contentType: 'application/pdf' });
    const { src } = res.json() as Uploaded;
    const download = await get(src, owner);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="Informe a_o_ final.pdf"; filename*=UTF-8''Informe%20a%C3%B1o%3B%20final.pdf`,
    );
  });

  it('accepts Office documents and UTF-8 text, typed by their content', async () => {
    const docx = (await upload(owner, { name: 'contract.docx', bytes: docxBytes() })).json() as Uploaded;
    expect(docx.type).toBe('docx');
    const text = await upload(owner, { name: 'notes.md', bytes: Buffer.from('# Notas\n\nCafé'), contentType: 'text/markdown' });
    expect(text.statusCode).toBe(201);
    const download = await get((text.json() as Uploaded).src, owner);
    expect(download.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(download.body).toBe('# Notas\n\nCafé');
    // A PDF sent as notes.txt is a PDF, and its download name says so.
    const renamed = (await upload(owner, { name: 'notes.txt', bytes: pdfBytes(), contentType: 'text/plain' })).json() as Uploaded;
    expect(renamed).toMatchObject({ type: 'pdf', name: 'notes.txt.pdf' });
  });

  it('refuses an executable renamed .png, and stores nothing', async () => {
    const before = await countFiles();
    const res = await upload(owner, { name: 'cute-cat.png', bytes: elfBytes(), contentType: 'image/png' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'unsupported_file', message: 'This type of file is not allowed.' });
    const html = await upload(owner, { name: 'page.html', bytes: Buffer.from('<html><script>alert(1)</script>'), contentType: 'text/html' });
    expect(html.statusCode).toBe(400);
    expect(await countFiles()).toBe(before);
  });

  it('answers in the user language', async () => {
    const spanish = await buildUser(t.ctx, { lang: 'es' });
    const res = await upload(spanish, { name: 'x.png', bytes: elfBytes() });
    expect(res.json().message).toBe('Este tipo de archivo no está permitido.');
  });

  it('refuses a file over MAX_UPLOAD_MB with 413, and accepts one just under it', async () => {
    const before = await countFiles();
    const tooBig = await upload(owner, { name: 'big.txt', bytes: Buffer.alloc(1024 * 1024 + 10, 'a') });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toEqual({ error: 'payload_too_large', message: 'The file is too large.' });
    expect(await countFiles()).toBe(before);
    const fits = await upload(owner, { name: 'fits.txt', bytes: Buffer.alloc(1024 * 1024 - 10, 'a') });
    expect(fits.statusCode).toBe(201);
  });

  it('needs a file part and a token', async () => {
    const noFile = await upload(owner, null, { public: 'true' });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toMatchObject({ message: 'Please choose a file.' });
    const wrongField = await upload(owner, { field: 'picture', name: 'a.png', bytes: pngBytes() });
    expect(wrongField.statusCode).toBe(400);
    const json = await t.app.inject({ method: 'POST', url: '/api/files', headers: owner.auth, payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect((await upload(null, { name: 'a.png', bytes: pngBytes() })).statusCode).toBe(401);
  });

  describe('access', () => {
    let file: Uploaded;
    beforeAll(async () => {
      file = (await upload(owner, { name: 'private.pdf', bytes: pdfBytes() })).json() as Uploaded;
    });

    it("hides another user's file behind 404 for read, replace and delete", async () => {
      for (const res of [
        await get(file.src, stranger),
        await replace(stranger, file.file_id, { name: 'evil.png', bytes: pngBytes() }),
        await t.app.inject({ method: 'DELETE', url: file.src, headers: stranger.auth }),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'not_found', message: 'Not found.' });
      }
      const still = await get(file.src, owner);
      expect(still.statusCode).toBe(200);
      expect(still.rawPayload.equals(pdfBytes())).toBe(true);
    });

    it('lets staff read any file, but not replace or delete it', async () => {
      expect((await get(file.src, manager)).statusCode).toBe(200);
      expect((await get(file.src, admin)).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'DELETE', url: file.src, headers: admin.auth })).statusCode).toBe(404);
      // The abilities say the same: staff read, only the owner replaces and deletes.
      const row = { userId: owner.user.userId };
      const actorOf = (who: BuiltUser, staffRole: 'admin' | 'manager' | null) => ({ user: who.user, staffRole, sessionId: 0, familyId: '', organization: null });
      expect(filePolicy.abilities(actorOf(admin, 'admin'), row)).toEqual({ read: true, replace: false, delete: false });
      expect(filePolicy.abilities(actorOf(stranger, null), row)).toEqual({ read: false, replace: false, delete: false });
      expect(filePolicy.abilities(actorOf(owner, null), row)).toEqual(OWNER_ABILITIES);
    });

    it('needs a token for a file by id', async () => {
      expect((await get(file.src)).statusCode).toBe(401);
    });

    it('answers 404 for unknown, out-of-range and malformed references', async () => {
      for (const url of ['/api/files/999999', '/api/files/99999999999', '/api/files/0', '/api/files/..%2F..%2Fetc%2Fpasswd', '/api/files/abc']) {
        expect((await get(url, owner)).statusCode).toBe(404);
      }
      expect((await t.app.inject({ method: 'DELETE', url: '/api/files/abc', headers: owner.auth })).statusCode).toBe(400);
    });
  });

  describe('public images', () => {
    it('serves a public image by name without a token, cacheable', async () => {
      const bytes = pngBytes();
      const res = await upload(owner, { name: 'logo.png', bytes }, { public: 'true' });
      expect(res.statusCode).toBe(201);
      const { src, file_id } = res.json() as Uploaded;
      expect(src).toMatch(/^\/api\/files\/[A-Za-z0-9_-]{24}\.png$/);
      const download = await get(src);
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(bytes)).toBe(true);
      expect(download.headers['content-type']).toBe('image/png');
      expect(download.headers['x-content-type-options']).toBe('nosniff');
      expect(download.headers['cache-control']).toBe('public, max-age=3600');
      expect(download.headers['cross-origin-resource-policy']).toBe('cross-origin');
      const cached = await get(src, null, { 'if-none-match': download.headers.etag as string });
      expect(cached.statusCode).toBe(304);
      // Its owner still reaches it by id too.
      expect((await get(`/api/files/${file_id}`, owner)).statusCode).toBe(200);
      // The name alone, or with another extension, is not enough.
      expect((await get(src.replace(/\.png$/, '.gif'))).statusCode).toBe(404);
    });

    it('never serves a private file by a guessed public URL', async () => {
      const { file_id, src } = (await upload(owner, { name: 'secret.png', bytes: pngBytes() })).json() as Uploaded;
      expect(src).toBe(`/api/files/${file_id}`);
      for (const guess of [`/api/files/${file_id}.png`, `/api/files/secret.png`, `/api/files/${'A'.repeat(24)}.png`]) {
        expect((await get(guess)).statusCode).toBe(404);
      }
    });

    it('makes images only public', async () => {
      const res = await upload(owner, { name: 'doc.pdf', bytes: pdfBytes() }, { public: 'true' });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Only images can be made public.');
    });
  });

  describe('replace and delete', () => {
    it('replaces the content under the same id and removes the old content', async () => {
      const { file_id, src } = (await upload(owner, { name: 'avatar.png', bytes: pngBytes() })).json() as Uploaded;
      const oldKey = await storedKey(file_id);
      const res = await replace(owner, file_id, { name: 'avatar.gif', bytes: gifBytes() });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ file_id, name: 'avatar.gif', type: 'gif', size: gifBytes().length, src, abilities: OWNER_ABILITIES });
      const download = await get(src, owner);
      expect(download.headers['content-type']).toBe('image/gif');
      expect(download.rawPayload.equals(gifBytes())).toBe(true);
      await expect(t.ctx.services.storage!.get(oldKey!)).rejects.toBeInstanceOf(StorageNotFoundError);
    });

    it('keeps a public image an image', async () => {
      const { file_id, src } = (await upload(owner, { name: 'banner.png', bytes: pngBytes() }, { public: 'true' })).json() as Uploaded;
      expect((await replace(owner, file_id, { name: 'banner.pdf', bytes: pdfBytes() })).statusCode).toBe(400);
      const swapped = await replace(owner, file_id, { name: 'banner.gif', bytes: gifBytes() });
      expect(swapped.statusCode).toBe(200);
      // Same public name; the type follows the content.
      expect((swapped.json() as Uploaded).src).toBe(src.replace(/\.png$/, '.gif'));
      expect((await get(src.replace(/\.png$/, '.gif'))).rawPayload.equals(gifBytes())).toBe(true);
    });

    it('refuses a spoofed replacement and keeps the old content', async () => {
      const { file_id, src } = (await upload(owner, { name: 'keep.png', bytes: pngBytes() })).json() as Uploaded;
      expect((await replace(owner, file_id, { name: 'keep.png', bytes: elfBytes() })).statusCode).toBe(400);
      expect((await get(src, owner)).rawPayload.equals(pngBytes())).toBe(true);
    });

    it('deletes the row and the content', async () => {
      const { file_id, src } = (await upload(owner, { name: 'gone.pdf', bytes: pdfBytes() })).json() as Uploaded;
      const key = await storedKey(file_id);
      const res = await t.app.inject({ method: 'DELETE', url: src, headers: owner.auth });
      expect(res.statusCode).toBe(204);
      expect((await get(src, owner)).statusCode).toBe(404);
      expect(await storedKey(file_id)).toBeUndefined();
      await expect(t.ctx.services.storage!.get(key!)).rejects.toBeInstanceOf(StorageNotFoundError);
      expect((await t.app.inject({ method: 'DELETE', url: src, headers: owner.auth })).statusCode).toBe(404);
    });
  });
});

describe(`files (${testDbKind()}, S3)`, () => {
  const s3Dir = mkdtempSync(path.join(tmpdir(), 'pluma-files-s3-'));
  let server: S3rver;
  let t: TestApp;
  let owner: BuiltUser;
  const { upload, get } = uploader(() => t);

  beforeAll(async () => {
    server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'pluma-files', configs: [] }] });
    const { port } = await server.run();
    t = await createTestApp({
      S3_BUCKET: 'pluma-files',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
    owner = await buildUser(t.ctx);
  });
  afterAll(async () => {
    await t.close();
    await server.close();
    rmSync(s3Dir, { recursive: true, force: true });
  });

  it('stores uploads in the bucket and serves them back', async () => {
    expect(t.ctx.services.storage).toBeInstanceOf(S3Storage);
    const bytes = pdfBytes();
    const { src, file_id } = (await upload(owner, { name: 'in-bucket.pdf', bytes })).json() as Uploaded;
    const download = await get(src, owner);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(bytes)).toBe(true);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/files/${file_id}`, headers: owner.auth });
    expect(res.statusCode).toBe(204);
  });
});
