// POST /api/appconfig/admin/test (the settings' "Test" of the AI and Stripe keys) through the real app and the
// real SDKs against the OpenAI and Stripe emulators, each accepting one key only; and openai_model as the
// default chat model (GET /api/models, and a chat request that names no model).
import { startOpenAiEmulator, startStripeEmulator, type RunningEmulator, type RunningStripeEmulator } from '@pluma/emulators/index';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appConfig, auditLog } from '../../db/schema';
import { providerSettingsChanged } from '../../platform/ai/settings';
import { buildStaffCast, type BuiltUser } from '../../test/factories';
import { stripeEmulatorEnv } from '../../test/stripe-test-app';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';

const OPENAI_KEY = 'sk-proj-admin-key-0123456789abcd';
const STRIPE_KEY = 'sk_test_settings_key_0123456789';

describe(`settings key tests and the default model (${testDbKind()})`, () => {
  let t: TestApp;
  let openai: RunningEmulator;
  let stripe: RunningStripeEmulator;
  let admin: BuiltUser;
  let spanishAdmin: BuiltUser;
  let manager: BuiltUser;
  let customer: BuiltUser;

  const test = (who: BuiltUser | null, body: object) =>
    t.app.inject({ method: 'POST', url: '/api/appconfig/admin/test', headers: who?.auth ?? {}, payload: body });
  const save = (changes: { key: string; value: string }[]) => t.app.inject({ method: 'PUT', url: '/api/appconfig', headers: admin.auth, payload: changes });

  beforeAll(async () => {
    openai = await startOpenAiEmulator({ apiKey: OPENAI_KEY, models: ['gpt-4o-mini', 'gpt-4.1'] });
    stripe = await startStripeEmulator({ apiKey: STRIPE_KEY });
    // No key in the environment: the keys come from the settings.
    t = await createTestApp({
      OPENAI_BASE_URL: openai.url,
      ...stripeEmulatorEnv(stripe),
      DEMO_AI: 'true',
    });
    ({ admin, spanishAdmin, manager, customer } = await buildStaffCast(t.ctx));
  });
  afterAll(async () => {
    await t?.close();
    await openai?.close();
    await stripe?.close();
  });
  beforeEach(async () => {
    await t.ctx.db.delete(appConfig);
    providerSettingsChanged(t.ctx);
    openai.resetStats();
  });

  it('refuses everyone but admins: 401 signed out, 403 for customers and managers, before validation', async () => {
    expect((await test(null, { key: 'nope' })).statusCode).toBe(401);
    for (const who of [customer, manager]) {
      const res = await test(who, { key: 'nope' });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
    expect((await test(admin, { key: 'app_name' })).statusCode).toBe(400);
    // A value that cannot be a key (spaces, control characters) is refused before any call.
    expect((await test(admin, { key: 'openai_secret_key', value: 'sk bad\nkey' })).statusCode).toBe(400);
    expect(openai.stats.requests).toBe(0);
  });

  it('answers not_configured when there is no key to test', async () => {
    const res = await test(admin, { key: 'openai_secret_key' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: false, provider: 'openai', status: null, code: 'not_configured', message: null });
  });

  it("tests a typed OpenAI key with one call to the provider, and reports the provider's refusal", async () => {
    const good = await test(admin, { key: 'openai_secret_key', value: OPENAI_KEY });
    expect(good.json()).toEqual({ ok: true, provider: 'openai', status: 200, code: null, message: null });
    expect(openai.stats.requests).toBe(1);

    const bad = await spanishAdminTest({ key: 'openai_secret_key', value: 'sk-proj-wrong-key-000000000000' });
    expect(bad).toMatchObject({ ok: false, provider: 'openai', status: 401, code: 'invalid_api_key' });
    expect(bad.message).toContain('Incorrect API key');
    // The typed key was not saved, and the audit row names the key and the outcome, never the value.
    expect(await t.ctx.db.select().from(appConfig).where(eq(appConfig.key, 'openai_secret_key'))).toEqual([]);
    const [row] = await t.ctx.db.select().from(auditLog).where(eq(auditLog.actorUserId, spanishAdmin.user.userId)).orderBy(desc(auditLog.auditId)).limit(1);
    expect(JSON.stringify(row)).not.toContain('wrong-key');
    expect(JSON.stringify(row)).toContain('openai_secret_key');
  });

  it('tests the saved key when the value sent is empty or still masked, and names the missing model', async () => {
    expect((await save([{ key: 'openai_secret_key', value: OPENAI_KEY }])).statusCode).toBe(200);
    expect((await test(admin, { key: 'openai_secret_key', value: '••••••••abcd' })).json().ok).toBe(true);
    expect((await test(admin, { key: 'openai_secret_key' })).json().ok).toBe(true);
    // openai_model names a model the provider does not serve: the test says so.
    await save([{ key: 'openai_model', value: 'gpt-9-unknown' }]);
    expect((await test(admin, { key: 'openai_secret_key' })).json()).toMatchObject({ ok: false, status: 404, code: 'model_not_found' });
  });

  it("tests the Stripe secret key by retrieving the account's balance", async () => {
    expect((await test(admin, { key: 'stripe_private_key', value: STRIPE_KEY })).json()).toEqual({ ok: true, provider: 'stripe', status: 200, code: null, message: null });
    const bad = (await test(admin, { key: 'stripe_private_key', value: 'sk_test_not_this_one_000000' })).json();
    expect(bad).toMatchObject({ ok: false, provider: 'stripe', status: 401 });
    expect(stripe.requests.filter((r) => r.path === '/v1/balance').map((r) => r.status)).toEqual([200, 401]);
  });

  it("makes the admin's openai_model the default chat model, over GPT 4o Mini", async () => {
    await save([{ key: 'openai_secret_key', value: OPENAI_KEY }]);
    const models = async () => (await t.app.inject({ method: 'GET', url: '/api/models', headers: customer.auth })).json() as { id: string; isDefault: boolean }[];
    expect((await models()).filter((m) => m.isDefault).map((m) => m.id)).toEqual(['gpt-4o-mini']);

    expect((await save([{ key: 'openai_model', value: 'gpt-4.1' }])).statusCode).toBe(200);
    expect((await models()).filter((m) => m.isDefault).map((m) => m.id)).toEqual(['gpt-4.1']);

    // A chat request that names no model runs on it.
    const ai = t.ctx.services.ai;
    if (!ai) throw new Error('the test app has an AI service');
    for await (const event of ai.stream({ model: null, messages: [{ role: 'user', content: 'Hello' }] })) void event;
    expect(openai.stats.lastRequest?.model).toBe('gpt-4.1');
    // A model the request names still wins.
    for await (const event of ai.stream({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] })) void event;
    expect(openai.stats.lastRequest?.model).toBe('gpt-4o-mini');
  });

  async function spanishAdminTest(body: object) {
    const res = await test(spanishAdmin, body);
    expect(res.statusCode).toBe(200);
    return res.json() as { ok: boolean; message: string | null };
  }

});
