// The owner's chat widgets API through the real app and a real database (contract B "Owner API"; spec part 2
// §2 "Chat widget generator", §5): create (JSON and multipart with a button image), list, update, rotate the
// key, delete, the sessions and their messages; and every refusal: validation texts EN/ES (avatar first, then
// name), a bad colour or website, another user's (or a private foreign) avatar 404, another user's widget 404,
// organization scope 404, no access 412, anonymous 401.
import type { Widget } from '@pluma/common/widgets';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avatars, widgetMessages, widgets, widgetSessions } from '../../db/schema';
import { multipartBody, pngBytes } from '../files/test-fixtures';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe(`widgets owner API (${testDbKind()})`, () => {
  let t: TestApp;
  let ana: BuiltUser;
  let ben: BuiltUser;
  let noAccess: BuiltUser;
  let anaAvatar: number;
  let benAvatar: number;
  let publicAvatar: number;
  const call = (who: BuiltUser | null, method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who?.auth ?? {}, ...(payload ? { payload } : {}) });
  const avatarOf = async (who: BuiltUser, fields: Partial<typeof avatars.$inferInsert> = {}) => {
    const [row] = await t.ctx.db
      .insert(avatars)
      .values({ userId: who.user.userId, name: 'Helper', context: 'You help shoppers.', ...fields })
      .returning();
    return row.avatarId;
  };
  const create = async (who: BuiltUser, body: object) => {
    const res = await call(who, 'POST', '/api/widgets', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Widget;
  };

  beforeAll(async () => {
    t = await createTestApp();
    ana = await buildUser(t.ctx, { access: true });
    ben = await buildUser(t.ctx, { access: true, lang: 'es' });
    noAccess = await buildUser(t.ctx);
    anaAvatar = await avatarOf(ana, { name: 'Shop helper' });
    benAvatar = await avatarOf(ben);
    publicAvatar = await avatarOf(ben, { name: 'Community', public: true });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('creates a widget with defaults, a public key and normalized websites, and lists it', async () => {
    const created = await create(ana, { avatar_id: anaAvatar, name: ' Shop chat ', allowed_origins: ['https://Shop.example.com/', 'https://shop.example.com', 'http://localhost:5173'] });
    expect(created).toMatchObject({
      avatar_id: anaAvatar,
      avatar_name: 'Shop helper',
      name: 'Shop chat',
      accent_color: '#ff0000',
      image_url: null,
      allowed_origins: ['https://shop.example.com', 'http://localhost:5173'],
      enabled: true,
      words_used: 0,
      sessions_count: 0,
      abilities: { update: true, delete: true },
    });
    expect(created.public_key).toMatch(/^pw_[A-Za-z0-9_-]{32}$/);
    const list = await call(ana, 'GET', '/api/widgets');
    expect(list.statusCode).toBe(200);
    expect((list.json() as { widgets: Widget[] }).widgets.map((w) => w.widget_id)).toContain(created.widget_id);
    // Another user's list does not show it.
    expect((await call(ben, 'GET', '/api/widgets')).json().widgets.map((w: Widget) => w.widget_id)).not.toContain(created.widget_id);
  });

  it('refuses a missing avatar first, then a missing name, with the spec texts in EN and ES; a bad colour or website', async () => {
    const noAvatar = await call(ana, 'POST', '/api/widgets', { name: '' });
    expect(noAvatar.statusCode).toBe(400);
    expect(noAvatar.json().message).toBe('Please select an avatar');
    const noName = await call(ana, 'POST', '/api/widgets', { avatar_id: anaAvatar, name: '  ' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toBe('Please type in a name for your Widget');
    const noNameEs = await call(ben, 'POST', '/api/widgets', { avatar_id: benAvatar });
    expect(noNameEs.json().message).toBe('Por favor escribe un nombre para tu Widget');
    const noAvatarEs = await call(ben, 'POST', '/api/widgets', { name: 'x' });
    expect(noAvatarEs.json().message).toBe('Por favor selecciona un avatar');
    const colour = await call(ana, 'POST', '/api/widgets', { avatar_id: anaAvatar, name: 'x', accent_color: 'red; background:url(x)' });
    expect(colour.statusCode).toBe(400);
    expect(colour.json().details.accent_color).toBe('The accent colour must be a hex colour such as #ff0000.');
    const short = await create(ana, { avatar_id: anaAvatar, name: 'Short hex', accent_color: '#0A0' });
    expect(short.accent_color).toBe('#00aa00');
    for (const origin of ['https://shop.example.com/path', 'javascript:alert(1)', 'shop.example.com', 'https://user:pw@shop.example.com', '*']) {
      const res = await call(ana, 'POST', '/api/widgets', { avatar_id: anaAvatar, name: 'x', allowed_origins: [origin] });
      expect(res.statusCode, origin).toBe(400);
      expect(res.json().details['allowed_origins.0']).toBe('Each website must look like https://shop.example.com (no path).');
    }
    const many = await call(ana, 'POST', '/api/widgets', { avatar_id: anaAvatar, name: 'x', allowed_origins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example.com`) });
    expect(many.statusCode).toBe(400);
    const long = await call(ana, 'POST', '/api/widgets', { avatar_id: anaAvatar, name: 'x'.repeat(101) });
    expect(long.statusCode).toBe(400);
    expect(await t.ctx.db.select().from(widgets).where(eq(widgets.name, 'x'))).toHaveLength(0);
  });

  it("uses only an avatar the owner may use: another user's private avatar is 404, a public one is fine, also for a staff admin", async () => {
    const foreign = await call(ana, 'POST', '/api/widgets', { avatar_id: benAvatar, name: 'Borrowed' });
    expect(foreign.statusCode).toBe(404);
    const missing = await call(ana, 'POST', '/api/widgets', { avatar_id: 2_000_000_000, name: 'Ghost' });
    expect(missing.statusCode).toBe(404);
    const community = await create(ana, { avatar_id: publicAvatar, name: 'Community chat' });
    expect(community.avatar_name).toBe('Community');
    // A staff admin sees every avatar, but a widget would publish a private one: 404.
    const admin = await buildUser(t.ctx, { access: true, staffRole: 'admin' });
    expect((await call(admin, 'POST', '/api/widgets', { avatar_id: benAvatar, name: 'Peek' })).statusCode).toBe(404);
    // Changing to a foreign avatar is refused the same way.
    expect((await call(ana, 'PUT', `/api/widgets/${community.widget_id}`, { avatar_id: benAvatar })).statusCode).toBe(404);
  });

  it('takes a button image through multipart and serves it publicly; PUT updates fields and removes the image', async () => {
    const form = multipartBody(
      { field: 'image', name: 'button.png', bytes: pngBytes(), contentType: 'image/png' },
      { widget: JSON.stringify({ avatar_id: anaAvatar, name: 'With image', accent_color: '#123456' }) },
    );
    const res = await t.app.inject({ method: 'POST', url: '/api/widgets', headers: { ...ana.auth, ...form.headers }, payload: form.payload });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as Widget;
    expect(created.image_url).toMatch(/^https?:\/\/[^/]+\/api\/files\/[A-Za-z0-9_-]+\.png$/);
    const image = await t.app.inject({ method: 'GET', url: new URL(created.image_url as string).pathname });
    expect(image.statusCode).toBe(200);
    expect(image.headers['cross-origin-resource-policy']).toBe('cross-origin');

    const updated = await call(ana, 'PUT', `/api/widgets/${created.widget_id}`, { name: 'Renamed', enabled: false, allowed_origins: ['https://a.example'], remove_image: true });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Renamed', enabled: false, allowed_origins: ['https://a.example'], image_url: null, accent_color: '#123456' });
    const badForm = multipartBody(null, { widget: '{not json' });
    const bad = await t.app.inject({ method: 'PUT', url: `/api/widgets/${created.widget_id}`, headers: { ...ana.auth, ...badForm.headers }, payload: badForm.payload });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('The widget form is not valid JSON.');
  });

  it('rotates the key (a new public key, the old one gone) and deletes with sessions and messages', async () => {
    const created = await create(ana, { avatar_id: anaAvatar, name: 'Rotating' });
    const rotated = await call(ana, 'POST', `/api/widgets/${created.widget_id}/rotate-key`);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().public_key).not.toBe(created.public_key);
    expect(await t.ctx.db.select().from(widgets).where(eq(widgets.publicKey, created.public_key))).toHaveLength(0);
    const [row] = await t.ctx.db.select().from(widgets).where(eq(widgets.widgetId, created.widget_id));
    expect(row.keyVersion).toBe(2);

    const [session] = await t.ctx.db
      .insert(widgetSessions)
      .values({ widgetId: created.widget_id, tokenHash: `h-${created.widget_id}`, origin: 'https://a.example', expiresAt: new Date(Date.now() + 60_000) })
      .returning();
    await t.ctx.db.insert(widgetMessages).values({ sessionId: session.sessionId, role: 'user', content: 'Hi' });
    const deleted = await call(ana, 'DELETE', `/api/widgets/${created.widget_id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ deleted: true });
    expect(await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.sessionId, session.sessionId))).toHaveLength(0);
    expect((await call(ana, 'DELETE', `/api/widgets/${created.widget_id}`)).statusCode).toBe(404);
  });

  it('lists sessions newest first with a preview, 20 a page, and shows one with its messages', async () => {
    const created = await create(ana, { avatar_id: anaAvatar, name: 'Sessions' });
    const ids: number[] = [];
    for (let i = 0; i < 22; i++) {
      const [s] = await t.ctx.db
        .insert(widgetSessions)
        .values({ widgetId: created.widget_id, tokenHash: `s-${created.widget_id}-${i}`, origin: 'https://a.example', expiresAt: new Date(Date.now() + 60_000), startedAt: new Date(Date.now() - (22 - i) * 1000), messagesCount: 2 })
        .returning();
      await t.ctx.db.insert(widgetMessages).values([
        { sessionId: s.sessionId, role: 'user', content: `Question ${i} ${'long '.repeat(40)}` },
        { sessionId: s.sessionId, role: 'assistant', content: `Answer ${i}` },
      ]);
      ids.push(s.sessionId);
    }
    const first = await call(ana, 'GET', `/api/widgets/${created.widget_id}/sessions`);
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.total).toBe(22);
    expect(page1.sessions).toHaveLength(20);
    expect(page1.sessions[0].session_id).toBe(ids[21]);
    expect(page1.sessions[0].preview, JSON.stringify(page1.sessions[0])).toMatch(/^Question 21/);
    expect(page1.sessions[0].preview.startsWith('Question 21')).toBe(true);
    expect(page1.sessions[0].preview.length).toBe(120);
    const page2 = (await call(ana, 'GET', `/api/widgets/${created.widget_id}/sessions?page=2`)).json();
    expect(page2.sessions.map((s: { session_id: number }) => s.session_id)).toEqual([ids[1], ids[0]]);
    const one = await call(ana, 'GET', `/api/widgets/${created.widget_id}/sessions/${ids[3]}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().messages.map((m: { role: string; content: string }) => [m.role, m.content.slice(0, 10)])).toEqual([
      ['user', 'Question 3'],
      ['assistant', 'Answer 3'],
    ]);
    expect((await t.app.inject({ method: 'GET', url: '/api/widgets' })).statusCode).toBe(401);
    const widgetsCount = (await call(ana, 'GET', '/api/widgets')).json().widgets.find((w: Widget) => w.widget_id === created.widget_id).sessions_count;
    expect(widgetsCount).toBe(22);
  });

  it("refuses another user's widget (404 on every route), an organization (404), no access (412) and anonymous (401)", async () => {
    const created = await create(ana, { avatar_id: anaAvatar, name: 'Private' });
    const [session] = await t.ctx.db
      .insert(widgetSessions)
      .values({ widgetId: created.widget_id, tokenHash: `p-${created.widget_id}`, origin: 'https://a.example', expiresAt: new Date(Date.now() + 60_000) })
      .returning();
    const id = created.widget_id;
    const routes: [Method, string, object?][] = [
      ['PUT', `/api/widgets/${id}`, { name: 'Mine now' }],
      ['POST', `/api/widgets/${id}/rotate-key`],
      ['DELETE', `/api/widgets/${id}`],
      ['GET', `/api/widgets/${id}/sessions`],
      ['GET', `/api/widgets/${id}/sessions/${session.sessionId}`],
    ];
    for (const [method, url, body] of routes) {
      expect((await call(ben, method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    // A session of another widget through one's own widget is a 404 too.
    const own = await create(ben, { avatar_id: benAvatar, name: 'Bens' });
    expect((await call(ben, 'GET', `/api/widgets/${own.widget_id}/sessions/${session.sessionId}`)).statusCode).toBe(404);

    const org = await buildOrganization(t.ctx, [{ user: ana, role: 'admin' }]);
    const inOrg = await call(ana, 'GET', `/api/widgets?organization_id=${org.organizationId}`);
    expect(inOrg.statusCode).toBe(404);
    expect(inOrg.json().message).toBe('Chat widgets are only available in your personal space, not in an organization.');
    expect((await call(ana, 'POST', `/api/widgets?organization_id=${org.organizationId}`, { avatar_id: anaAvatar, name: 'Org' })).statusCode).toBe(404);
    expect((await call(ana, 'PUT', `/api/widgets/${id}?organization_id=${org.organizationId}`, { name: 'Org' })).statusCode).toBe(404);
    expect((await call(ana, 'GET', `/api/widgets/${id}/sessions?organization_id=${org.organizationId}`)).statusCode).toBe(404);

    expect((await call(noAccess, 'GET', '/api/widgets')).statusCode).toBe(412);
    expect((await call(noAccess, 'POST', '/api/widgets', { avatar_id: anaAvatar, name: 'x' })).statusCode).toBe(412);
    expect((await call(null, 'POST', `/api/widgets/${id}/rotate-key`)).statusCode).toBe(401);
    // Nothing changed.
    const [row] = await t.ctx.db.select().from(widgets).where(eq(widgets.widgetId, id));
    expect(row.name).toBe('Private');
    expect(row.publicKey).toBe(created.public_key);
  });
});
