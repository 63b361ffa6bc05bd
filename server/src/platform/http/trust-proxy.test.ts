import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';

// Rate limits key on the client address; a forged X-Forwarded-For must not reset them unless the operator
// says a proxy sets it (TRUST_PROXY).
describe('client address and TRUST_PROXY', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const wrongLogins = async (app: TestApp['app']) => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '203.0.113.9',
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
        payload: { email: 'nobody@example.com', password: 'wrong-password' },
      });
      statuses.push(res.statusCode);
    }
    return statuses;
  };

  it('ignores X-Forwarded-For by default', async () => {
    t = await createTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '2' });
    expect(await wrongLogins(t.app)).toEqual([401, 401, 429, 429]);
  });

  it('uses it when TRUST_PROXY is on', async () => {
    t = await createTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '2', TRUST_PROXY: 'true' });
    expect(await wrongLogins(t.app)).toEqual([401, 401, 401, 401]);
  });
});
