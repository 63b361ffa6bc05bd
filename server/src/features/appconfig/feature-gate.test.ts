// The feature switches on the server (spec part 1 §2 "Main navigation tabs", §3 app configuration;
// docs/decisions.md "Feature switches on the server"): with a switch off every route of its feature answers
// 404 feature_disabled in the user's language — to staff admins and users without access too, before
// validation — and with it on the routes answer as before; saving the setting takes effect at once, a write
// behind the app's back within the cache's few seconds.
import { translate } from '@pluma/common/messages';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appConfig, ideaRequests } from '../../db/schema';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';
import { FEATURE_SWITCHES, FEATURE_SWITCHES_TTL_MS, featureSwitches, type FeatureSwitch } from './feature-gate';

describe(`feature switches on the server (${testDbKind()})`, () => {
  let t: TestApp;
  let ana: BuiltUser; // access, English
  let lucia: BuiltUser; // access, Spanish
  let noAccess: BuiltUser;
  let admin: BuiltUser; // staff admin

  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
  const call = (who: BuiltUser | null, method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who?.auth ?? {}, ...(payload ? { payload } : {}) });

  /** Saves switches through PUT /api/appconfig, as the admin settings screen does. */
  const save = async (changes: Partial<Record<FeatureSwitch, boolean>>) => {
    const res = await call(
      admin,
      'PUT',
      '/api/appconfig',
      Object.entries(changes).map(([key, on]) => ({ key, value: String(on) })),
    );
    expect(res.statusCode, res.body).toBe(200);
  };
  const allOn = () => Object.fromEntries(FEATURE_SWITCHES.map((key) => [key, true]));

  const expectDisabled = (res: Awaited<ReturnType<typeof call>>, lang: 'en' | 'es' = 'en') => {
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toMatchObject({ error: 'feature_disabled', message: translate(lang, 'feature_disabled') });
  };

  beforeAll(async () => {
    t = await createTestApp();
    ana = await buildUser(t.ctx, { name: 'Ana', access: true });
    lucia = await buildUser(t.ctx, { name: 'Lucía', access: true, lang: 'es' });
    noAccess = await buildUser(t.ctx, { name: 'Nadie' });
    admin = await buildUser(t.ctx, { name: 'Root', staffRole: 'admin' });
  });
  afterEach(async () => save(allOn()));
  afterAll(async () => t?.close());

  it('has the texts of the refusal in both languages', () => {
    expect(translate('en', 'feature_disabled')).toBe('This feature is not available.');
    expect(translate('es', 'feature_disabled')).toBe('Esta función no está disponible.');
  });

  it('reads every switch in one go, on by default, and reuses the read for a few seconds', async () => {
    const now = Date.now();
    expect(await featureSwitches(t.ctx, now)).toEqual(allOn());
    // Written behind the app's back (another node's save): this node sees it once its read expires.
    await t.ctx.db.update(appConfig).set({ value: 'false' }).where(eq(appConfig.key, 'tutorials_enabled'));
    expect((await featureSwitches(t.ctx, now + 1)).tutorials_enabled).toBe(true);
    expect((await featureSwitches(t.ctx, now + FEATURE_SWITCHES_TTL_MS + 1)).tutorials_enabled).toBe(false);
    // A missing row is the default (on).
    await t.ctx.db.delete(appConfig).where(eq(appConfig.key, 'tutorials_enabled'));
    expect((await featureSwitches(t.ctx, now + 2 * FEATURE_SWITCHES_TTL_MS + 2)).tutorials_enabled).toBe(true);
  });

  it('takes a saved switch into account at once, both ways', async () => {
    expect((await call(ana, 'GET', '/api/tutorials')).statusCode).toBe(200);
    await save({ tutorials_enabled: false });
    expectDisabled(await call(ana, 'GET', '/api/tutorials'));
    await save({ tutorials_enabled: true });
    expect((await call(ana, 'GET', '/api/tutorials')).statusCode).toBe(200);
  });

  // One row per gated route group: the request, who makes it, and how it answers with the switch on
  // (a status and, for an error, its id: a refusal of the feature is never one of them).
  interface Row {
    area: string;
    key: FeatureSwitch;
    who: () => BuiltUser;
    method: Method;
    url: () => string;
    body?: object;
    on: { status: number; error?: string };
  }
  let superFetchAvatarId = 0;
  const rows: Row[] = [
    { area: 'templates: list', key: 'templates_enabled', who: () => ana, method: 'GET', url: () => '/api/templates', on: { status: 200 } },
    { area: 'templates: one (unknown)', key: 'templates_enabled', who: () => ana, method: 'GET', url: () => '/api/templates/999999', on: { status: 404, error: 'not_found' } },
    { area: 'templates: create (invalid)', key: 'templates_enabled', who: () => ana, method: 'POST', url: () => '/api/templates', body: {}, on: { status: 400 } },
    { area: 'templates: tags, staff admin', key: 'templates_enabled', who: () => admin, method: 'POST', url: () => '/api/templates/tags', body: {}, on: { status: 400 } },
    { area: 'workflows: list', key: 'templates_enabled', who: () => ana, method: 'GET', url: () => '/api/workflows', on: { status: 200 } },
    { area: 'workflows: create, staff admin', key: 'templates_enabled', who: () => admin, method: 'POST', url: () => '/api/workflows', body: {}, on: { status: 400 } },
    { area: 'user workflows: list', key: 'templates_enabled', who: () => ana, method: 'GET', url: () => '/api/user_workflows', on: { status: 200 } },
    { area: 'super fetch: its avatar', key: 'super_fetch', who: () => ana, method: 'GET', url: () => '/api/avatars/super-fetch', on: { status: 200 } },
    { area: 'super fetch: history', key: 'super_fetch', who: () => ana, method: 'GET', url: () => `/api/super_fetch/messages/${superFetchAvatarId}`, on: { status: 200 } },
    { area: 'super fetch: run (invalid)', key: 'super_fetch', who: () => ana, method: 'POST', url: () => '/api/super_fetch/v2', body: {}, on: { status: 400 } },
    { area: 'super fetch: first version (invalid)', key: 'super_fetch', who: () => ana, method: 'POST', url: () => '/api/super_fetch', body: {}, on: { status: 400 } },
    { area: 'avatars: message about a document (no file)', key: 'avatars_enabled', who: () => ana, method: 'POST', url: () => '/api/avatars/user-message/document-request', body: {}, on: { status: 400 } },
    { area: 'avatars: list', key: 'avatars_enabled', who: () => ana, method: 'GET', url: () => '/api/avatars', on: { status: 200 } },
    { area: 'avatars: create (no AI key)', key: 'avatars_enabled', who: () => ana, method: 'POST', url: () => '/api/avatars', body: {}, on: { status: 409, error: 'ai_key_required' } },
    { area: 'trainings: list', key: 'avatars_enabled', who: () => ana, method: 'GET', url: () => '/api/trainings', on: { status: 200 } },
    { area: 'trainings: execute (no AI key)', key: 'avatars_enabled', who: () => ana, method: 'POST', url: () => '/api/trainings/execute', body: {}, on: { status: 409, error: 'ai_key_required' } },
    { area: 'outputs: one (unknown)', key: 'avatars_enabled', who: () => ana, method: 'GET', url: () => '/api/outputs/999999', on: { status: 404, error: 'not_found' } },
    { area: 'hashtags: history', key: 'hashtags_enabled', who: () => ana, method: 'GET', url: () => '/api/ideas/hashtags', on: { status: 200 } },
    { area: 'hashtags: generate (invalid)', key: 'hashtags_enabled', who: () => ana, method: 'POST', url: () => '/api/ideas/hashtags', body: {}, on: { status: 400 } },
    { area: 'topics: history', key: 'topics_enabled', who: () => ana, method: 'GET', url: () => '/api/ideas/topics', on: { status: 200 } },
    { area: 'topics: generate (invalid)', key: 'topics_enabled', who: () => ana, method: 'POST', url: () => '/api/ideas/topics', body: {}, on: { status: 400 } },
    { area: 'tutorials: list', key: 'tutorials_enabled', who: () => ana, method: 'GET', url: () => '/api/tutorials', on: { status: 200 } },
    { area: 'tutorials: create, staff admin', key: 'tutorials_enabled', who: () => admin, method: 'POST', url: () => '/api/tutorials', body: {}, on: { status: 400 } },
  ];

  it.each(rows)('$area: refused with $key off, answers with it on', async (row) => {
    if (!superFetchAvatarId) superFetchAvatarId = (await call(ana, 'GET', '/api/avatars/super-fetch')).json().avatar_id;
    const send = (who: BuiltUser) => call(who, row.method, row.url(), row.body);
    const expectOn = async () => {
      const res = await send(row.who());
      expect(res.statusCode, res.body).toBe(row.on.status);
      if (row.on.error) expect(res.json().error).toBe(row.on.error);
    };
    await expectOn();
    await save({ [row.key]: false });
    // Refused before anything else: for its caller, a Spanish user, a user without access (not 412), anonymous still 401.
    expectDisabled(await send(row.who()));
    expectDisabled(await send(lucia), 'es');
    expectDisabled(await send(noAccess));
    expect((await call(null, row.method, row.url(), row.body)).statusCode).toBe(401);
    // The other switches leave it alone.
    await save({ ...allOn(), ...Object.fromEntries(FEATURE_SWITCHES.filter((key) => key !== row.key).map((key) => [key, false])) });
    await expectOn();
  });

  it('refuses staff admins too: their management routes and the users’ ones', async () => {
    // Switched on, a management route is the staff admins' (403 for others); off, it does not exist (404 first).
    expect((await call(ana, 'POST', '/api/templates/types', { name: 'Ads' })).statusCode).toBe(403);
    expect((await call(ana, 'DELETE', '/api/workflows/999999')).statusCode).toBe(403);
    expect((await call(ana, 'PUT', '/api/tutorials/order', { ids: [1] })).statusCode).toBe(403);
    await save({ templates_enabled: false, tutorials_enabled: false });
    expectDisabled(await call(ana, 'POST', '/api/templates/types', { name: 'Ads' }));
    expectDisabled(await call(ana, 'DELETE', '/api/workflows/999999'));
    expectDisabled(await call(ana, 'PUT', '/api/tutorials/order', { ids: [1] }));
    expectDisabled(await call(admin, 'GET', '/api/templates'));
    expectDisabled(await call(admin, 'POST', '/api/templates/types', { name: 'Ads' }));
    expectDisabled(await call(admin, 'PUT', '/api/tutorials/order', { ids: [1] }));
    expectDisabled(await call(admin, 'GET', '/api/tutorials'));
  });

  it('keeps the Super Fetch avatar with avatars off, and the avatars with Super Fetch off', async () => {
    await save({ avatars_enabled: false });
    expect((await call(ana, 'GET', '/api/avatars/super-fetch')).statusCode).toBe(200);
    expectDisabled(await call(ana, 'GET', `/api/avatars/${superFetchAvatarId || 1}`));
    await save({ avatars_enabled: true, super_fetch: false });
    expectDisabled(await call(ana, 'GET', '/api/avatars/super-fetch'));
    expect((await call(ana, 'GET', '/api/avatars')).statusCode).toBe(200);
  });

  it('deletes an idea only while its own generator is on', async () => {
    const insert = async (messageTypeId: 2 | 3) => {
      const [row] = await t.ctx.db
        .insert(ideaRequests)
        .values({ userId: ana.user.userId, messageTypeId, subject: 'Coffee', language: 'en', count: 2, items: ['a', 'b'] })
        .returning();
      return row.ideaId;
    };
    const hashtag = await insert(2);
    const topic = await insert(3);
    await save({ hashtags_enabled: false });
    const refused = await call(ana, 'DELETE', `/api/ideas/${hashtag}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error).toBe('not_found');
    expect((await t.ctx.db.select().from(ideaRequests).where(eq(ideaRequests.ideaId, hashtag))).length).toBe(1);
    expect((await call(ana, 'DELETE', `/api/ideas/${topic}`)).statusCode).toBe(200);
    await save({ topics_enabled: false });
    expectDisabled(await call(ana, 'DELETE', `/api/ideas/${hashtag}`));
    await save({ hashtags_enabled: true });
    expect((await call(ana, 'DELETE', `/api/ideas/${hashtag}`)).statusCode).toBe(200);
  });

  it('refuses an unknown idea kind with the right status whatever the switches', async () => {
    expect((await call(ana, 'GET', '/api/ideas/memes')).statusCode).toBe(400);
    await save({ hashtags_enabled: false, topics_enabled: false });
    expectDisabled(await call(ana, 'GET', '/api/ideas/memes'));
  });
});
