// Provider settings are reused for a few seconds (no query per answer) yet follow an admin's save at once.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import { appConfig } from '../../db/schema';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { encryptSecret } from '../crypto/secret-box';
import { PROVIDER_SETTINGS_TTL_MS, providerSettings, providerSettingsChanged } from './settings';

describe('provider settings', () => {
  let t: TestApp;
  let admin: BuiltUser;
  beforeAll(async () => {
    // No key in the environment: only the admin's key (app configuration) can enable OpenAI.
    t = await createTestApp({ OPENAI_API_KEY: '', DEMO_AI: 'true' });
    admin = await buildUser(t.ctx, { staffRole: 'admin' });
  });
  afterEach(async () => {
    await t.ctx.db.delete(appConfig).where(eq(appConfig.key, 'openai_secret_key'));
    providerSettingsChanged(t.ctx);
  });
  afterAll(() => t.close());

  const offered = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/models', headers: admin.auth });
    expect(res.statusCode).toBe(200);
    return (res.json() as { id: string }[]).map((m) => m.id);
  };
  const storeKeyDirectly = (key: string) =>
    t.ctx.db.insert(appConfig).values({ key: 'openai_secret_key', value: encryptSecret(t.ctx.env.APP_SECRET, key), encrypted: true });

  it('an admin saving openai_secret_key changes the offered models at once', async () => {
    expect(await offered()).toEqual(['demo']);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/appconfig',
      headers: admin.auth,
      payload: [{ key: 'openai_secret_key', value: 'sk-admin-saved-123456' }],
    });
    expect(res.statusCode).toBe(200);
    expect(await offered()).toEqual(['gpt-4o-mini']);
  });

  it('reuses a read until the TTL has passed (the bound for changes saved on another node)', async () => {
    const now = Date.now();
    expect((await providerSettings(t.ctx, now)).openai).toBeNull();
    await storeKeyDirectly('sk-other-node-123456');
    expect((await providerSettings(t.ctx, now + PROVIDER_SETTINGS_TTL_MS - 1)).openai).toBeNull();
    expect((await providerSettings(t.ctx, now + PROVIDER_SETTINGS_TTL_MS)).openai?.apiKey).toBe('sk-other-node-123456');
  });

  it('streams starting together share one read', async () => {
    providerSettingsChanged(t.ctx);
    const now = Date.now();
    expect(providerSettings(t.ctx, now)).toBe(providerSettings(t.ctx, now + 1));
  });

  it('does not keep a failed read', async () => {
    let failures = 1;
    // The app's context with a database that fails its first query.
    const db = new Proxy(t.ctx.db, {
      get(target, property, receiver) {
        if (property === 'select' && failures > 0) {
          failures--;
          return () => {
            throw new Error('connection lost');
          };
        }
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    const flaky: AppContext = { ...t.ctx, db };
    await expect(providerSettings(flaky)).rejects.toThrow('connection lost');
    expect((await providerSettings(flaky)).demoEnabled).toBe(true);
  });
});
