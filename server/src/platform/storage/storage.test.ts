import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../../context';
import { loadEnv } from '../../env';
import { createStorage, isSafeStorageKey, LocalStorage, S3Storage, StorageKeyError, StorageNotFoundError } from './index';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

const UNSAFE_KEYS = ['', '../outside', 'a/../../b', '/etc/passwd', 'a//b', 'a\\b', '..', 'a/..', '.hidden', 'a/b/', 'ok/\u0000nul'];

/** The same contract for both backends. */
function storageContract(name: string, make: () => Storage) {
  describe(`${name} storage`, () => {
    it('stores, reads back and deletes', async () => {
      const storage = make();
      const body = Buffer.from('hello files ✓');
      await storage.put('uploads/one', body, 'text/plain; charset=utf-8');
      expect(await readAll(await storage.get('uploads/one'))).toEqual(body);
      await storage.put('uploads/one', Buffer.from('replaced'), 'text/plain');
      expect((await readAll(await storage.get('uploads/one'))).toString()).toBe('replaced');
      await storage.delete('uploads/one');
      await expect(storage.get('uploads/one')).rejects.toBeInstanceOf(StorageNotFoundError);
      // Deleting what is not there is not an error.
      await storage.delete('uploads/one');
    });

    it('keeps binary content intact', async () => {
      const storage = make();
      const body = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
      await storage.put('uploads/binary', body, 'application/octet-stream');
      expect((await readAll(await storage.get('uploads/binary'))).equals(body)).toBe(true);
    });

    it('refuses unsafe keys on every operation', async () => {
      const storage = make();
      for (const key of UNSAFE_KEYS) {
        await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(StorageKeyError);
        await expect(storage.get(key)).rejects.toBeInstanceOf(StorageKeyError);
        await expect(storage.delete(key)).rejects.toBeInstanceOf(StorageKeyError);
      }
    });
  });
}

describe('storage keys', () => {
  it('allows plain segments only', () => {
    expect(isSafeStorageKey('uploads/0b6e2f8a-1c2d-4e5f-8a9b-0c1d2e3f4a5b')).toBe(true);
    expect(isSafeStorageKey('a/b.c_d-e')).toBe(true);
    for (const key of UNSAFE_KEYS) expect(isSafeStorageKey(key)).toBe(false);
  });
});

describe('local disk', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pluma-storage-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  storageContract('local', () => new LocalStorage(path.join(dataDir, 'files')));

  it('is the default, under DATA_DIR/files, and never writes outside it', async () => {
    const storage = createStorage(loadEnv({ DATA_DIR: dataDir, APP_SECRET: 'x'.repeat(32) }));
    expect(storage).toBeInstanceOf(LocalStorage);
    await storage.put('uploads/inside', Buffer.from('inside'), 'text/plain');
    expect(readFileSync(path.join(dataDir, 'files', 'uploads', 'inside'), 'utf8')).toBe('inside');
    await expect(storage.put('../escaped', Buffer.from('x'), 'text/plain')).rejects.toThrow();
    expect(existsSync(path.join(dataDir, 'escaped'))).toBe(false);
  });
});

describe('S3 (real SDK against a local S3 server)', () => {
  const s3Dir = mkdtempSync(path.join(tmpdir(), 'pluma-s3-'));
  let server: S3rver;
  let endpoint = '';
  const s3Env = () =>
    loadEnv({
      DATA_DIR: s3Dir,
      APP_SECRET: 'x'.repeat(32),
      S3_BUCKET: 'pluma-test',
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    });

  beforeAll(async () => {
    server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: path.join(s3Dir, 'server'),
      configureBuckets: [{ name: 'pluma-test', configs: [] }],
    });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await server.close();
    rmSync(s3Dir, { recursive: true, force: true });
  });

  storageContract('s3', () => createStorage(s3Env()));

  it('is chosen when S3_BUCKET is set, and stores the content type', async () => {
    const storage = createStorage(s3Env());
    expect(storage).toBeInstanceOf(S3Storage);
    await storage.put('uploads/typed', Buffer.from('{}'), 'application/json');
    const { HeadObjectCommand } = await import('@aws-sdk/client-s3');
    const head = await (storage as S3Storage).client.send(new HeadObjectCommand({ Bucket: 'pluma-test', Key: 'uploads/typed' }));
    expect(head.ContentType).toBe('application/json');
    expect(head.ContentLength).toBe(2);
  });

  it('reports a missing bucket as an error, not as a missing file', async () => {
    const storage = new S3Storage({
      bucket: 'no-such-bucket',
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
    await expect(storage.put('uploads/x', Buffer.from('x'), 'text/plain')).rejects.toThrow();
    const read = storage.get('uploads/x');
    await expect(read).rejects.toThrow();
    await expect(read).rejects.not.toBeInstanceOf(StorageNotFoundError);
  });
});
