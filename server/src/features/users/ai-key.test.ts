// The user's own AI key (spec part 1 §1, §2 Settings; issue 13 item 1) through the real app: saved sealed,
// shown masked to the last 4, checked before saving and tested through the real OpenAI SDK against the emulator
// (which accepts one key: any other is refused and not saved), removed; never another user's, never in the
// clear. With the offline demo on, the demo model's emulator answers the check (issue 30 item 3).
import { startOpenAiEmulator, type RunningEmulator } from '@pluma/emulators/index';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userAiKeys } from '../../db/schema';
import { userKeysGoToDemo } from '../../platform/ai/user-key-client';
import { actorFromToken } from '../../platform/auth/guard';
import { AppError } from '../../platform/http/errors';
import { saveAiKey } from './ai-key-service';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';

const GOOD_KEY = 'sk-proj-user-key-0123456789wxyz';
const BAD_KEY = 'sk-proj-someone-else-000000000000';

describe(`the user's AI key (${testDbKind()})`, () => {
  let t: TestApp;
  let openai: RunningEmulator;
  let ana: BuiltUser;
  let ben: BuiltUser;

  const call = (who: BuiltUser | null, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who?.auth ?? {}, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    openai = await startOpenAiEmulator({ apiKey: GOOD_KEY });
    t = await createTestApp({ OPENAI_BASE_URL: openai.url });
    // No access needed to keep a key (Settings is open without access).
    ana = await buildUser(t.ctx);
    ben = await buildUser(t.ctx, { lang: 'es' });
  });
  afterAll(async () => {
    await t?.close();
    await openai?.close();
  });

  it('refuses signed-out callers on every route', async () => {
    for (const [method, url] of [
      ['GET', '/api/users/ai-key'],
      ['PUT', '/api/users/ai-key'],
      ['DELETE', '/api/users/ai-key'],
      ['POST', '/api/users/ai-key/test'],
    ] as const) {
      expect((await call(null, method, url, { api_key: GOOD_KEY })).statusCode).toBe(401);
    }
  });

  it('saves the key sealed, shows it masked to the last 4, and only to its owner', async () => {
    expect((await call(ana, 'GET', '/api/users/ai-key')).json()).toEqual({ configured: false, provider: null, masked: null, updatedAt: null });
    const saved = await call(ana, 'PUT', '/api/users/ai-key', { api_key: ` ${GOOD_KEY} ` });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ configured: true, provider: 'openai', masked: '••••••••wxyz' });
    expect(saved.body).not.toContain(GOOD_KEY);
    const [row] = await t.ctx.db.select().from(userAiKeys).where(eq(userAiKeys.userId, ana.user.userId));
    expect(row.keySealed.startsWith('v1:')).toBe(true);
    expect(row.keySealed).not.toContain(GOOD_KEY);
    expect((await call(ana, 'GET', '/api/users/ai-key')).json().masked).toBe('••••••••wxyz');
    // Another user sees their own (none), never Ana's.
    expect((await call(ben, 'GET', '/api/users/ai-key')).json().configured).toBe(false);
  });

  it('checks a key with the provider before saving it: a refused or unchecked key is not saved, translated', async () => {
    const refused = await call(ana, 'PUT', '/api/users/ai-key', { api_key: BAD_KEY });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'validation_error', details: { api_key: 'OpenAI refused this API key (401). Check that it is complete and active, then save it again.' } });
    // The key saved before stays.
    expect((await call(ana, 'GET', '/api/users/ai-key')).json()).toMatchObject({ configured: true, masked: '••••••••wxyz' });
    const refusedEs = await call(ben, 'PUT', '/api/users/ai-key', { api_key: BAD_KEY });
    expect(refusedEs.statusCode).toBe(400);
    expect(refusedEs.json().details.api_key).toBe('OpenAI rechazó esta clave de API (401). Revisa que esté completa y activa, y guárdala de nuevo.');
    expect((await call(ben, 'GET', '/api/users/ai-key')).json().configured).toBe(false);
    expect(await t.ctx.db.select().from(userAiKeys).where(eq(userAiKeys.userId, ben.user.userId))).toHaveLength(0);
  });

  it('refuses what cannot be a key, translated', async () => {
    for (const api_key of ['short', 'has spaces in the middle of it 1234', '']) {
      const res = await call(ben, 'PUT', '/api/users/ai-key', { api_key });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Esto no parece una clave de API.');
    }
    expect((await call(ben, 'GET', '/api/users/ai-key')).json().configured).toBe(false);
  });

  it('tests the saved key or a typed one through the provider; a refused key is an answer', async () => {
    const saved = await call(ana, 'POST', '/api/users/ai-key/test');
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ ok: true, provider: 'openai', status: 200 });
    const refused = (await call(ana, 'POST', '/api/users/ai-key/test', { api_key: BAD_KEY })).json();
    expect(refused).toMatchObject({ ok: false, provider: 'openai', status: 401 });
    // Without a saved key and none typed: the prompt to add one.
    const none = await call(ben, 'POST', '/api/users/ai-key/test', {});
    expect(none.statusCode).toBe(409);
    expect(none.json().error).toBe('ai_key_required');
  });

  it('removes the key', async () => {
    const removed = await call(ana, 'DELETE', '/api/users/ai-key');
    expect(removed.json()).toMatchObject({ configured: false, masked: null });
    expect(await t.ctx.db.select().from(userAiKeys).where(eq(userAiKeys.userId, ana.user.userId))).toHaveLength(0);
  });
});

describe(`the user's AI key with the offline demo on (${testDbKind()})`, () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it('is checked by the demo model when the demo serves (DEMO_AI, no operator key, no OPENAI_BASE_URL), else by the provider', async () => {
    t = await createTestApp();
    const lucia = await buildUser(t.ctx, { lang: 'es' });
    expect(await userKeysGoToDemo(t.ctx)).toBe(true);
    const saved = await t.app.inject({ method: 'PUT', url: '/api/users/ai-key', headers: lucia.auth, payload: { api_key: 'sk-proj-demo-newcomer-0123456789' } });
    expect(saved.statusCode, saved.body).toBe(200);
    const tested = await t.app.inject({ method: 'POST', url: '/api/users/ai-key/test', headers: lucia.auth });
    expect(tested.json()).toMatchObject({ ok: true, status: 200 });
    // An operator key, or calls pointed elsewhere, end the demo for users' keys.
    expect(await userKeysGoToDemo({ ...t.ctx, env: { ...t.ctx.env, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } })).toBe(false);
    expect(await userKeysGoToDemo({ ...t.ctx, env: { ...t.ctx.env, OPENAI_API_KEY: 'sk-operator-0123456789' } })).toBe(false);
    expect(await userKeysGoToDemo({ ...t.ctx, env: { ...t.ctx.env, DEMO_AI: false } })).toBe(false);
  });

  it('is not saved when the provider cannot be reached to check it', async () => {
    const pablo = await buildUser(t.ctx);
    const actor = await actorFromToken(t.app, pablo.token);
    if (!actor || actor === 'expired') throw new Error('no actor');
    const offline = { ...t.ctx, env: { ...t.ctx.env, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } };
    const error = await saveAiKey({ ctx: offline, actor, apiKey: 'sk-proj-unreachable-0123456789' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 502, messageKey: 'ai_key_unchecked' });
    expect(await t.ctx.db.select().from(userAiKeys).where(eq(userAiKeys.userId, pablo.user.userId))).toHaveLength(0);
  });
});
