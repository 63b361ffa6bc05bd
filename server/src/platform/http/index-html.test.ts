import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAppConfig } from '../../features/appconfig/seed';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { INDEX_TEMPLATE } from '../../test/index-template';
import { testDbKind } from '../../test/test-db';


const HEAD_CODES =
  '<script async src="https://www.googletagmanager.com/gtag/js?id=G-TEST"></script>\n' +
  "<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('config', 'G-TEST');</script>";
const BODY_CODES = '<noscript><img src="https://pixel.example/p.gif" alt=""></noscript><script src="https://pixel.example/p.js"></script>';

/** The script-src directive's sources. */
function scriptSources(csp: string): string[] {
  const directive = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src '));
  return directive ? directive.split(/\s+/).slice(1) : [];
}

/**
 * Would a browser run this <script> element under this CSP (CSP3 script-src, for parser-inserted
 * scripts — everything written in the served page)? A nonce that matches allows it; with
 * 'strict-dynamic' nothing else does; otherwise an inline script needs 'unsafe-inline' and an external
 * one a matching scheme/host/'self' source.
 */
function browserWouldRun(csp: string, script: { nonce?: string; src?: string }): boolean {
  const sources = scriptSources(csp);
  if (script.nonce && sources.includes(`'nonce-${script.nonce}'`)) return true;
  if (sources.includes("'strict-dynamic'")) return false;
  if (!script.src) return sources.includes("'unsafe-inline'") && !sources.some((s) => s.startsWith("'nonce-"));
  const url = new URL(script.src, 'https://app.example');
  return sources.some((s) => s === `${url.protocol}` || s === url.origin || (s === "'self'" && url.origin === 'https://app.example'));
}

/** Every <script> start tag of the page with its attributes. */
function scriptTags(html: string): { nonce?: string; src?: string; raw: string }[] {
  return [...html.matchAll(/<script\b[^>]*>/gi)].map(([raw]) => ({
    raw,
    nonce: /\bnonce="([^"]*)"/.exec(raw)?.[1],
    src: /\bsrc="([^"]*)"/.exec(raw)?.[1],
  }));
}

