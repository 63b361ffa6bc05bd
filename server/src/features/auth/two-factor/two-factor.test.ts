// Two-factor with TOTP through the real app (issue 33 item 2): codes are computed here with otpauth from the
// secret the setup shows, as an authenticator app would. A code is good for one 30-second step and never
// twice, so each test uses its own user and, where it needs several codes, the previous/current/next steps.
import { and, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, oneTimeTokens, staff } from '../../../db/schema';
import { buildUser, type BuiltUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

let ipCounter = 0;
const nextIp = () => `10.33.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

/** The code of the step `offset` steps from now (-1, 0, 1 are all accepted once each). */
const codeAt = (secret: string, offset = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + offset * 30_000 });

describe('two-factor (TOTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST', url: string, options: { token?: string; body?: object; ip?: string } = {}) =>
    t.app.inject({
      method,
      url: `/api${url}`,
      payload: options.body,
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
      remoteAddress: options.ip ?? nextIp(),
    });
  const login = (who: BuiltUser, extra: object = {}) => call('POST', '/auth/login', { body: { email: who.user.email, password: who.password, ...extra } });

  /** Sets up and confirms TOTP for `who` with the previous step's code; returns the secret and recovery codes. */
  async function enroll(who: BuiltUser, token = who.token) {
    const setup = await call('POST', '/auth/two-factor/setup', { token });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url, qr_svg } = setup.json();
    expect(otpauth_url).toContain(`secret=${secret}`);
    expect(qr_svg).toContain('<svg');
    const confirmed = await call('POST', '/auth/two-factor/confirm', { token, body: { code: codeAt(secret, -1) } });
    expect(confirmed.statusCode).toBe(200);
    return { secret: secret as string, recoveryCodes: confirmed.json().recovery_codes as string[] };
  }

  it('enrolls with a right code only, shows 10 recovery codes once, and audits the change', async () => {
    const ana = await buildUser(t.ctx);
    const setup = (await call('POST', '/auth/two-factor/setup', { token: ana.token })).json();
    const wrong = await call('POST', '/auth/two-factor/confirm', { token: ana.token, body: { code: codeAt(setup.secret, 5) } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('two_factor_code_invalid');
    const ok = await call('POST', '/auth/two-factor/confirm', { token: ana.token, body: { code: codeAt(setup.secret) } });
    expect(ok.statusCode).toBe(200);
    expect(new Set(ok.json().recovery_codes).size).toBe(10);
    expect((await call('GET', '/users', { token: ana.token })).json().two_factor).toEqual({ enabled: true, required: false, verified: true });
    expect((await call('GET', '/auth/two-factor', { token: ana.token })).json()).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    // A second setup is refused while it is on.
    expect((await call('POST', '/auth/two-factor/setup', { token: ana.token })).statusCode).toBe(409);
    const audit = await t.ctx.db.select().from(auditLog).where(and(eq(auditLog.actorUserId, ana.user.userId), eq(auditLog.action, 'two_factor.enabled')));
    expect(audit).toHaveLength(1);
  });

  it('asks a password sign-in for the code; refuses wrong, reused and expired codes and a used or expired challenge', async () => {
    const ben = await buildUser(t.ctx);
    const { secret } = await enroll(ben);
    const first = await login(ben);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ two_factor_required: true, challenge: expect.any(String), methods: ['totp'] });
    const { challenge } = first.json();
    const verify = (code: string, c = challenge) => call('POST', '/auth/two-factor/verify', { body: { challenge: c, code } });
    expect((await verify('000000')).json().error).toBe('two_factor_code_invalid');
    // The enrollment's code (previous step) is not accepted again; nor one three steps old.
    expect((await verify(codeAt(secret, -1))).statusCode).toBe(400);
    expect((await verify(codeAt(secret, -3))).statusCode).toBe(400);
    const ok = await verify(codeAt(secret));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.two_factor).toEqual({ enabled: true, required: false, verified: true });
    expect((await call('GET', '/users', { token: ok.json().token })).statusCode).toBe(200);
    // The same code again, on a new challenge: replay.
    const second = (await login(ben)).json().challenge;
    expect((await verify(codeAt(secret), second)).statusCode).toBe(400);
    // The used challenge, even with a fresh code.
    expect((await verify(codeAt(secret, 1), challenge)).json().error).toBe('two_factor_challenge_invalid');
    // An expired challenge.
    await t.ctx.db.update(oneTimeTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oneTimeTokens.userId, ben.user.userId));
    expect((await verify(codeAt(secret, 1), second)).statusCode).toBe(401);
  });

  it('takes each recovery code once, audits its use, and remembers a device when asked', async () => {
    const cleo = await buildUser(t.ctx);
    const { recoveryCodes } = await enroll(cleo);
    const challenge = (await login(cleo)).json().challenge;
    const used = await call('POST', '/auth/two-factor/verify', { body: { challenge, code: recoveryCodes[0].toUpperCase(), remember_device: true } });
    expect(used.statusCode).toBe(200);
    const deviceToken = used.json().device_token;
    expect(typeof deviceToken).toBe('string');
    const again = (await login(cleo)).json().challenge;
    expect((await call('POST', '/auth/two-factor/verify', { body: { challenge: again, code: recoveryCodes[0] } })).statusCode).toBe(400);
    const audit = await t.ctx.db.select().from(auditLog).where(and(eq(auditLog.actorUserId, cleo.user.userId), eq(auditLog.action, 'two_factor.recovery_code_used')));
    expect(audit).toHaveLength(1);
    // The remembered device signs in without a code, and that sign-in counts as having passed it.
    const remembered = await login(cleo, { device_tokens: ['not-a-device', deviceToken] });
    expect(remembered.json().user.two_factor.verified).toBe(true);
    // Another user's device token does not.
    const dan = await buildUser(t.ctx);
    await enroll(dan);
    expect((await login(dan, { device_tokens: [deviceToken] })).json().two_factor_required).toBe(true);
  });

  it('holds the per-account limit on codes: after 5 wrong ones even the right code waits', async () => {
    const eva = await buildUser(t.ctx);
    const { secret } = await enroll(eva);
    const challenge = (await login(eva)).json().challenge;
    for (let i = 0; i < 5; i += 1) {
      expect((await call('POST', '/auth/two-factor/verify', { body: { challenge, code: `00000${i}` } })).statusCode).toBe(400);
    }
    const limited = await call('POST', '/auth/two-factor/verify', { body: { challenge, code: codeAt(secret) } });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('keeps a staff admin without a second factor out of staff APIs, not out of their own account, until they enroll', async () => {
    const admin = await buildUser(t.ctx);
    await t.ctx.db.insert(staff).values({ userId: admin.user.userId, role: 'admin' });
    const signedIn = await login(admin);
    const token = signedIn.json().token;
    expect(signedIn.json().user.two_factor).toEqual({ enabled: false, required: true, verified: false });
    const refused = await call('GET', '/users/admin/all', { token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('two_factor_required');
    expect((await call('GET', '/users', { token })).json().staff.role).toBe('admin');
    // An admin may not turn it off.
    const { secret } = await enroll(admin, token);
    expect((await call('GET', '/users/admin/all', { token })).statusCode).toBe(200);
    expect((await call('POST', '/auth/two-factor/disable', { token, body: { code: codeAt(secret) } })).json().error).toBe('two_factor_required');
  });

  it('turns off with a current code (audited); a password reset does not skip the second factor', async () => {
    const fay = await buildUser(t.ctx);
    const { secret } = await enroll(fay);
    expect((await call('POST', '/auth/two-factor/disable', { token: fay.token, body: { code: '123456' } })).statusCode).toBe(400);
    const { createResetPasswordToken } = await import('../../../platform/auth/one-time-tokens');
    const reset = await call('POST', '/auth/reset-password', { body: { token: await createResetPasswordToken(t.ctx, fay.user.userId), password: 'new-pass-123' } });
    expect(reset.json().two_factor_required).toBe(true);
    const fresh = (await call('POST', '/auth/two-factor/verify', { body: { challenge: reset.json().challenge, code: codeAt(secret) } })).json().token;
    expect((await call('POST', '/auth/two-factor/disable', { token: fresh, body: { code: codeAt(secret, 1) } })).statusCode).toBe(204);
    expect((await call('POST', '/auth/login', { body: { email: fay.user.email, password: 'new-pass-123' } })).json().token).toEqual(expect.any(String));
    const audit = await t.ctx.db.select().from(auditLog).where(and(eq(auditLog.actorUserId, fay.user.userId), eq(auditLog.action, 'two_factor.disabled')));
    expect(audit).toHaveLength(1);
  });
});
