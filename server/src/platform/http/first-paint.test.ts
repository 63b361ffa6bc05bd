// The signed-out screens' first paint in the served page (first-paint.ts, index-html.ts). The web build's
// real server bundle is exercised by the browser journeys (e2e/first-paint.e2e.test.ts); here a small
// stand-in module with the same exports checks what the server does with it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { runInNewContext } from 'node:vm';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAppConfig } from '../../features/appconfig/seed';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { INDEX_TEMPLATE } from '../../test/index-template';
import { testDbKind } from '../../test/test-db';
import { conversations, messages, users } from '../../db/schema';
import { eq } from 'drizzle-orm';
import { acceptedLang, stylesheetsOf } from './first-paint';
import { firstPaintToken } from './web-app';


const MANIFEST = {
  'index.html': { file: 'assets/index-abc.js', css: ['assets/index-ghi.css'], imports: ['_react.js'] },
  '_react.js': { file: 'assets/react-def.js' },
  'src/Chat.tsx': { file: 'assets/Chat-3.js', css: ['assets/Chat-3.css'], imports: ['_react.js'] },
  'src/Login.tsx': { file: 'assets/Login-1.js', css: ['assets/Login-1.css'], imports: ['_layout.js', '_react.js'] },
  '_layout.js': { file: 'assets/layout-2.js', css: ['assets/layout-2.css', 'assets/index-ghi.css'] },
};

// The bundle's exports (web/src/prerender/entry.tsx): /login is drawn, /broken fails to draw, the rest is not drawn.
// The markup carries a script and a `$&` to prove neither runs nor is taken as a replacement pattern.
const BUNDLE = `
export const SCREEN_MODULES = { login: 'src/Login.tsx', signup: 'src/Login.tsx', recovery: 'src/Login.tsx', landing: 'src/Login.tsx' };
export function firstPaintScreen(url, lang) {
  if (url.startsWith('/login')) return { screen: 'login', url: '/login', lang };
  if (url === '/broken') return { screen: 'signup', url: '/broken', lang };
  return null;
}
export async function renderFirstPaint(screen, entries) {
  globalThis.__firstPaintRenders = (globalThis.__firstPaintRenders ?? 0) + 1;
  if (screen.screen === 'signup') throw new Error('cannot draw');
  const name = entries.find((entry) => entry.key === 'app_name').value;
  return '<h1>' + (screen.lang === 'es' ? 'Bienvenido' : 'Welcome back') + ' ' + name + ' $&</h1><script>window.ran = 1</script>';
}
`;

// A signed-in visitor's open conversation: the stand-in draws what the server read, as the real one does.
const CONVERSATION_BUNDLE = `
export const SIGNED_IN_MODULES = ['src/Chat.tsx'];
export async function renderConversationFirstPaint(picture, entries) {
  globalThis.__conversationRenders = (globalThis.__conversationRenders ?? 0) + 1;
  return '<main><h1>' + picture.conversation.name + '</h1>' + picture.page.messages.map((m) => '<p>' + m.content + '</p>').join('') + '<i>' + picture.user.email + ' ' + picture.lang + ' ' + picture.url + '</i></main>';
}
`;

const conversationRenders = () => (globalThis as { __conversationRenders?: number }).__conversationRenders ?? 0;

const renders = () => (globalThis as { __firstPaintRenders?: number }).__firstPaintRenders ?? 0;

describe('the visitor language and the screen stylesheets', () => {
  it("takes the first of Accept-Language's en or es, else English", () => {
    expect(acceptedLang('es-MX,es;q=0.9,en;q=0.8')).toBe('es');
    expect(acceptedLang('fr-FR,fr;q=0.9,es;q=0.5,en;q=0.4')).toBe('es');
    expect(acceptedLang('en-GB, es')).toBe('en');
    expect(acceptedLang('de')).toBe('en');
    expect(acceptedLang(undefined)).toBe('en');
    expect(acceptedLang('ES')).toBe('es');
  });

  it('lists the CSS of a screen and its static imports, without what the entry links already', () => {
    const linked = new Set(['assets/index-ghi.css']);
    expect(stylesheetsOf(MANIFEST, 'src/Login.tsx', linked)).toEqual(['/assets/Login-1.css', '/assets/layout-2.css']);
    expect(stylesheetsOf(MANIFEST, 'src/Missing.tsx', linked)).toEqual([]);
  });
});

