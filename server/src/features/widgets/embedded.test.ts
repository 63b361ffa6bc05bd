// The widget's pages and files through the real app with a built web folder (contract B): /chat-embedded
// renders the container without any inline script, framed only by the widget's websites (CSP
// frame-ancestors, no X-Frame-Options), 'none' for an unknown, disabled or unlisted widget, and wins over
// the web app's catch-all; /widget/pluma-widget.js and .css are served cross-origin. And at shutdown an answer
// in flight is saved as failed ('interrupted') and charged once.
import type { Widget, WidgetStartResponse } from '@pluma/common/widgets';
import { and, eq } from 'drizzle-orm';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avatars, creditLedger, widgetMessages } from '../../db/schema';
import { listenLocally } from '../../platform/realtime/socket-test-helpers';
import { INDEX_TEMPLATE } from '../../test/index-template';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';

const SHOP = 'https://shop.example.com';

describe(`widget pages and files (${testDbKind()})`, () => {
  let t: TestApp;
  let webDir: string;
  let owner: BuiltUser;
  let avatarId: number;
  const makeWidget = async (fields: object = {}) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/widgets', headers: owner.auth, payload: { avatar_id: avatarId, name: 'Shop "chat" <b>', allowed_origins: [SHOP, 'http://localhost:3000'], ...fields } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Widget;
  };

  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'pluma-widget-web-'));
    mkdirSync(path.join(webDir, 'widget'));
    writeFileSync(path.join(webDir, 'index.html'), INDEX_TEMPLATE);
    writeFileSync(path.join(webDir, 'widget', 'pluma-widget.js'), 'console.log("widget");\n');
    writeFileSync(path.join(webDir, 'widget', 'pluma-widget.css'), '.pluma{color:red}\n');
    t = await createTestApp({ WEB_DIST_DIR: webDir });
    owner = await buildUser(t.ctx, { access: true });
    const [avatar] = await t.ctx.db.insert(avatars).values({ userId: owner.user.userId, name: 'Helper', context: 'You help.' }).returning();
    avatarId = avatar.avatarId;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('renders /chat-embedded with the container, no inline script, framed only by the listed websites', async () => {
    const widget = await makeWidget();
    const res = await t.app.inject({ url: `/chat-embedded?key=${widget.public_key}&lang=es` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain(`frame-ancestors ${SHOP} http://localhost:3000`);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers['x-frame-options']).toBeUndefined();
    const html = res.body;
    expect(html).toContain(`data-key="${widget.public_key}"`);
    expect(html).toContain('data-mode="embedded"');
    expect(html).toContain('data-lang="es"');
    expect(html).toContain('data-accent="ff0000"');
    expect(html).toContain('data-name="Shop &quot;chat&quot; &lt;b&gt;"');
    expect(html).toContain('<link rel="stylesheet" href="/widget/pluma-widget.css">');
    expect(html).toContain('<script src="/widget/pluma-widget.js" defer></script>');
    // Every script on the page has a src: nothing inline.
    expect(html.match(/<script(?![^>]*\ssrc=)[^>]*>/g)).toBeNull();
    // Never the owner's id.
    expect(html).not.toContain(`"${owner.user.userId}"`);
  });

  it("answers 'none' for an unknown key, a disabled widget or one that lists no website", async () => {
    const unknown = await t.app.inject({ url: `/chat-embedded?key=pw_${'z'.repeat(32)}` });
    expect(unknown.statusCode).toBe(404);
    expect(String(unknown.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(unknown.body).toContain('This chat does not exist anymore.');
    const missing = await t.app.inject({ url: '/chat-embedded' });
    expect(missing.statusCode).toBe(404);
    const disabled = await makeWidget({ enabled: false });
    expect(String((await t.app.inject({ url: `/chat-embedded?key=${disabled.public_key}` })).headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    const unlisted = await makeWidget({ allowed_origins: [] });
    expect(String((await t.app.inject({ url: `/chat-embedded?key=${unlisted.public_key}` })).headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });

  it('serves /widget/pluma-widget.js and .css cross-origin', async () => {
    for (const file of ['/widget/pluma-widget.js', '/widget/pluma-widget.css']) {
      const res = await t.app.inject({ url: file });
      expect(res.statusCode, file).toBe(200);
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    // Other files keep the app's same-origin policy.
    const page = await t.app.inject({ url: '/' });
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('at shutdown an answer in flight is saved as failed (interrupted) and charged once', async () => {
    // Its own app on the same database: closing it is the point.
    const local = await createTestApp({}, { database: t.ctx.database });
    try {
      const who = await buildUser(local.ctx, { access: true });
      const [avatar] = await local.ctx.db.insert(avatars).values({ userId: who.user.userId, name: 'Helper', context: 'You help.' }).returning();
      const created = (
        await local.app.inject({ method: 'POST', url: '/api/widgets', headers: who.auth, payload: { avatar_id: avatar.avatarId, name: 'Shutdown', allowed_origins: [SHOP] } })
      ).json() as Widget;
      const session = (await local.app.inject({ method: 'POST', url: `/api/widget/${created.public_key}/start`, headers: { origin: SHOP }, payload: {} })).json() as WidgetStartResponse;
      const base = await listenLocally(local.app);
      const res = await fetch(`${base}/api/widget/${created.public_key}/messages`, {
        method: 'POST',
        headers: { origin: SHOP, authorization: `Bearer ${session.visitor_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: '[words:400] [rate:50] A very long answer' }),
      });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      await local.app.close();
      await reader.cancel().catch(() => undefined);
      const [answer] = await local.ctx.db
        .select()
        .from(widgetMessages)
        .where(and(eq(widgetMessages.sessionId, session.session.session_id), eq(widgetMessages.role, 'assistant')));
      expect(answer.status).toBe('failed');
      expect(answer.errorCode).toBe('interrupted');
      const entries = await local.ctx.db.select().from(creditLedger).where(and(eq(creditLedger.sourceType, 'widget'), eq(creditLedger.sourceId, String(answer.messageId))));
      expect(entries).toHaveLength(1);
    } finally {
      await local.close().catch(() => undefined);
    }
  });
});
