// Phone sign-in through the real app (issue 33 item 1). Without Twilio in the settings, codes are read
// from the SMS outbox as an admin would; with it, the official `twilio` SDK sends them to the SMS emulator
// (Twilio's Messages API, TWILIO_API_URL). The per-IP route limit is raised so the app's own limits
// (limits.ts, the per-account code limit) are what these tests meet.
import { startSmsEmulator, type RunningSmsEmulator } from '@pluma/emulators/sms';
import { and, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phoneSignInCodes, smsOutbox } from '../../../db/schema';
import { buildSsoDomain, buildUser, type BuiltUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { createSmsSender } from '../../../platform/sms/sms';
import { accountLimits } from '../account-limits';
import { purgeSpentSignInSecrets } from '../spent-secrets-sweep';

let ipCounter = 0;
const nextIp = () => `10.34.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
let phoneCounter = 0;
/** A 10-digit number of its own for each user (stored with +52, as a Mexican sign-up would). */
const nextPhone = () => `55${String(Date.now() % 1_000_000).padStart(6, '0')}${String(++phoneCounter % 100).padStart(2, '0')}`;

describe('phone sign-in (SMS code)', () => {
  let t: TestApp;
  let sms: RunningSmsEmulator;
  let admin: BuiltUser;
  const SID = 'AC0123456789abcdef0123456789abcdef';
  const TOKEN = 'twilio-auth-token-0123456789';

  beforeAll(async () => {
    sms = await startSmsEmulator({ accountSid: SID, authToken: TOKEN });
    t = await createTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '1000', TWILIO_API_URL: sms.url });
    admin = await buildUser(t.ctx, { staffRole: 'admin' });
  });
  afterAll(async () => {
    await t.close();
    await sms.close();
  });

  const post = (url: string, body: object, options: { ip?: string; lang?: string } = {}) =>
    t.app.inject({ method: 'POST', url: `/api/auth/phone/${url}`, payload: body, remoteAddress: options.ip ?? nextIp(), headers: options.lang ? { 'accept-language': options.lang } : {} });
  const withPhone = async (lang: 'en' | 'es' = 'en') => {
    const local = nextPhone();
    return { who: await buildUser(t.ctx, { phone: `+52${local}`, lang }), local };
  };
  /** The code in the newest outbox text to `to` (+52…), as GET /api/admin/sms-outbox shows it to an admin. */
  const outboxCode = async (to: string) => {
    const res = await t.app.inject({ url: `/api/admin/sms-outbox?to=${encodeURIComponent(to)}`, headers: admin.auth });
    expect(res.statusCode).toBe(200);
    const text: string = res.json().items[0]?.text ?? '';
    return { text, code: /\b(\d{6})\b/.exec(text)?.[1] ?? '', item: res.json().items[0] };
  };
  /** Lets the next code go out at once (the 30-second resend wait is the client's countdown). */
  const skipResendWait = (userId: number) => accountLimits(t.ctx).store.delete(`phone-resend:${userId}`);

  it('texts a code to the outbox, signs in with it once; unknown numbers get the spec message; codes are hashed', async () => {
    const { who, local } = await withPhone('es');
    // Any spelling of the number finds the account (as GET /users/phone does).
    const started = await post('start', { phone: `+52 ${local.slice(0, 3)}-${local.slice(3, 6)}-${local.slice(6)}` });
    expect(started.statusCode).toBe(200);
    expect(started.json()).toEqual({ expires_in: 600, resend_in: 30 });
    const { text, code, item } = await outboxCode(`+52${local}`);
    expect(item).toMatchObject({ status: 'stored', provider: null, kind: 'phone_sign_in' });
    // The account's language when the request names none.
    expect(text).toContain('Tu código');
    const [row] = await t.ctx.db.select().from(phoneSignInCodes).where(eq(phoneSignInCodes.userId, who.user.userId));
    expect(row.codeHash).not.toContain(code);
    expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);

    const ok = await post('verify', { phone: `+52${local}`, code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.user_id).toBe(who.user.userId);
    expect((await t.app.inject({ url: '/api/users', headers: { authorization: `Bearer ${ok.json().token}` } })).statusCode).toBe(200);
    // Single use.
    const reused = await post('verify', { phone: `+52${local}`, code });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().error).toBe('phone_code_invalid');

    // spec part 1 §8, in the language asked for (body lang, else Accept-Language).
    const unknown = await post('start', { phone: '+52 999 000 0001', lang: 'en' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe("We're sorry, we couldn't find an account with that number.");
    const unknownEs = await post('start', { phone: '999 000 0001' }, { lang: 'es' });
    expect(unknownEs.json().message).toBe('Lo sentimos, no encontramos una cuenta con ese número.');
    // Not the spec's phone rule: a 400, not a lookup.
    expect((await post('start', { phone: '12345' })).statusCode).toBe(400);
    // A code for an unknown number is just a wrong code.
    expect((await post('verify', { phone: '+52 999 000 0001', code })).statusCode).toBe(401);

    // The outbox is for staff admins only.
    const customer = await buildUser(t.ctx);
    expect((await t.app.inject({ url: '/api/admin/sms-outbox', headers: customer.auth })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/admin/sms-outbox' })).statusCode).toBe(401);
  });

  it('refuses wrong, expired and replaced codes; a code dies after 5 wrong tries; 5 wrong per account then waits', async () => {
    const { who, local } = await withPhone();
    const phone = `+52${local}`;
    await post('start', { phone, lang: 'en' });
    const { code: expired } = await outboxCode(phone);
    await t.ctx.db.update(phoneSignInCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(phoneSignInCodes.userId, who.user.userId));
    expect((await post('verify', { phone, code: expired })).statusCode).toBe(401);

    await skipResendWait(who.user.userId);
    await post('start', { phone, lang: 'en' });
    const { code: first } = await outboxCode(phone);
    // A resend right away is refused (the countdown), with Retry-After.
    const tooSoon = await post('start', { phone, lang: 'en' });
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json().message).toContain('wait a moment');
    expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(0);
    // A newer code replaces the older one.
    await skipResendWait(who.user.userId);
    await post('start', { phone, lang: 'en' });
    const { code } = await outboxCode(phone);
    if (first !== code) expect((await post('verify', { phone, code: first })).statusCode).toBe(401);
    await accountLimits(t.ctx).store.delete(`code-fail:phone:${who.user.userId}`);

    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i += 1) expect((await post('verify', { phone, code: wrong })).statusCode).toBe(401);
    // The per-account limit: even the right code waits now.
    const limited = await post('verify', { phone, code });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Past that wait, the code itself is dead after its 5 wrong tries.
    await accountLimits(t.ctx).store.delete(`code-fail:phone:${who.user.userId}`);
    expect((await post('verify', { phone, code })).statusCode).toBe(401);
    const [row] = await t.ctx.db.select().from(phoneSignInCodes).where(and(eq(phoneSignInCodes.userId, who.user.userId), eq(phoneSignInCodes.failedAttempts, 5)));
    expect(row).toBeDefined();
  });

  it('limits codes per number (5 an hour) and requests per address (20 in 15 minutes)', async () => {
    const { who, local } = await withPhone();
    const phone = `+52${local}`;
    for (let i = 0; i < 5; i += 1) {
      await skipResendWait(who.user.userId);
      expect((await post('start', { phone })).statusCode).toBe(200);
    }
    await skipResendWait(who.user.userId);
    const sixth = await post('start', { phone });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error).toBe('rate_limited');
    expect((await t.ctx.db.select().from(smsOutbox).where(eq(smsOutbox.to, phone))).length).toBe(5);

    const ip = nextIp();
    for (let i = 0; i < 20; i += 1) expect((await post('start', { phone: `+52 888 000 ${String(1000 + i)}` }, { ip })).statusCode).toBe(404);
    expect((await post('start', { phone: '+52 888 000 2000' }, { ip })).statusCode).toBe(429);
  });

  it('sends through Twilio (the official SDK, against the emulator) once configured; the token stays masked', async () => {
    const put = (changes: { key: string; value: string }[]) => t.app.inject({ method: 'PUT', url: '/api/appconfig', headers: admin.auth, payload: changes });
    expect(
      (
        await put([
          { key: 'twilio_account_sid', value: SID },
          { key: 'twilio_auth_token', value: TOKEN },
          { key: 'twilio_from_number', value: '+15005550006' },
        ])
      ).statusCode,
    ).toBe(200);
    const adminView = await t.app.inject({ url: '/api/appconfig/admin', headers: admin.auth });
    expect(adminView.body).not.toContain(TOKEN);
    expect(adminView.json().find((e: { key: string }) => e.key === 'twilio_auth_token')).toMatchObject({ kind: 'secret', masked: true, value: '••••••••6789' });
    const publicView = (await t.app.inject('/api/appconfig')).body;
    expect(publicView).not.toContain('twilio');

    const { who, local } = await withPhone();
    const phone = `+52${local}`;
    const started = await post('start', { phone: `52${local}`, lang: 'en' });
    expect(started.statusCode).toBe(200);
    const sent = sms.messages.at(-1);
    expect(sent).toMatchObject({ to: phone, from: '+15005550006', account_sid: SID });
    expect(sent?.body).toMatch(/^Your Pluma sign-in code is \d{6}\./);
    const code = sms.lastCode(phone) ?? '';
    const { item } = await outboxCode(phone);
    expect(item).toMatchObject({ status: 'sent', provider: 'twilio' });
    expect((await post('verify', { phone, code })).json().user.user_id).toBe(who.user.userId);

    // Twilio refuses (here: an error on its side): the visitor is told, the failure is in the outbox, no code stays usable.
    sms.failNext(500, 20500);
    await skipResendWait(who.user.userId);
    const failed = await post('start', { phone, lang: 'es' });
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error).toBe('sms_failed');
    expect((await outboxCode(phone)).item).toMatchObject({ status: 'failed', provider: 'twilio' });
    const live = await t.ctx.db.select().from(phoneSignInCodes).where(and(eq(phoneSignInCodes.userId, who.user.userId)));
    expect(live.every((row) => row.usedAt !== null)).toBe(true);

    // Wrong credentials at Twilio are a failed send too (the SDK's 20003).
    await put([{ key: 'twilio_auth_token', value: 'another-token-0000' }]);
    await skipResendWait(who.user.userId);
    expect((await post('start', { phone })).statusCode).toBe(502);
    await put([{ key: 'twilio_account_sid', value: '' }, { key: 'twilio_auth_token', value: '' }, { key: 'twilio_from_number', value: '' }]);
  });

  it('prints the code on the console in development only, when there is no SMS provider', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = { info: (fields: Record<string, unknown>) => void lines.push(fields), error: (fields: Record<string, unknown>) => void lines.push(fields) };
    const message = { to: '+525550001111', text: 'Your code is 123456.', kind: 'phone_sign_in', code: '123456' };
    await createSmsSender({ ...t.ctx, env: { ...t.ctx.env, NODE_ENV: 'development' } }, log).send(message);
    await createSmsSender({ ...t.ctx, env: { ...t.ctx.env, NODE_ENV: 'production' } }, log).send(message);
    expect(lines.map((line) => [line.status, line.code])).toEqual([
      ['stored', '123456'],
      ['stored', undefined],
    ]);
  });

  it('gives an account with two-factor on its second step, not a session', async () => {
    const { who, local } = await withPhone();
    const phone = `+52${local}`;
    const setup = (await t.app.inject({ method: 'POST', url: '/api/auth/two-factor/setup', headers: who.auth, remoteAddress: nextIp() })).json();
    const totp = new TOTP({ secret: Secret.fromBase32(setup.secret), digits: 6, period: 30 });
    const confirm = await t.app.inject({ method: 'POST', url: '/api/auth/two-factor/confirm', headers: who.auth, payload: { code: totp.generate() }, remoteAddress: nextIp() });
    expect(confirm.statusCode).toBe(200);

    await post('start', { phone });
    const { code } = await outboxCode(phone);
    const verified = await post('verify', { phone, code });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ two_factor_required: true, challenge: expect.any(String), methods: ['totp'] });
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/auth/two-factor/verify',
      payload: { challenge: verified.json().challenge, code: totp.generate({ timestamp: Date.now() + 30_000 }) },
      remoteAddress: nextIp(),
    });
    expect(second.statusCode).toBe(200);
    expect(second.json().user.two_factor.verified).toBe(true);
  });

  it('an account whose domain requires SSO gets no code, and a code texted before the requirement opens nothing', async () => {
    const local = nextPhone();
    const who = await buildUser(t.ctx, { phone: `+52${local}`, email: `pat-${local}@phone-sso.test` });
    expect((await post('start', { phone: `+52${local}` })).statusCode).toBe(200);
    const before = await outboxCode(`+52${local}`);
    await buildSsoDomain(t.ctx, 'phone-sso.test');
    const verify = await post('verify', { phone: `+52${local}`, code: before.code });
    expect(verify.statusCode).toBe(403);
    expect(verify.json().error).toBe('sso_required');
    await skipResendWait(who.user.userId);
    const start = await post('start', { phone: `+52${local}` }, { lang: 'es' });
    expect(start.statusCode).toBe(403);
    expect(start.json().message).toContain('Tu organización inicia sesión con');
    // No second text went out.
    expect((await outboxCode(`+52${local}`)).item).toEqual(before.item);
  });
  it('deletes spent codes (used, expired, out of tries) as the app runs; a live code stays and still signs in', async () => {
    const { who, local } = await withPhone();
    const userId = who.user.userId;
    const now = new Date();
    const minutes = (n: number) => new Date(now.getTime() + n * 60_000);
    const spent = await t.ctx.db
      .insert(phoneSignInCodes)
      .values([
        { userId, codeHash: 'a'.repeat(64), expiresAt: minutes(5), usedAt: minutes(-1) },
        { userId, codeHash: 'b'.repeat(64), expiresAt: minutes(-1) },
        { userId, codeHash: 'c'.repeat(64), expiresAt: minutes(5), failedAttempts: 5 },
      ])
      .returning({ codeId: phoneSignInCodes.codeId });
    expect((await post('start', { phone: `+52${local}` })).statusCode).toBe(200);
    const { code } = await outboxCode(`+52${local}`);
    const before = await t.ctx.db.select().from(phoneSignInCodes).where(eq(phoneSignInCodes.userId, userId));
    // Asking for a code ended the live one inserted above (none was live): 4 rows, 1 usable.
    expect(before).toHaveLength(4);

    const purged = await purgeSpentSignInSecrets(t.ctx.db, now);
    expect(purged.phoneCodes).toBeGreaterThanOrEqual(spent.length);
    const left = await t.ctx.db.select().from(phoneSignInCodes).where(eq(phoneSignInCodes.userId, userId));
    expect(left).toHaveLength(1);
    expect(spent.map((row) => row.codeId)).not.toContain(left[0].codeId);
    expect((await post('verify', { phone: `+52${local}`, code })).statusCode).toBe(200);
    // Once used, it goes with the next sweep.
    expect((await purgeSpentSignInSecrets(t.ctx.db)).phoneCodes).toBeGreaterThanOrEqual(1);
    expect(await t.ctx.db.select().from(phoneSignInCodes).where(eq(phoneSignInCodes.userId, userId))).toHaveLength(0);
  });
});