describe(`the first paint in the served page (${testDbKind()})`, () => {
  let t: TestApp;
  let admin: BuiltUser;
  let webDir: string;

  const page = (url: string, lang = 'en-US') => t.app.inject({ url, headers: { host: 'app.example', 'accept-language': lang } });
  const nonceOf = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1];
  const overlayOf = (html: string) => /<div id="first-paint"[^>]*>([\s\S]*?)<\/div>/.exec(html);

  beforeAll(async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'pluma-first-paint-'));
    webDir = path.join(root, 'dist');
    mkdirSync(path.join(webDir, '.vite'), { recursive: true });
    mkdirSync(path.join(root, 'dist-ssr'));
    writeFileSync(path.join(webDir, 'index.html'), INDEX_TEMPLATE);
    writeFileSync(path.join(webDir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    writeFileSync(path.join(root, 'dist-ssr', 'entry.js'), BUNDLE + CONVERSATION_BUNDLE);
    t = await createTestApp({ WEB_DIST_DIR: webDir });
    await seedAppConfig(t.ctx);
    admin = await buildUser(t.ctx, { staffRole: 'admin' });
  });
  afterAll(async () => {
    await t.close();
    rmSync(path.dirname(webDir), { recursive: true, force: true });
  });

  it('draws the screen in the visitor language into an inert overlay, with its stylesheets', async () => {
    const english = await page('/login?next=%2Fsettings');
    expect(english.statusCode).toBe(200);
    expect(english.body).toContain('<html data-first-paint="en" lang="en">');
    const overlay = overlayOf(english.body);
    expect(overlay?.[0]).toMatch(/^<div id="first-paint" inert aria-hidden="true" lang="en">/);
    expect(overlay?.[1]).toContain('<h1>Welcome back Pluma $&</h1>');
    expect(english.body.indexOf('<div id="root"></div><div id="first-paint"')).toBeGreaterThan(0);
    const head = english.body.slice(0, english.body.indexOf('</head>'));
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/Login-1.css">');
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/layout-2.css">');
    expect(head.match(/index-ghi\.css/g)).toHaveLength(1);

    const spanish = await page('/login', 'es-ES,es;q=0.9');
    expect(spanish.body).toContain('data-first-paint="es"');
    expect(overlayOf(spanish.body)?.[1]).toContain('<h1>Bienvenido Pluma $&</h1>');
  });

  it('starts the entry and its early requests after the first frame, under the response nonce; nothing in the picture runs', async () => {
    const response = await page('/login');
    const nonce = nonceOf(String(response.headers['content-security-policy']));
    expect(nonce).toBeTruthy();
    const head = response.body.slice(0, response.body.indexOf('</head>'));
    // No request ahead of the picture's stylesheets: the preloads and the entry moved into the starter.
    expect(head).not.toMatch(/<link[^>]*rel="(?:modulepreload|preload)"/);
    expect(head).not.toMatch(/<script[^>]*src="\/assets\/index-abc\.js"/);
    const starter = [...response.body.matchAll(/<script type="module" nonce="([^"]+)">([\s\S]*?)<\/script>/g)];
    expect(starter).toHaveLength(1);
    expect(starter[0]![1]).toBe(nonce);
    expect(starter[0]![2]).toContain('requestAnimationFrame');
    expect(starter[0]![2]).toContain('import("/assets/index-abc.js")');
    expect(starter[0]![2]).toContain('"href":"/assets/react-def.js"');
    // The libraries run one per task before the entry (shorter tasks at start-up).
    expect(starter[0]![2]).toContain('["/assets/react-def.js"].forEach');
    expect(starter[0]![2]).toContain('"href":"/api/appconfig","as":"fetch"');
    // The drawn markup's script has no nonce: under 'strict-dynamic' it would never run.
    expect(overlayOf(response.body)?.[1]).toContain('<script>window.ran = 1</script>');
  });

  it('the starter waits for the picture\'s paint only when there is a picture to paint', async () => {
    const response = await page('/login');
    const starter = [...response.body.matchAll(/<script type="module" nonce="[^"]+">([\s\S]*?)<\/script>/g)][0]![1];
    /** Runs the starter in a page of its own; `started` tells whether it began loading (its preload links). */
    const run = ({ picture, hidden }: { picture: boolean; hidden: boolean }) => {
      const appended: unknown[] = [];
      const timers: { run: () => void; ms: number }[] = [];
      const observers: ((list: { getEntriesByName(name: string): unknown[] }, observer: { disconnect(): void }) => void)[] = [];
      const document = {
        visibilityState: hidden ? 'hidden' : 'visible',
        documentElement: { hasAttribute: (name: string) => picture && name === 'data-first-paint' },
        createElement: () => ({}),
        head: { appendChild: (node: unknown) => appended.push(node) },
      };
      runInNewContext(starter.replace(/\bimport\(/g, 'load('), {
        document,
        load: () => Promise.resolve(),
        setTimeout: (fn: () => void, ms = 0) => timers.push({ run: fn, ms }),
        requestAnimationFrame: (fn: () => void) => timers.push({ run: fn, ms: 16 }),
        PerformanceObserver: class {
          constructor(callback: (typeof observers)[number]) {
            observers.push(callback);
          }
          observe() {}
        },
      });
      return { started: () => appended.length > 0, timers, observers };
    };
    // A signed-in visitor on a screen the server did not draw (index.html took the picture away), or a hidden tab: at once.
    expect(run({ picture: false, hidden: false }).started()).toBe(true);
    expect(run({ picture: true, hidden: true }).started()).toBe(true);
    // A picture on screen: once its first contentful paint is recorded, not before.
    const drawn = run({ picture: true, hidden: false });
    expect(drawn.started()).toBe(false);
    drawn.observers[0]!({ getEntriesByName: (name) => (name === 'first-contentful-paint' ? [{}] : []) }, { disconnect() {} });
    for (const timer of drawn.timers.filter((t) => t.ms === 0)) timer.run();
    expect(drawn.started()).toBe(true);
  });

  it('leaves every other page as it was: no overlay, the entry and preloads in place', async () => {
    for (const url of ['/', '/conversations/4', '/pricing']) {
      const response = await page(url);
      expect(response.body).not.toContain('first-paint');
      expect(response.body).toMatch(/<script nonce="[^"]+" type="module" crossorigin src="\/assets\/index-abc\.js"><\/script>/);
      expect(response.body).toContain('rel="modulepreload"');
    }
  });

  it('serves the page without the picture when the screen cannot be drawn', async () => {
    const response = await page('/broken');
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('first-paint');
    expect(response.body).toContain('src="/assets/index-abc.js"');
  });

  it('draws once per screen, language and configuration, whatever the query string; a settings change draws anew', async () => {
    await page('/login?a=1');
    const before = renders();
    for (let i = 0; i < 5; i++) await page(`/login?x=${i}`);
    expect(renders()).toBe(before);
    const saved = await t.app.inject({ method: 'PUT', url: '/api/appconfig', headers: admin.auth, payload: [{ key: 'app_name', value: 'Escribe' }] });
    expect(saved.statusCode).toBe(200);
    const renamed = await page('/login');
    expect(overlayOf(renamed.body)?.[1]).toContain('<h1>Welcome back Escribe $&</h1>');
    expect(renders()).toBe(before + 1);
  });

  describe("a signed-in visitor's open conversation", () => {
    let owner: BuiltUser;
    let conversationId: number;
    const withCookie = (url: string, token: string, extra: Record<string, string> = {}) =>
      t.app.inject({ url, headers: { host: 'app.example', 'accept-language': 'en-US', cookie: `theme=dark; pluma_fp=${token}`, ...extra } });

    beforeAll(async () => {
      owner = await buildUser(t.ctx, { access: true, lang: 'es', email: `owner-${Date.now()}@example.com` });
      const [conversation] = await t.ctx.db.insert(conversations).values({ userId: owner.user.userId, name: 'Borrador <b>uno</b>' }).returning();
      conversationId = conversation!.conversationId;
      await t.ctx.db.insert(messages).values([
        { conversationId, userId: owner.user.userId, role: 'user', content: 'First question' },
        { conversationId, userId: owner.user.userId, role: 'assistant', content: 'The answer' },
      ]);
    });

    it("draws it from the first-paint cookie, in the user's language, never stored by a cache", async () => {
      const response = await withCookie(`/conversations/${conversationId}?x=1`, owner.token);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<html data-first-paint="es" data-first-paint-screen="conversation"');
      const overlay = overlayOf(response.body)?.[1] ?? '';
      // The page as the API sends it: newest first.
      expect(overlay).toContain('<h1>Borrador <b>uno</b></h1><p>The answer</p><p>First question</p>');
      expect(overlay).toContain(`${owner.user.email} es /conversations/${conversationId}</i>`);
      expect(response.body.slice(0, response.body.indexOf('</head>'))).toContain('href="/assets/Chat-3.css"');
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(String(response.headers.vary)).toContain('Cookie');
    });

    it('draws an unchanged conversation once, and anew when a message changes', async () => {
      await withCookie(`/conversations/${conversationId}`, owner.token);
      const before = conversationRenders();
      await withCookie(`/conversations/${conversationId}`, owner.token);
      expect(conversationRenders()).toBe(before);
      await t.ctx.db.update(messages).set({ content: 'The better answer' }).where(eq(messages.role, 'assistant'));
      const changed = await withCookie(`/conversations/${conversationId}`, owner.token);
      expect(overlayOf(changed.body)?.[1]).toContain('<p>The better answer</p>');
      expect(conversationRenders()).toBe(before + 1);
    });

    it("draws nothing of another user's conversation, for a bad or revoked token, or without access", async () => {
      const stranger = await buildUser(t.ctx, { access: true });
      const noAccess = await buildUser(t.ctx);
      const [own] = await t.ctx.db.insert(conversations).values({ userId: noAccess.user.userId, name: 'Mine' }).returning();
      const cases: [string, string][] = [
        [`/conversations/${conversationId}`, stranger.token],
        [`/conversations/${conversationId}`, 'x'.repeat(43)],
        [`/conversations/${conversationId}`, `${owner.token}"><script>`],
        [`/conversations/${own!.conversationId}`, noAccess.token],
        [`/conversations/999999`, owner.token],
      ];
      for (const [url, token] of cases) {
        const response = await withCookie(url, token);
        expect(response.statusCode).toBe(200);
        expect(response.body).not.toContain('data-first-paint-screen');
        expect(response.body).not.toContain('Borrador');
        expect(response.headers['cache-control']).toBe('no-cache');
      }
      // A user whose default organization may open the app there: the Personal picture could be wrong.
      const organization = await buildOrganization(t.ctx, [{ user: owner, role: 'member' }]);
      await t.ctx.db.update(users).set({ defaultOrganizationId: organization.organizationId }).where(eq(users.userId, owner.user.userId));
      expect((await withCookie(`/conversations/${conversationId}`, owner.token)).body).not.toContain('Borrador');
      await t.ctx.db.update(users).set({ defaultOrganizationId: null }).where(eq(users.userId, owner.user.userId));
      const signedOut = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: owner.auth });
      expect(signedOut.statusCode).toBeLessThan(300);
      const revoked = await withCookie(`/conversations/${conversationId}`, owner.token);
      expect(revoked.body).not.toContain('Borrador');
    });

    it('never authenticates an API call: the cookie is for the picture only', async () => {
      const other = await buildUser(t.ctx, { access: true });
      const response = await t.app.inject({ url: '/api/users', headers: { cookie: `pluma_fp=${other.token}` } });
      expect(response.statusCode).toBe(401);
    });

    it('reads only a well-formed token from the cookie header', () => {
      const token = 'a'.repeat(43);
      expect(firstPaintToken(`pluma_fp=${token}`)).toBe(token);
      expect(firstPaintToken(`a=1; pluma_fp=${token}; b=2`)).toBe(token);
      expect(firstPaintToken(`xpluma_fp=${token}`)).toBeNull();
      expect(firstPaintToken('pluma_fp=short')).toBeNull();
      expect(firstPaintToken(`pluma_fp=${token}<`)).toBeNull();
      expect(firstPaintToken(undefined)).toBeNull();
    });
  });
});