describe(`index.html under a strict script CSP (${testDbKind()})`, () => {
  let t: TestApp;
  let admin: BuiltUser;
  let webDir: string;

  const page = (url = '/') => t.app.inject({ url, headers: { host: 'app.example' } });
  const setConfig = (entries: { key: string; value: string }[]) =>
    t.app.inject({ method: 'PUT', url: '/api/appconfig', headers: admin.auth, payload: entries });

  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'pluma-web-'));
    writeFileSync(path.join(webDir, 'index.html'), INDEX_TEMPLATE);
    writeFileSync(path.join(webDir, 'app.js'), 'console.log(1)');
    t = await createTestApp({ WEB_DIST_DIR: webDir });
    await seedAppConfig(t.ctx);
    admin = await buildUser(t.ctx, { staffRole: 'admin' });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it("sends script-src with a fresh nonce per response and without 'unsafe-inline' or a blanket https:", async () => {
    const [first, second] = [await page('/'), await page('/chat/12')];
    const csp1 = String(first.headers['content-security-policy']);
    const csp2 = String(second.headers['content-security-policy']);
    for (const csp of [csp1, csp2]) {
      const sources = scriptSources(csp);
      expect(sources).not.toContain("'unsafe-inline'");
      expect(sources).not.toContain('https:');
      expect(sources).toContain("'strict-dynamic'");
      expect(sources.filter((s) => /^'nonce-[A-Za-z0-9+/]{22}==?'$/.test(s))).toHaveLength(1);
      expect(csp).toContain("script-src-attr 'none'");
    }
    const nonceOf = (csp: string) => scriptSources(csp).find((s) => s.startsWith("'nonce-"));
    expect(nonceOf(csp1)).not.toBe(nonceOf(csp2));
    // A page's nonce is useless on the next response.
    const oldNonce = nonceOf(csp1)!.slice(7, -1);
    expect(browserWouldRun(csp2, { nonce: oldNonce })).toBe(false);
  });

  it('gives every script of the page the response nonce, and the page is not cached', async () => {
    const res = await page('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const csp = String(res.headers['content-security-policy']);
    const nonce = scriptSources(csp).find((s) => s.startsWith("'nonce-"))!.slice(7, -1);
    const scripts = scriptTags(res.body);
    expect(scripts).toHaveLength(2);
    for (const script of scripts) {
      expect(script.nonce).toBe(nonce);
      expect(browserWouldRun(csp, script)).toBe(true);
    }
    expect(res.body).toContain(`<link nonce="${nonce}" rel="modulepreload" crossorigin href="/assets/react-def.js">`);
    // /index.html is the same rendered page, never the raw file without nonces.
    const direct = await page('/index.html');
    expect(scriptTags(direct.body).every((s) => s.nonce && direct.headers['content-security-policy']!.includes(`'nonce-${s.nonce}'`))).toBe(true);
  });

  it("puts the admin's tracking codes in the page as written, each <script> carrying the nonce", async () => {
    expect((await setConfig([{ key: 'head_tracking_codes', value: HEAD_CODES }, { key: 'body_tracking_codes', value: BODY_CODES }])).statusCode).toBe(200);
    const res = await page('/pricing');
    const csp = String(res.headers['content-security-policy']);
    const nonce = scriptSources(csp).find((s) => s.startsWith("'nonce-"))!.slice(7, -1);
    const body = res.body;
    const head = body.slice(0, body.indexOf('</head>'));
    expect(head).toContain(`<script nonce="${nonce}" async src="https://www.googletagmanager.com/gtag/js?id=G-TEST"></script>`);
    expect(head).toContain(`<script nonce="${nonce}">window.dataLayer = window.dataLayer || [];`);
    const afterRoot = body.slice(body.indexOf('<div id="root">'), body.indexOf('</body>'));
    expect(afterRoot).toContain(`<noscript><img src="https://pixel.example/p.gif" alt=""></noscript><script nonce="${nonce}" src="https://pixel.example/p.js"></script>`);
    const scripts = scriptTags(body);
    expect(scripts).toHaveLength(5);
    expect(scripts.every((s) => browserWouldRun(csp, s))).toBe(true);
  });

  it('would block a script injected anywhere else: inline or from another host, without the nonce', async () => {
    const res = await page('/');
    const csp = String(res.headers['content-security-policy']);
    expect(browserWouldRun(csp, {})).toBe(false);
    expect(browserWouldRun(csp, { src: 'https://evil.example/x.js' })).toBe(false);
    expect(browserWouldRun(csp, { src: '/api/files/1.js' })).toBe(false);
    expect(browserWouldRun(csp, { nonce: 'guessed', src: 'https://evil.example/x.js' })).toBe(false);
    // The old policy would have run both (the reason for this change).
    const oldPolicy = "default-src 'self';script-src 'self' 'unsafe-inline' https:";
    expect(browserWouldRun(oldPolicy, {})).toBe(true);
    expect(browserWouldRun(oldPolicy, { src: 'https://evil.example/x.js' })).toBe(true);
  });

  it('keeps the API docs on their own policy and API paths a JSON 404', async () => {
    const docs = await t.app.inject('/api/docs');
    expect(docs.statusCode).toBe(200);
    // Its scripts are files of this origin without a nonce: the app's policy would block them.
    const docsCsp = String(docs.headers['content-security-policy']);
    expect(browserWouldRun(docsCsp, { src: '/api/docs/static/swagger-ui-bundle.js' })).toBe(true);
    expect(browserWouldRun(docsCsp, { src: 'https://evil.example/x.js' })).toBe(false);
    expect(scriptSources(docsCsp)).not.toContain("'unsafe-inline'");
    const missing = await t.app.inject('/api/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('not_found');
  });
});
