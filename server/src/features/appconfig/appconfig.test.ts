import { CONFIG_KEYS, type ConfigKey } from '@pluma/common/appconfig';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appConfig, auditLog, paymentMethods } from '../../db/schema';
import { decryptSecret } from '../../platform/crypto/secret-box';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';
import { getConfig } from '../../platform/appconfig/read';
import { seedAppConfig, seedPaymentMethods } from './seed';

const OPENAI_KEY = 'sk-proj-THIS-IS-THE-SECRET-VALUE-7f3abcd';
const NON_PUBLIC: ConfigKey[] = [
  'stripe_private_key',
  'stripe_webhook_key',
  'openai_secret_key',
  'firebaseConfig',
  'bucket',
  'region',
  'welcome_email_webhook_url',
  'reset_password_email_webhook_url',
  'super_fetch_prompt',
];

describe(`app configuration (${testDbKind()})`, () => {
  let t: TestApp;
  let admin: BuiltUser;
  let manager: BuiltUser;
  let customer: BuiltUser;

  const put = (user: BuiltUser | null, body: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'PUT', url: '/api/appconfig', headers: { ...(user?.auth ?? {}), ...headers }, payload: body as object });
  const stored = async (key: string) => (await t.ctx.db.select().from(appConfig).where(eq(appConfig.key, key)))[0];
  const snapshot = async () => (await t.ctx.db.select().from(appConfig)).map((r) => [r.key, r.value]).sort();

  beforeAll(async () => {
    t = await createTestApp();
    await seedAppConfig(t.ctx);
    await seedPaymentMethods(t.ctx);
    admin = await buildUser(t.ctx, { staffRole: 'admin' });
    manager = await buildUser(t.ctx, { staffRole: 'manager' });
    customer = await buildUser(t.ctx, { access: true });
  });
  afterAll(() => t.close());

  describe('seeding', () => {
    it('inserts every key with its default, and never overwrites a saved value', async () => {
      const rows = await t.ctx.db.select().from(appConfig);
      expect(rows.map((r) => r.key).sort()).toEqual(Object.keys(CONFIG_KEYS).sort());
      expect((await stored('app_name')).value).toBe('Pluma');
      await t.ctx.db.update(appConfig).set({ value: 'Renamed' }).where(eq(appConfig.key, 'app_name'));
      await seedAppConfig(t.ctx);
      expect((await stored('app_name')).value).toBe('Renamed');
      expect(await t.ctx.db.select().from(appConfig)).toHaveLength(rows.length);
      await t.ctx.db.update(appConfig).set({ value: 'Pluma' }).where(eq(appConfig.key, 'app_name'));
    });

    it('adds the payment methods once', async () => {
      await seedPaymentMethods(t.ctx);
      const names = (await t.ctx.db.select().from(paymentMethods)).map((r) => r.name).sort();
      expect(names).toEqual(['card', 'manual', 'paypal']);
    });
  });

  describe('GET /api/appconfig (public)', () => {
    beforeAll(async () => {
      const res = await put(admin, [
        { key: 'openai_secret_key', value: OPENAI_KEY },
        { key: 'super_fetch_prompt', value: 'internal prompt text' },
        { key: 'welcome_email_webhook_url', value: 'https://hooks.example.com/welcome-secret-path' },
      ]);
      expect(res.statusCode).toBe(200);
    });

    it('lists public keys only, without a token', async () => {
      const res = await t.app.inject('/api/appconfig');
      expect(res.statusCode).toBe(200);
      const entries = res.json() as { key: string; value: string }[];
      const expected = (Object.keys(CONFIG_KEYS) as ConfigKey[]).filter(
        (k) => CONFIG_KEYS[k].public && CONFIG_KEYS[k].kind !== 'secret',
      );
      expect(entries.map((e) => e.key)).toEqual(expected);
      for (const key of NON_PUBLIC) expect(entries.map((e) => e.key)).not.toContain(key);
      expect(entries.find((e) => e.key === 'signup_enabled')?.value).toBe('true');
    });

    it('never carries a secret or a private value anywhere in the body', async () => {
      const body = (await t.app.inject('/api/appconfig')).body;
      expect(body).not.toContain(OPENAI_KEY);
      expect(body).not.toContain('THIS-IS-THE-SECRET');
      expect(body).not.toContain('internal prompt text');
      expect(body).not.toContain('welcome-secret-path');
    });

    it('answers 304 to a matching If-None-Match, and a new ETag after a change', async () => {
      const first = await t.app.inject('/api/appconfig');
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^".+"$/);
      const again = await t.app.inject({ url: '/api/appconfig', headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect((await put(admin, [{ key: 'tagline', value: 'A new tagline' }])).statusCode).toBe(200);
      const changed = await t.app.inject({ url: '/api/appconfig', headers: { 'if-none-match': etag } });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect(changed.json()).toContainEqual({ key: 'tagline', value: 'A new tagline' });
    });
  });

  describe('GET /api/appconfig/admin', () => {
    it('gives admins every key, secrets masked to their last 4 characters', async () => {
      await put(admin, [{ key: 'openai_secret_key', value: OPENAI_KEY }, { key: 'stripe_webhook_key', value: '' }]);
      const res = await t.app.inject({ url: '/api/appconfig/admin', headers: admin.auth });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(OPENAI_KEY);
      const entries = res.json() as { key: string; value: string; kind: string; masked: boolean; public: boolean }[];
      expect(entries).toHaveLength(Object.keys(CONFIG_KEYS).length);
      expect(entries.find((e) => e.key === 'openai_secret_key')).toEqual({
        key: 'openai_secret_key',
        value: '••••••••abcd',
        kind: 'secret',
        public: false,
        masked: true,
      });
      expect(entries.find((e) => e.key === 'stripe_webhook_key')).toMatchObject({ value: '', masked: false });
      expect(entries.find((e) => e.key === 'super_fetch_prompt')).toMatchObject({ value: 'internal prompt text', masked: false });
    });

    it('is refused to managers and customers (403) and without a token (401)', async () => {
      expect((await t.app.inject({ url: '/api/appconfig/admin', headers: manager.auth })).statusCode).toBe(403);
      expect((await t.app.inject({ url: '/api/appconfig/admin', headers: customer.auth })).statusCode).toBe(403);
      expect((await t.app.inject({ url: '/api/appconfig/admin' })).statusCode).toBe(401);
    });
  });

  describe('POST /api/appconfig/admin/reveal', () => {
    const reveal = (user: BuiltUser | null, key: string) =>
      t.app.inject({ method: 'POST', url: '/api/appconfig/admin/reveal', headers: user?.auth ?? {}, payload: { key } });

    it('gives an admin the full value and audits the key, not the value', async () => {
      await put(admin, [{ key: 'openai_secret_key', value: OPENAI_KEY }]);
      const res = await reveal(admin, 'openai_secret_key');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ key: 'openai_secret_key', value: OPENAI_KEY });
      const rows = await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'POST /api/appconfig/admin/reveal'));
      expect(rows).toHaveLength(1);
      expect(rows[0].actorUserId).toBe(admin.user.userId);
      expect(JSON.parse(rows[0].details!)).toEqual({ key: 'openai_secret_key' });
      expect(rows[0].details).not.toContain(OPENAI_KEY);
    });

    it('is refused to managers, customers and anonymous callers', async () => {
      for (const [user, status] of [[manager, 403], [customer, 403], [null, 401]] as const) {
        const res = await reveal(user, 'openai_secret_key');
        expect(res.statusCode).toBe(status);
        expect(res.body).not.toContain(OPENAI_KEY);
      }
    });

    it('answers 400 for an unknown key', async () => {
      const res = await reveal(admin, 'not_a_key');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'config_key_unknown', message: 'Unknown setting: not_a_key.' });
    });
  });

  describe('PUT /api/appconfig', () => {
    beforeEach(async () => {
      await put(admin, [{ key: 'app_name', value: 'Pluma' }]);
    });

    it('saves changes, returns the admin view and shows public ones to everyone', async () => {
      const res = await put(admin, [
        { key: 'app_name', value: 'Escribe' },
        { key: 'landing_enabled', value: 'false' },
        { key: 'primary_color', value: '#0af' },
        { key: 'dark_logo', value: '/api/files/AbCdEfGhIjKlMnOpQrStUvWx.png' },
        { key: 'firebaseConfig', value: '{"apiKey":"x"}' },
      ]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toContainEqual({ key: 'app_name', value: 'Escribe', kind: 'text', public: true, masked: false });
      const publicList = (await t.app.inject('/api/appconfig')).json();
      expect(publicList).toContainEqual({ key: 'app_name', value: 'Escribe' });
      expect(publicList).toContainEqual({ key: 'landing_enabled', value: 'false' });
      expect(publicList).toContainEqual({ key: 'primary_color', value: '#0af' });
      expect(await getConfig(t.ctx, 'firebaseConfig')).toBe('{"apiKey":"x"}');
      const audit = await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'PUT /api/appconfig'));
      expect(audit.length).toBeGreaterThan(0);
      expect(JSON.parse(audit.at(-1)!.details!).keys).toEqual(['app_name', 'landing_enabled', 'primary_color', 'dark_logo', 'firebaseConfig']);
    });

    it('stores secrets encrypted at rest', async () => {
      expect((await put(admin, [{ key: 'stripe_private_key', value: 'sk_live_0123456789wxyz' }])).statusCode).toBe(200);
      const row = await stored('stripe_private_key');
      expect(row.encrypted).toBe(true);
      expect(row.value).not.toBe('sk_live_0123456789wxyz');
      expect(row.value).not.toContain('0123456789');
      expect(decryptSecret(t.ctx.env.APP_SECRET, row.value!)).toBe('sk_live_0123456789wxyz');
      expect(await getConfig(t.ctx, 'stripe_private_key')).toBe('sk_live_0123456789wxyz');
    });

    it('keeps a secret when the masked form is saved back, and clears it with an empty value', async () => {
      await put(admin, [{ key: 'stripe_private_key', value: 'sk_live_keepme_9876' }]);
      const before = await stored('stripe_private_key');
      const res = await put(admin, [
        { key: 'stripe_private_key', value: '••••••••9876' },
        { key: 'app_name', value: 'Saved with mask' },
      ]);
      expect(res.statusCode).toBe(200);
      expect((await stored('stripe_private_key')).value).toBe(before.value);
      expect(await getConfig(t.ctx, 'stripe_private_key')).toBe('sk_live_keepme_9876');
      expect(await getConfig(t.ctx, 'app_name')).toBe('Saved with mask');
      await put(admin, [{ key: 'stripe_private_key', value: '' }]);
      expect(await stored('stripe_private_key')).toMatchObject({ value: '', encrypted: false });
    });

    it('refuses an unknown key with 400 and changes nothing', async () => {
      const before = await snapshot();
      const res = await put(admin, [
        { key: 'app_name', value: 'Should not be saved' },
        { key: 'no_such_setting', value: 'x' },
      ]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'config_key_unknown', message: 'Unknown setting: no_such_setting.' });
      expect(await snapshot()).toEqual(before);
    });

    it("answers in the admin's language", async () => {
      const spanishAdmin = await buildUser(t.ctx, { staffRole: 'admin', lang: 'es' });
      const res = await put(spanishAdmin, [{ key: 'nope', value: 'x' }]);
      expect(res.json().message).toBe('Ajuste desconocido: nope.');
    });

    it.each([
      ['signup_enabled', 'yes'],
      ['landing_enabled', 'TRUE'],
      ['primary_color', 'purple'],
      ['accent_color', '#12345'],
      ['dark_logo', 'javascript:alert(1)'],
      ['favicon_url', '//evil.example.com/x.ico'],
      ['high_ticket_offer_link', 'ftp://example.com/file'],
      ['firebaseConfig', '{"apiKey":'],
      ['title', 'x'.repeat(2001)],
      ['app_css', 'x'.repeat(100_001)],
    ])('refuses a bad %s with 400 and changes nothing', async (key, value) => {
      const before = await snapshot();
      const res = await put(admin, [
        { key: 'app_name', value: 'Should not be saved' },
        { key, value },
      ]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'config_value_invalid', message: `Invalid value for ${key}.` });
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a malformed body with per-field details', async () => {
      const res = await put(admin, { app_name: 'x' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('validation_error');
      expect((await put(admin, [])).statusCode).toBe(400);
    });

    it('is refused to managers and customers (403) and without a token (401)', async () => {
      const before = await snapshot();
      expect((await put(manager, [{ key: 'app_name', value: 'm' }])).statusCode).toBe(403);
      expect((await put(customer, [{ key: 'app_name', value: 'c' }])).statusCode).toBe(403);
      expect((await put(null, [{ key: 'app_name', value: 'n' }])).statusCode).toBe(401);
      expect(await snapshot()).toEqual(before);
    });
  });
});
