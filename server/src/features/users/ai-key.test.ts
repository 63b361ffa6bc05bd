// The user's own AI key (spec part 1 §1, §2 Settings; issue 13 item 1) through the real app: saved sealed,
// shown masked to the last 4, tested through the real OpenAI SDK against the emulator (which accepts one key),
// removed; never another user's, never in the clear.
import { startOpenAiEmulator, type RunningEmulator } from '@pluma/emulators/index';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userAiKeys } from '../../db/schema';
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
