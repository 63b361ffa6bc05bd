// GET /api/models through the real app.
import { afterEach, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

let testApp: TestApp | null = null;
afterEach(async () => {
  await testApp?.close();
  testApp = null;
});

describe('GET /api/models', () => {
  it('requires a signed-in user', async () => {
    testApp = await createTestApp();
    const res = await testApp.app.inject({ method: 'GET', url: '/api/models' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'unauthenticated', message: expect.any(String) });
  });

  it('lists only the offline demo model when no provider key is configured', async () => {
    testApp = await createTestApp();
    const { auth } = await buildUser(testApp.ctx);
    const res = await testApp.app.inject({ method: 'GET', url: '/api/models', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual([{ id: 'demo', label: 'Demo (offline)', provider: 'demo', isDefault: true }]);
  });

  it('lists the providers that have a key, without the demo model', async () => {
    testApp = await createTestApp({ OPENAI_API_KEY: 'sk-test-123456', XAI_API_KEY: 'xai-test-123456' });
    const { auth } = await buildUser(testApp.ctx);
    const res = await testApp.app.inject({ method: 'GET', url: '/api/models', headers: auth });
    expect(res.json()).toEqual([
      { id: 'gpt-4o-mini', label: 'GPT 4o Mini', provider: 'openai', isDefault: true },
      { id: 'grok-2-latest', label: 'Grok', provider: 'xai', isDefault: false },
    ]);
    // Keys never leave the server.
    expect(res.body).not.toContain('sk-test');
  });
});
