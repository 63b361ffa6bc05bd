// Tutorials through the real app and database (spec part 2 §2 "Tutorials", §3 "Tutorial", §7 "Tutorials";
// issue 15 item 5): everyone with access lists one language in order (default: their own) and reads one;
// staff admins create, edit, order and delete (others 403, unknown ids 404, nothing changed); links that
// cannot play or are hostile are refused; the seed runs once.
import { existsSync } from 'node:fs';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, files, tutorials, tutorialSeeds } from '../../db/schema';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';
import { SEED_TUTORIALS, seedThumbnail, seedTutorials } from './seed';

describe(`tutorials API (${testDbKind()})`, () => {
  let t: TestApp;
  let ana: BuiltUser; // has access, English
  let ben: BuiltUser; // has access, Spanish
  let noAccess: BuiltUser;
  let manager: BuiltUser; // staff manager (not an admin)
  let admin: BuiltUser; // staff admin

  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
  const call = (who: BuiltUser | null, method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who?.auth ?? {}, ...(payload ? { payload } : {}) });
  const video = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
  const create = async (body: object) => {
    const res = await call(admin, 'POST', '/api/tutorials', { name: 'Tour', language: 'en', src: video, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const names = async (who: BuiltUser, query = '') => {
    const res = await call(who, 'GET', `/api/tutorials${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().tutorials.map((x: { name: string }) => x.name);
  };
  const count = async () => (await t.ctx.db.select().from(tutorials)).length;

  beforeAll(async () => {
    t = await createTestApp();
    ana = await buildUser(t.ctx, { name: 'Ana', access: true });
    ben = await buildUser(t.ctx, { name: 'Ben', access: true, lang: 'es' });
    noAccess = await buildUser(t.ctx);
    manager = await buildUser(t.ctx, { staffRole: 'manager' });
    admin = await buildUser(t.ctx, { staffRole: 'admin' });
  });
  afterAll(async () => t?.close());

  it('creates a tutorial with the spec fields (last in its language) and shows it to users with access', async () => {
    const first = await create({ name: ' First steps ', description: 'Start here', thumbnail: 'https://img.example.com/a.png' });
    expect(Object.keys(first).sort()).toEqual(
      ['abilities', 'createdAt', 'description', 'language', 'name', 'order', 'src', 'thumbnail', 'thumbnail_file_id', 'tutorial_id', 'updatedAt'].sort(),
    );
    expect(first).toMatchObject({ name: 'First steps', description: 'Start here', language: 'en', src: video, thumbnail: 'https://img.example.com/a.png', thumbnail_file_id: null });
    expect(first.abilities).toEqual({ edit: true, delete: true, reorder: true });
    const second = await create({ name: 'Second', src: 'https://cdn.example.com/v/tour.mp4' });
    expect(second.order).toBeGreaterThan(first.order);

    const read = await call(ana, 'GET', `/api/tutorials/${first.tutorial_id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ name: 'First steps', abilities: { edit: false, delete: false, reorder: false } });
    const list = (await call(ana, 'GET', '/api/tutorials')).json();
    expect(list).toMatchObject({ language: 'en', page: 1, pageSize: 24, canManage: false });
    expect(list.tutorials.map((x: { name: string }) => x.name)).toEqual(['First steps', 'Second']);
  });

  it('lists the user’s language by default, another on request, and searches name and description', async () => {
    await create({ name: 'Primeros pasos', language: 'es', description: 'Empieza aquí' });
    expect(await names(ben)).toEqual(['Primeros pasos']);
    expect(await names(ana)).toEqual(['First steps', 'Second']);
    expect(await names(ana, '?language=es')).toEqual(['Primeros pasos']);
    expect(await names(ben, '?language=en&query=start')).toEqual(['First steps']);
    expect(await names(ana, '?query=%25')).toEqual([]);
    expect((await call(ana, 'GET', '/api/tutorials?language=fr')).statusCode).toBe(400);
    expect((await call(ana, 'GET', '/api/tutorials?page=0')).statusCode).toBe(400);
  });

  it('pages 24 at a time', async () => {
    for (let i = 0; i < 25; i += 1) {
      await t.ctx.db.insert(tutorials).values({ name: `Paged ${i}`, language: 'es', src: video, order: 1000 + i });
    }
    const second = (await call(ben, 'GET', '/api/tutorials?page=2')).json();
    expect(second.total).toBe(26);
    expect(second.tutorials.map((x: { name: string }) => x.name)).toEqual(['Paged 23', 'Paged 24']);
    await t.ctx.db.delete(tutorials).where(like(tutorials.name, 'Paged %'));
  });

  it('refuses signed-out users (401), users without access (412), and changes by anyone but staff admins (403), changing nothing', async () => {
    const [row] = await t.ctx.db.select().from(tutorials).limit(1);
    expect((await call(null, 'GET', '/api/tutorials')).statusCode).toBe(401);
    expect((await call(noAccess, 'GET', '/api/tutorials')).statusCode).toBe(412);
    expect((await call(noAccess, 'GET', `/api/tutorials/${row.tutorialId}`)).statusCode).toBe(412);
    const before = await count();
    for (const who of [ana, manager, noAccess]) {
      expect((await call(who, 'POST', '/api/tutorials', { name: 'X', language: 'en', src: video })).statusCode).toBe(403);
      expect((await call(who, 'PUT', '/api/tutorials', { tutorial_id: row.tutorialId, name: 'Hacked' })).statusCode).toBe(403);
      expect((await call(who, 'DELETE', `/api/tutorials/${row.tutorialId}`)).statusCode).toBe(403);
      expect((await call(who, 'PUT', '/api/tutorials/order', { ids: [row.tutorialId] })).statusCode).toBe(403);
      // A refusal does not reveal the route's rules: bad input is still a 403.
      expect((await call(who, 'POST', '/api/tutorials', { src: 'javascript:alert(1)' })).statusCode).toBe(403);
    }
    expect(await count()).toBe(before);
    const [after] = await t.ctx.db.select().from(tutorials).where(eq(tutorials.tutorialId, row.tutorialId));
    expect(after.name).toBe(row.name);
  });

  it('answers 404 for unknown tutorials on every route', async () => {
    expect((await call(ana, 'GET', '/api/tutorials/999999')).statusCode).toBe(404);
    expect((await call(admin, 'PUT', '/api/tutorials', { tutorial_id: 999999, name: 'X' })).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', '/api/tutorials/999999')).statusCode).toBe(404);
    const [row] = await t.ctx.db.select().from(tutorials).limit(1);
    expect((await call(admin, 'PUT', '/api/tutorials/order', { ids: [row.tutorialId, 999999] })).statusCode).toBe(404);
    expect((await call(ana, 'GET', '/api/tutorials/abc')).statusCode).toBe(400);
  });

  it('refuses hostile and unplayable links and bad fields with the field’s message, in the user’s language', async () => {
    const before = await count();
    const refused = async (body: object, field: string, who: BuiltUser = admin) => {
      const res = await call(who, 'POST', '/api/tutorials', { name: 'Bad', language: 'en', src: video, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBeTruthy();
      expect(Object.keys(res.json().details ?? {})).toContain(field);
      return res.json();
    };
    for (const src of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      '//evil.example.com/a.mp4',
      'https://user:pass@cdn.example.com/a.mp4',
      'https://www.youtube.com/channel/abc',
      'https://youtu.be/short',
      'https://vimeo.com/channels/staffpicks',
      'not a url',
      // A private file needs its owner's token, which a <video> element cannot send.
      '/api/files/12',
    ]) {
      const body = await refused({ src }, 'src');
      expect(body.details.src).toBe('The video must be an http:// or https:// link: a YouTube or Vimeo video, or a video file.');
    }
    await refused({ src: '' }, 'src');
    await refused({ thumbnail: 'javascript:alert(1)' }, 'thumbnail');
    await refused({ thumbnail: 'data:image/png;base64,AAAA' }, 'thumbnail');
    await refused({ name: '   ' }, 'name');
    await refused({ name: 'x'.repeat(201) }, 'name');
    await refused({ description: 'x'.repeat(2001) }, 'description');
    await refused({ language: 'fr' }, 'language');
    await refused({ name: 'a\u0000b' }, 'name');
    const es = await buildUser(t.ctx, { staffRole: 'admin', lang: 'es' });
    const spanish = await refused({ src: 'javascript:alert(1)' }, 'src', es);
    expect(spanish.details.src).toBe('El video debe ser un enlace http:// o https://: un video de YouTube o Vimeo, o un archivo de video.');
    const bad = await call(admin, 'PUT', '/api/tutorials', { tutorial_id: (await t.ctx.db.select().from(tutorials).limit(1))[0].tutorialId, src: 'javascript:alert(1)' });
    expect(bad.statusCode).toBe(400);
    expect(await count()).toBe(before);
    expect((await t.ctx.db.select().from(tutorials)).every((r) => r.src.startsWith('https://'))).toBe(true);
  });

  it('accepts Vimeo links, direct videos and an uploaded public image as thumbnail (not a private file)', async () => {
    const vimeo = await create({ name: 'Vimeo', src: 'https://vimeo.com/76979871' });
    expect(vimeo.src).toBe('https://vimeo.com/76979871');
    const [image] = await t.ctx.db
      .insert(files)
      .values({ userId: admin.user.userId, name: 't.png', type: 'png', mime: 'image/png', size: 1, storageKey: 'uploads/tut1', publicName: 'tutorialthumbnail0001' })
      .returning();
    const [privateImage] = await t.ctx.db
      .insert(files)
      .values({ userId: admin.user.userId, name: 'p.png', type: 'png', mime: 'image/png', size: 1, storageKey: 'uploads/tut2', publicName: null })
      .returning();
    const withFile = await call(admin, 'PUT', '/api/tutorials', { tutorial_id: vimeo.tutorial_id, thumbnail_file_id: image.fileId });
    expect(withFile.statusCode, withFile.body).toBe(200);
    expect(withFile.json()).toMatchObject({ thumbnail: '/api/files/tutorialthumbnail0001.png', thumbnail_file_id: image.fileId });
    const refused = await call(admin, 'PUT', '/api/tutorials', { tutorial_id: vimeo.tutorial_id, thumbnail_file_id: privateImage.fileId });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details.thumbnail_file_id).toBe('The thumbnail must be an image uploaded as public.');
    const cleared = await call(admin, 'PUT', '/api/tutorials', { tutorial_id: vimeo.tutorial_id, thumbnail_file_id: null, thumbnail: '' });
    expect(cleared.json()).toMatchObject({ thumbnail: null, thumbnail_file_id: null, name: 'Vimeo', src: 'https://vimeo.com/76979871' });
    expect((await call(admin, 'DELETE', `/api/tutorials/${vimeo.tutorial_id}`)).statusCode).toBe(200);
  });

  it('edits fields, moves a tutorial to the end of another language, and deletes', async () => {
    const made = await create({ name: 'Moving' });
    const edited = await call(admin, 'PUT', '/api/tutorials', { tutorial_id: made.tutorial_id, name: 'Moved', description: 'Now Spanish', language: 'es' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Moved', description: 'Now Spanish', language: 'es', src: video });
    expect(await names(ben)).toEqual(['Primeros pasos', 'Moved']);
    expect(await names(ana)).not.toContain('Moved');
    expect((await call(admin, 'DELETE', `/api/tutorials/${made.tutorial_id}`)).json()).toEqual({ deleted: true });
    expect((await call(ana, 'GET', `/api/tutorials/${made.tutorial_id}`)).statusCode).toBe(404);
    // Staff changes are audited (DESIGN.md §3 requireStaff).
    const audited = await t.ctx.db.select().from(auditLog).where(eq(auditLog.actorUserId, admin.user.userId));
    expect(audited.map((a) => a.action).join(' ')).toMatch(/DELETE.*tutorials/i);
  });

  it('reorders: the given tutorials take the places they held between them; one language at a time', async () => {
    const third = await create({ name: 'Third' });
    const list = (await call(admin, 'GET', '/api/tutorials?language=en')).json().tutorials as { tutorial_id: number; name: string }[];
    expect(list.map((x) => x.name)).toEqual(['First steps', 'Second', 'Third']);
    const [first, second] = list;
    // Swap two neighbours (what the Up/Down buttons send).
    const swapped = await call(admin, 'PUT', '/api/tutorials/order', { ids: [second.tutorial_id, first.tutorial_id] });
    expect(swapped.statusCode, swapped.body).toBe(200);
    expect(swapped.json().tutorials.map((x: { name: string }) => x.name)).toEqual(['Second', 'First steps']);
    expect(await names(ana)).toEqual(['Second', 'First steps', 'Third']);
    // The whole list.
    expect((await call(admin, 'PUT', '/api/tutorials/order', { ids: [third.tutorial_id, first.tutorial_id, second.tutorial_id] })).statusCode).toBe(200);
    expect(await names(ana)).toEqual(['Third', 'First steps', 'Second']);

    const spanish = (await call(admin, 'GET', '/api/tutorials?language=es')).json().tutorials[0];
    const mixed = await call(admin, 'PUT', '/api/tutorials/order', { ids: [first.tutorial_id, spanish.tutorial_id] });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().message).toBe('Only tutorials of one language can be ordered together.');
    expect((await call(admin, 'PUT', '/api/tutorials/order', { ids: [first.tutorial_id, first.tutorial_id] })).statusCode).toBe(400);
    expect((await call(admin, 'PUT', '/api/tutorials/order', { ids: [] })).statusCode).toBe(400);
    expect(await names(ana)).toEqual(['Third', 'First steps', 'Second']);
  });

  it('seeds the starter tutorials in English and Spanish once, after what exists, and never again', async () => {
    await seedTutorials(t.ctx);
    const en = await names(ana);
    expect(en.slice(0, 3)).toEqual(['Third', 'First steps', 'Second']);
    expect(en.slice(3)).toEqual(SEED_TUTORIALS.filter((s) => s.language === 'en').map((s) => s.name));
    expect((await names(ben)).slice(-3)).toEqual(SEED_TUTORIALS.filter((s) => s.language === 'es').map((s) => s.name));
    const seeded = (await call(ana, 'GET', '/api/tutorials')).json().tutorials.at(-1);
    // Shipped with the app (no outside host, so they show offline): each seeded thumbnail is a file of web/public.
    expect(seeded.thumbnail).toMatch(/^\/images\/tutorials\/[a-z0-9-]+\.svg$/);
    for (const entry of SEED_TUTORIALS) expect(existsSync(new URL(`../../../../web/public${seedThumbnail(entry.key)}`, import.meta.url))).toBe(true);
    // Deleted by an admin: stays deleted when the server boots again.
    expect((await call(admin, 'DELETE', `/api/tutorials/${seeded.tutorial_id}`)).statusCode).toBe(200);
    const total = await count();
    await seedTutorials(t.ctx);
    expect(await count()).toBe(total);
    expect(await t.ctx.db.select().from(tutorialSeeds)).toHaveLength(1);
  });
});
