// Sign-in limits per account (across addresses) and per address (across accounts), through the real
// app behind a trusted proxy (each request names its client in X-Forwarded-For). The limits' store runs
// on a clock the tests move, so waits expire without sleeping.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { accountLimits } from './account-limits';
import { MemoryAttemptStore } from './attempt-store';
import { createResetPasswordToken } from '../../platform/auth/one-time-tokens';
import { ACCOUNT_FREE_FAILURES, ACCOUNT_MAX_DELAY_MS, ADDRESS_FAILURE_WINDOW_MS, ADDRESS_MAX_FAILURES, RECOVERY_PER_ACCOUNT, RECOVERY_WINDOW_MS } from './rate-limits';

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.93.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};

describe('sign-in limits per account and per address', () => {
  let t: TestApp;
  let now = Date.now();
  const advance = (ms: number) => {
    now += ms;
  };

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    const store = accountLimits(t.ctx).store;
    if (!(store instanceof MemoryAttemptStore)) throw new Error('expected the in-process store (no REDIS_URL)');
    store.now = () => now;
  });
  afterAll(() => t.close());
  beforeEach(() => {
    // Far from every earlier test's windows.
    advance(24 * 60 * 60_000);
  });

  const login = (email: string, password: string, ip = nextIp(), lang = 'en') =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      headers: { 'x-forwarded-for': ip, 'accept-language': lang },
    });
  const retryAfterMs = (res: { headers: Record<string, unknown> }) => Number(res.headers['retry-after']) * 1000;

  it('wrong passwords from many addresses make the account wait; its usual address still signs in', async () => {
    const { user, password } = await buildUser(t.ctx);
    const home = nextIp();
    expect((await login(user.email, password, home)).statusCode).toBe(200);

    // Each guess from a fresh address: the per-address-and-email limit never sees more than one.
    for (let i = 0; i <= ACCOUNT_FREE_FAILURES; i++) expect((await login(user.email, 'wrong-password')).statusCode).toBe(401);

    // Even the right password from an unknown address now waits, with the reason and Retry-After.
    const locked = await login(user.email, password, nextIp(), 'es');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      error: 'rate_limited',
      message: 'Demasiados intentos fallidos en esta cuenta. Espera unos minutos e inténtalo de nuevo, o restablece tu contraseña.',
    });
    expect(retryAfterMs(locked)).toBeGreaterThan(0);
    expect(retryAfterMs(locked)).toBeLessThanOrEqual(15_000);

    // The address the user signed in from before is not held up.
    expect((await login(user.email, password, home)).statusCode).toBe(200);

    // The wait expires.
    advance(retryAfterMs(locked));
    expect((await login(user.email, password, nextIp())).statusCode).toBe(200);
  });

  it('the wait grows but never beyond 5 minutes, so a victim is not locked out for long', async () => {
    const { user, password } = await buildUser(t.ctx);
    let failures = 0;
    let longest = 0;
    while (failures < ACCOUNT_FREE_FAILURES + 8) {
      const res = await login(user.email, 'wrong-password');
      if (res.statusCode === 429) {
        longest = Math.max(longest, retryAfterMs(res));
        advance(retryAfterMs(res));
      } else {
        expect(res.statusCode).toBe(401);
        failures += 1;
      }
    }
    expect(longest).toBe(ACCOUNT_MAX_DELAY_MS);
    const victim = await login(user.email, password);
    expect(victim.statusCode).toBe(429);
    expect(retryAfterMs(victim)).toBeLessThanOrEqual(ACCOUNT_MAX_DELAY_MS);
    advance(ACCOUNT_MAX_DELAY_MS);
    expect((await login(user.email, password)).statusCode).toBe(200);
  });

  it('a password reset ends the wait at once', async () => {
    const { user } = await buildUser(t.ctx);
    for (let i = 0; i <= ACCOUNT_FREE_FAILURES; i++) await login(user.email, 'wrong-password');
    expect((await login(user.email, 'wrong-password')).statusCode).toBe(429);
    const token = await createResetPasswordToken(t.ctx, user.userId);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'fresh-pass-1' },
      headers: { 'x-forwarded-for': nextIp() },
    });
    expect(reset.statusCode).toBe(200);
    expect((await login(user.email, 'fresh-pass-1')).statusCode).toBe(200);
  });

  it('right passwords do not add up: many sign-ins from many addresses never wait', async () => {
    const { user, password } = await buildUser(t.ctx);
    for (let i = 0; i < ACCOUNT_FREE_FAILURES + 3; i++) expect((await login(user.email, password)).statusCode).toBe(200);
  });

  it('one address guessing many accounts is blocked for the rest of its window, others are not', async () => {
    const { user, password } = await buildUser(t.ctx);
    const stuffer = nextIp();
    for (let i = 0; i < ADDRESS_MAX_FAILURES; i++) {
      expect((await login(`stuffed-${i}-${now}@example.com`, 'leaked-password', stuffer)).statusCode).toBe(401);
    }
    // A real account's right password from that address: refused, and not checked.
    const blocked = await login(user.email, password, stuffer);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe('Too many attempts, please wait a moment and try again.');
    expect(retryAfterMs(blocked)).toBeLessThanOrEqual(ADDRESS_FAILURE_WINDOW_MS);
    expect((await login(user.email, password, nextIp())).statusCode).toBe(200);

    advance(ADDRESS_FAILURE_WINDOW_MS);
    expect((await login(user.email, password, stuffer)).statusCode).toBe(200);
  });

  it('reset mails are limited per account across addresses', async () => {
    const { user } = await buildUser(t.ctx);
    const other = await buildUser(t.ctx);
    const send = (email: string) =>
      t.app.inject({ method: 'POST', url: '/api/users/sendResetPasswordLink', payload: { email }, headers: { 'x-forwarded-for': nextIp() } });
    for (let i = 0; i < RECOVERY_PER_ACCOUNT; i++) expect((await send(user.email)).statusCode).toBe(200);
    const limited = await send(user.email.toUpperCase());
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('rate_limited');
    expect((await send(other.user.email)).statusCode).toBe(200);
    advance(RECOVERY_WINDOW_MS);
    expect((await send(user.email)).statusCode).toBe(200);
  });
});
