import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAppConfig } from '../../features/appconfig/seed';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';
import { DOCUMENT_ONLY_HEADERS, IMMUTABLE_CACHE, pageEncoding, SHORT_CACHE } from './web-app';

// What the web build writes (web/vite.config.ts): hashed assets with their .br and .gz siblings.
const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <title>Pluma</title>
    <script type="module" crossorigin src="/assets/app-abc123.js"></script>
    <!-- ${'padding so the rendered page is worth compressing '.repeat(30)} -->
  </head>
  <body><div id="root"></div></body>
</html>
`;
const SCRIPT = `console.log(${JSON.stringify('the app '.repeat(400))});\n`;
const ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"></svg>';

describe(`web app static files, compressed and cached (${testDbKind()})`, () => {
  let t: TestApp;
  let webDir: string;

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({ url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'pluma-web-'));
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'index.html'), TEMPLATE);
    const script = path.join(webDir, 'assets', 'app-abc123.js');
    writeFileSync(script, SCRIPT);
    writeFileSync(`${script}.br`, brotliCompressSync(SCRIPT));
    writeFileSync(`${script}.gz`, gzipSync(SCRIPT, { level: 9 }));
    writeFileSync(path.join(webDir, 'favicon.svg'), ICON);
    t = await createTestApp({ WEB_DIST_DIR: webDir });
    await seedAppConfig(t.ctx);
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('sends the brotli file to a client that accepts br', async () => {
    const res = await get('/assets/app-abc123.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/^(?:text|application)\/javascript/);
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the gzip file to a client that accepts only gzip', async () => {
    const res = await get('/assets/app-abc123.js', 'gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/^(?:text|application)\/javascript/);
    expect(gunzipSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the plain file, still varying on Accept-Encoding, to a client that accepts no encoding', async () => {
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const res = await get('/assets/app-abc123.js', accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['vary']).toMatch(/accept-encoding/i);
      expect(res.body).toBe(SCRIPT);
    }
  });

  it('caches hashed /assets/ files for a year, immutable, whatever the encoding', async () => {
    for (const accept of ['br', 'gzip', undefined]) {
      const res = await get('/assets/app-abc123.js', accept);
      expect(res.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    }
  });

  it('sends hashed scripts without the document-only security headers, and keeps them elsewhere', async () => {
    const script = await get('/assets/app-abc123.js', 'br');
    for (const name of DOCUMENT_ONLY_HEADERS) expect(script.headers[name], name).toBeUndefined();
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.headers['cross-origin-resource-policy']).toBeDefined();
    const icon = await get('/favicon.svg');
    expect(icon.headers['content-security-policy']).toBeDefined();
    expect((await get('/login')).headers['content-security-policy']).toContain("'nonce-");
  });

  it('caches other static files briefly and sends a small file as it is', async () => {
    const res = await get('/favicon.svg', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe(SHORT_CACHE);
    expect(res.body).toBe(ICON);
  });

  it('answers a missing /assets/ file with 404, not the page', async () => {
    const res = await get('/assets/app-old999.js', 'br');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    // A compressed sibling is never served by its own name either.
    expect((await get('/assets/app-abc123.js.br')).statusCode).toBe(404);
  });

  it('serves /assets/ through one route: HEAD answers too, and no path leads out of the folder', async () => {
    const head = await t.app.inject({ method: 'HEAD', url: '/assets/app-abc123.js' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    // A file beside the web build: no URL reaches it.
    const outside = `${webDir}-outside.txt`;
    writeFileSync(outside, 'OUTSIDE');
    try {
      const name = path.basename(outside);
      for (const url of [`/assets/../../${name}`, `/assets/..%2f..%2f${name}`, `/assets/%2e%2e/%2e%2e/${name}`, `/assets/%2e%2e%2f%2e%2e%2f${name}`, '/assets/../favicon.svg', '/assets/..%2ffavicon.svg']) {
        const res = await get(url);
        expect(res.body, url).not.toBe('OUTSIDE');
        // Not served as a hashed asset: a file outside assets/ is only ever reached by its own URL.
        expect(res.headers['cache-control'], url).not.toBe(IMMUTABLE_CACHE);
      }
    } finally {
      rmSync(outside, { force: true });
    }
  });

  it('renders index.html uncached, compressed per request when accepted', async () => {
    for (const url of ['/', '/login', '/conversations/12', '/index.html']) {
      const plain = await get(url);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-type']).toMatch(/^text\/html/);
      expect(plain.headers['cache-control']).toBe('no-cache');
      expect(plain.headers['vary']).toMatch(/accept-encoding/i);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toContain('<script nonce="');

      const br = await get(url, 'gzip, deflate, br');
      expect(br.headers['cache-control']).toBe('no-cache');
      expect(br.headers['content-encoding']).toBe('br');
      const page = brotliDecompressSync(br.rawPayload).toString();
      expect(page).toContain('src="/assets/app-abc123.js"');
      // Its own nonce, the one of its own CSP header.
      const nonce = /<script nonce="([^"]+)"/.exec(page)![1];
      expect(br.headers['content-security-policy']).toContain(`'nonce-${nonce}'`);

      const gz = await get(url, 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toContain('<div id="root"></div>');
    }
  });
});

describe('pageEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(pageEncoding('gzip, deflate, br')).toBe('br');
    expect(pageEncoding('gzip;q=1.0, br;q=0.5')).toBe('br');
    expect(pageEncoding('gzip, br;q=0')).toBe('gzip');
    expect(pageEncoding('*')).toBe('gzip');
    expect(pageEncoding('identity')).toBeUndefined();
    expect(pageEncoding('br;q=0, gzip;q=0.000')).toBeUndefined();
    expect(pageEncoding(undefined)).toBeUndefined();
    expect(pageEncoding('')).toBeUndefined();
  });
});
