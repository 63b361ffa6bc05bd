// Passkeys through the real app (issue 33 item 3): a software authenticator (test/soft-authenticator.ts) signs
// real WebAuthn bytes that @simplewebauthn/server verifies. Refusals: another user's passkey (404), a replayed
// challenge, a wrong origin, a counter that went back, another user's passkey at the second step; the
// anonymous sign-in options are limited per address and their spent challenges purged.
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, oneTimeTokens, passkeys, sessions, staff } from '../../../db/schema';
import { purgeSpentOneTimeTokens } from '../../../platform/auth/one-time-tokens';
import { createSession } from '../../../platform/auth/sessions';
import { hashToken } from '../../../platform/auth/tokens';
import { buildUser, type BuiltUser } from '../../../test/factories';
import { SoftAuthenticator } from '../../../test/soft-authenticator';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { PASSKEY_OPTIONS_PER_ADDRESS } from '../rate-limits';
import { FACTOR_CHANGE_WINDOW_MS } from '../two-factor/factors';

let ipCounter = 0;
const nextIp = () => `10.34.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
// app.inject's requests are made to Host localhost:80, which is the app's own origin.
const ORIGIN = 'http://localhost';

describe('passkeys', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Above the per-minute limit, so the 15-minute limit per address of the sign-in options shows.
    t = await createTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '1000' });
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: { token?: string; body?: object } = {}) =>
    t.app.inject({
      method,
      url: `/api${url}`,
      payload: options.body,
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
      remoteAddress: nextIp(),
    });
  const audits = (userId: number, action: string) => t.ctx.db.select().from(auditLog).where(and(eq(auditLog.actorUserId, userId), eq(auditLog.action, action)));

  /** Registers a passkey of `who` held by `device`; returns its id. */
  async function register(who: BuiltUser, device: SoftAuthenticator, name = 'Laptop', token = who.token) {
    const options = (await call('POST', '/auth/passkeys/register/options', { token })).json();
    const created = await call('POST', '/auth/passkeys/register', { token, body: { name, credential: device.create(options) } });
    expect(created.statusCode).toBe(201);
    return created.json().passkey_id as number;
  }

  it('registers, lists, renames and deletes (audited); refuses a replay, a wrong origin and another user’s passkey', async () => {
    const ana = await buildUser(t.ctx);
    const ben = await buildUser(t.ctx);
    const device = new SoftAuthenticator(ORIGIN);
    expect((await call('POST', '/auth/passkeys/register/options')).statusCode).toBe(401);

    const options = (await call('POST', '/auth/passkeys/register/options', { token: ana.token })).json();
    expect(options).toMatchObject({ rp: { id: 'localhost' }, attestation: 'none', authenticatorSelection: { residentKey: 'required' } });
    const credential = device.create(options);
    const created = await call('POST', '/auth/passkeys/register', { token: ana.token, body: { name: ' Work laptop ', credential } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ passkey_id: expect.any(Number), name: 'Work laptop', createdAt: expect.any(String), last_used_at: null });
    const passkeyId = created.json().passkey_id;
    // The same response again: its challenge is used up.
    const replay = await call('POST', '/auth/passkeys/register', { token: ana.token, body: { name: 'Again', credential } });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe('passkey_challenge_invalid');
    // Another user cannot use ana's challenge; a response made for another origin does not verify.
    const anasOptions = (await call('POST', '/auth/passkeys/register/options', { token: ana.token })).json();
    expect(anasOptions.excludeCredentials).toEqual([{ id: credential.id, type: 'public-key', transports: ['internal'] }]);
    expect((await call('POST', '/auth/passkeys/register', { token: ben.token, body: { name: 'x', credential: device.create(anasOptions) } })).statusCode).toBe(401);
    const phishing = (await call('POST', '/auth/passkeys/register/options', { token: ana.token })).json();
    const wrongOrigin = await call('POST', '/auth/passkeys/register', { token: ana.token, body: { name: 'x', credential: device.create(phishing, { origin: 'https://pluma.example.evil' }) } });
    expect(wrongOrigin.statusCode).toBe(400);
    expect(wrongOrigin.json().error).toBe('passkey_invalid');

    expect((await call('GET', '/auth/passkeys', { token: ana.token })).json().passkeys.map((p: { name: string }) => p.name)).toEqual(['Work laptop']);
    expect((await call('GET', '/auth/passkeys', { token: ben.token })).json().passkeys).toEqual([]);
    // Ben cannot see, rename or delete ana's passkey: 404.
    expect((await call('PUT', `/auth/passkeys/${passkeyId}`, { token: ben.token, body: { name: 'Mine' } })).statusCode).toBe(404);
    expect((await call('DELETE', `/auth/passkeys/${passkeyId}`, { token: ben.token })).statusCode).toBe(404);
    expect((await call('PUT', `/auth/passkeys/${passkeyId}`, { token: ana.token, body: { name: '' } })).statusCode).toBe(400);
    expect((await call('PUT', `/auth/passkeys/${passkeyId}`, { token: ana.token, body: { name: 'Phone' } })).json().name).toBe('Phone');
    expect((await call('DELETE', `/auth/passkeys/${passkeyId}`, { token: ana.token })).statusCode).toBe(204);
    expect((await call('GET', '/auth/passkeys', { token: ana.token })).json().passkeys).toEqual([]);
    for (const action of ['passkey.added', 'passkey.renamed', 'passkey.deleted']) expect(await audits(ana.user.userId, action)).toHaveLength(1);
  });

  it('signs in with a passkey alone (second factor passed); refuses a replay, a counter that went back and an unknown passkey', async () => {
    const cleo = await buildUser(t.ctx);
    const device = new SoftAuthenticator(ORIGIN);
    await register(cleo, device);
    const signIn = async () => {
      const opts = (await call('POST', '/auth/passkeys/sign-in/options')).json();
      return { opts, send: (credential: object) => call('POST', '/auth/passkeys/sign-in', { body: { credential } }) };
    };
    const first = await signIn();
    expect(first.opts).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(first.opts.allowCredentials ?? []).toEqual([]);
    const assertion = device.get(first.opts);
    const ok = await first.send(assertion);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ user_id: cleo.user.userId, two_factor: { verified: true } });
    expect((await call('GET', '/users', { token: ok.json().token })).json().user_id).toBe(cleo.user.userId);
    expect((await call('GET', '/auth/passkeys', { token: cleo.token })).json().passkeys[0].last_used_at).toEqual(expect.any(String));
    // Replay of the same assertion.
    expect((await first.send(assertion)).json().error).toBe('passkey_challenge_invalid');
    // A cloned authenticator: its counter is not above the stored one.
    const stale = await signIn();
    const regressed = await stale.send(device.get(stale.opts, { counter: 1 }));
    expect(regressed.statusCode).toBe(400);
    expect(regressed.json().error).toBe('passkey_invalid');
    // A passkey the server does not know, and one signed for another origin.
    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.create({ challenge: 'unused', rp: { id: 'localhost' } });
    const unknown = await signIn();
    expect((await unknown.send(stranger.get(unknown.opts))).json().error).toBe('passkey_invalid');
    const elsewhere = await signIn();
    expect((await elsewhere.send(device.get(elsewhere.opts, { origin: 'https://pluma.example.evil' }))).json().error).toBe('passkey_invalid');
    // Client data that is JSON but names no challenge string (found by the OpenAPI fuzz: was a 500).
    for (const clientData of [['updatedAt_desc', 1], { type: 'webauthn.get' }, { challenge: 42 }, { challenge: { v: 1 } }]) {
      const forged = { ...assertion, response: { ...assertion.response, clientDataJSON: Buffer.from(JSON.stringify(clientData)).toString('base64url') } };
      const refused = await elsewhere.send(forged);
      expect(refused.statusCode, JSON.stringify(clientData)).toBe(400);
      expect(refused.json().error).toBe('passkey_invalid');
    }
  });

  it('takes a passkey as the second step of a password sign-in, only the account’s own; a staff admin keeps their last one', async () => {
    const dan = await buildUser(t.ctx);
    const eva = await buildUser(t.ctx);
    const dansDevice = new SoftAuthenticator(ORIGIN);
    const evasDevice = new SoftAuthenticator(ORIGIN);
    const passkeyId = await register(dan, dansDevice);
    await register(eva, evasDevice);
    const login = () => call('POST', '/auth/login', { body: { email: dan.user.email, password: dan.password } });
    const step = (await login()).json();
    expect(step).toEqual({ two_factor_required: true, challenge: expect.any(String), methods: ['passkey'] });
    const options = (await call('POST', '/auth/two-factor/passkey/options', { body: { challenge: step.challenge } })).json();
    expect(options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([...dansDevice.credentials.keys()]);
    // Eva's passkey on Dan's sign-in is refused, and a TOTP code means nothing to an account without TOTP.
    const evas = await call('POST', '/auth/two-factor/passkey', { body: { challenge: step.challenge, credential: evasDevice.get(options) } });
    expect(evas.statusCode).toBe(400);
    const again = (await call('POST', '/auth/two-factor/passkey/options', { body: { challenge: step.challenge } })).json();
    const ok = await call('POST', '/auth/two-factor/passkey', { body: { challenge: step.challenge, credential: dansDevice.get(again), remember_device: true } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.two_factor.verified).toBe(true);
    expect(ok.json().device_token).toEqual(expect.any(String));
    // The sign-in step is used up.
    expect((await call('POST', '/auth/two-factor/passkey/options', { body: { challenge: step.challenge } })).json().error).toBe('two_factor_challenge_invalid');

    // A staff admin with a passkey as their only second factor may not delete it; TOTP is then not required of them.
    await t.ctx.db.insert(staff).values({ userId: dan.user.userId, role: 'admin' });
    expect((await call('GET', '/auth/two-factor', { token: ok.json().token })).json()).toMatchObject({ enabled: false, required: false });
    const refused = await call('DELETE', `/auth/passkeys/${passkeyId}`, { token: ok.json().token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('two_factor_required');
    expect(await t.ctx.db.select().from(passkeys).where(eq(passkeys.passkeyId, passkeyId))).toHaveLength(1);
  });

  it('limits the anonymous sign-in options per address, and the sweep deletes spent challenges, not live ones', async () => {
    const challenges = async () => (await t.ctx.db.select({ n: count() }).from(oneTimeTokens).where(and(eq(oneTimeTokens.purpose, 'passkey_sign_in'), isNull(oneTimeTokens.userId))))[0].n;
    const ip = nextIp();
    const options = () => t.app.inject({ method: 'POST', url: '/api/auth/passkeys/sign-in/options', remoteAddress: ip });
    const before = await challenges();
    for (let i = 0; i < PASSKEY_OPTIONS_PER_ADDRESS; i++) expect((await options()).statusCode).toBe(200);
    const refused = await options();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // A refused call stores no challenge; another address is not concerned.
    expect(await challenges()).toBe(before + PASSKEY_OPTIONS_PER_ADDRESS);
    expect((await call('POST', '/auth/passkeys/sign-in/options')).statusCode).toBe(200);

    // One challenge used by a sign-in, the rest left to expire: the sweep keeps only what can still be used.
    const fay = await buildUser(t.ctx);
    const device = new SoftAuthenticator(ORIGIN);
    await register(fay, device);
    const used = (await call('POST', '/auth/passkeys/sign-in/options')).json();
    expect((await call('POST', '/auth/passkeys/sign-in', { body: { credential: device.get(used) } })).statusCode).toBe(200);
    const fresh = (await call('POST', '/auth/passkeys/sign-in/options')).json();
    const now = new Date();
    const [live] = await t.ctx.db.select({ n: count() }).from(oneTimeTokens).where(and(isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, now)));
    expect(await purgeSpentOneTimeTokens(t.ctx.db, now)).toBeGreaterThan(0);
    // Nothing used or expired is left; everything unused and live is.
    expect((await t.ctx.db.select({ n: count() }).from(oneTimeTokens))[0].n).toBe(live.n);
    expect(await purgeSpentOneTimeTokens(t.ctx.db, new Date(Date.now() + 60 * 60_000 + 1))).toBe(live.n);
    expect(await challenges()).toBe(0);
    // The fresh challenge went with them: its sign-in is refused like a replay.
    expect((await call('POST', '/auth/passkeys/sign-in', { body: { credential: device.get(fresh) } })).json().error).toBe('passkey_challenge_invalid');
  });

  it('changes factors only on a sign-in that passed one (when the account has one), never while a staff admin views as the user', async () => {
    const gia = await buildUser(t.ctx);
    // A session opened before Gia had a factor (or taken without one).
    const older = await createSession(t.ctx.db, gia.user.userId);
    const device = new SoftAuthenticator(ORIGIN);
    const passkeyId = await register(gia, device);
    for (const refused of [
      await call('POST', '/auth/passkeys/register/options', { token: older }),
      await call('DELETE', `/auth/passkeys/${passkeyId}`, { token: older }),
      await call('POST', '/auth/two-factor/setup', { token: older }),
    ]) {
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'reauthentication_required', message: expect.stringContaining('Confirm it’s you') });
    }
    expect(await t.ctx.db.select().from(passkeys).where(eq(passkeys.passkeyId, passkeyId))).toHaveLength(1);
    // The sign-in that registered it passed it: it may add another.
    expect((await call('POST', '/auth/passkeys/register/options', { token: gia.token })).statusCode).toBe(200);
    // A sign-in that passed it longer ago than the window (a token taken from a browser later, say) may not.
    const earlier = await createSession(t.ctx.db, gia.user.userId, { secondFactor: true });
    await t.ctx.db
      .update(sessions)
      .set({ secondFactorAt: new Date(Date.now() - FACTOR_CHANGE_WINDOW_MS - 60_000) })
      .where(eq(sessions.tokenHash, hashToken(earlier)));
    t.ctx.services.authCache?.clear();
    expect((await call('POST', '/auth/passkeys/register/options', { token: earlier })).json().error).toBe('reauthentication_required');

    // Confirming it: the second step's challenge (no remembered device skips it), finished with the passkey,
    // gives a session that has just passed it, which may.
    const reconfirm = await call('POST', '/auth/two-factor/reconfirm', { token: older });
    expect(reconfirm.statusCode).toBe(200);
    expect(reconfirm.json()).toEqual({ two_factor_required: true, challenge: expect.any(String), methods: ['passkey'] });
    const { challenge } = reconfirm.json();
    const stepOptions = (await call('POST', '/auth/two-factor/passkey/options', { body: { challenge } })).json();
    const confirmed = await call('POST', '/auth/two-factor/passkey', { body: { challenge, credential: device.get(stepOptions) } });
    expect(confirmed.statusCode).toBe(200);
    expect((await call('POST', '/auth/passkeys/register/options', { token: confirmed.json().token })).statusCode).toBe(200);
    // Without a factor there is nothing to confirm; without a session nothing to ask.
    const ivy = await buildUser(t.ctx);
    expect((await call('POST', '/auth/two-factor/reconfirm', { token: ivy.token })).json()).toMatchObject({ error: 'conflict', message: expect.stringContaining('not') });
    expect((await call('POST', '/auth/two-factor/reconfirm')).statusCode).toBe(401);

    // "Log in as the user": a staff admin's session changes none of the user's factors, even one without any.
    const admin = await buildUser(t.ctx, { staffRole: 'admin' });
    const hal = await buildUser(t.ctx);
    const viewing = await createSession(t.ctx.db, hal.user.userId, { impersonatedBy: admin.user.userId });
    for (const url of ['/auth/passkeys/register/options', '/auth/two-factor/setup', '/auth/two-factor/reconfirm']) {
      const refused = await call('POST', url, { token: viewing });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toContain('While viewing as this user');
    }
    expect((await call('POST', '/auth/passkeys/register/options', { token: hal.token })).statusCode).toBe(200);
  });
});
