import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appConfig, mailOutbox, oneTimeTokens, sessions, staff, users } from '../../db/schema';
import { hashToken } from '../../platform/auth/tokens';
import { buildUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createResetPasswordToken, createSignInToken } from '../../platform/auth/one-time-tokens';

// Each request gets its own client address unless a test is about the per-IP limit.
let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.77.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};

const validSignup = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ana',
  last_name: 'García',
  email: `ana-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@Example.com`,
  password: 'secret-pass',
  phone: '+525 551 234567',
  signup_reason: 'Recommendation',
  ...overrides,
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('auth: signup', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://pluma.example' });
  });
  afterAll(() => t.close());

  const signup = (body: unknown, headers: Record<string, string> = {}, remoteAddress = nextIp()) =>
    t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: body as object, headers, remoteAddress });

  it('creates the account, signs in, and sends the welcome email in the user language', async () => {
    const body = validSignup();
    const res = await signup(body, { 'accept-language': 'es-MX,es;q=0.9' });
    expect(res.statusCode).toBe(201);
    const { token, user } = res.json();
    expect(typeof token).toBe('string');
    expect(user).toMatchObject({
      name: 'Ana',
      last_name: 'García',
      email: body.email.toLowerCase(),
      phone: '+525551234567',
      lang: 'es',
      has_access: false,
      staff: null,
      purchase: null,
      signup_reason: 'Recommendation',
    });
    expect(JSON.stringify(res.json())).not.toMatch(/password|hash/i);

    const me = await t.app.inject({ url: '/api/users', headers: bearer(token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().user_id).toBe(user.user_id);

    const [mail] = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email));
    expect(mail).toMatchObject({ kind: 'welcome', status: 'stored', subject: 'Bienvenido a Pluma' });
    expect(mail.text).toContain('https://pluma.example');

    const [row] = await t.ctx.db.select().from(users).where(eq(users.userId, user.user_id));
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    // Never "first signup becomes admin".
    expect(await t.ctx.db.select().from(staff).where(eq(staff.userId, user.user_id))).toHaveLength(0);
  });

  const cases = [
    { field: 'name', value: '', en: 'Name is invalid.', es: 'El nombre no es válido.' },
    { field: 'last_name', value: '   ', en: 'Last name is invalid.', es: 'El apellido no es válido.' },
    { field: 'email', value: 'not-an-email', en: 'Email is invalid.', es: 'El correo electrónico no es válido.' },
    { field: 'password', value: '12345', en: 'Password must be 6 characters long.', es: 'La contraseña debe tener al menos 6 caracteres.' },
    { field: 'phone', value: '12-34', en: 'Phone number is invalid.', es: 'El número de teléfono no es válido.' },
  ];

  for (const c of cases) {
    for (const lang of ['en', 'es'] as const) {
      it(`rejects an invalid ${c.field} with the spec message (${lang})`, async () => {
        const res = await signup(validSignup({ [c.field]: c.value }), { 'accept-language': lang === 'es' ? 'es' : 'en-US' });
        expect(res.statusCode).toBe(400);
        const body = res.json();
        expect(body.error).toBe('validation_error');
        expect(body.message).toBe(c[lang]);
        expect(body.details[c.field]).toBe(c[lang]);
      });
    }
  }

  it('a missing field gets the same message', async () => {
    const { phone: _phone, ...withoutPhone } = validSignup();
    const res = await signup(withoutPhone, { 'accept-language': 'es' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.phone).toBe('El número de teléfono no es válido.');
  });

  it('an existing email, in any case, is a 412 email_exists and creates nothing', async () => {
    const first = validSignup();
    expect((await signup(first)).statusCode).toBe(201);
    const res = await signup(validSignup({ email: `  ${first.email.toUpperCase()} ` }));
    expect(res.statusCode).toBe(412);
    expect(res.json()).toEqual({ error: 'email_exists', message: 'You already have an account, please login.' });
    const rows = await t.ctx.db.select().from(users).where(eq(users.email, first.email.toLowerCase()));
    expect(rows).toHaveLength(1);
  });

  it('is limited to 5 sign-ups a minute per IP', async () => {
    const ip = nextIp();
    for (let i = 0; i < 5; i++) {
      // Invalid bodies count too: the limit runs before validation.
      expect((await signup({}, {}, ip)).statusCode).toBe(400);
    }
    const res = await signup(validSignup(), {}, ip);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ error: 'rate_limited', message: 'Too many attempts, please wait a moment and try again.' });
    expect((await signup(validSignup(), {}, nextIp())).statusCode).toBe(201);
  });

  it('is refused with 403 signup_disabled when signup_enabled is false', async () => {
    await t.ctx.db.insert(appConfig).values({ key: 'signup_enabled', value: 'false' });
    try {
      const body = validSignup();
      const res = await signup(body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'signup_disabled', message: 'Sign-ups are currently closed.' });
      expect(await t.ctx.db.select().from(users).where(eq(users.email, body.email.toLowerCase()))).toHaveLength(0);
    } finally {
      await t.ctx.db.delete(appConfig).where(eq(appConfig.key, 'signup_enabled'));
    }
  });

  it('a refused welcome webhook never fails the signup', async () => {
    await t.ctx.db.insert(appConfig).values({ key: 'welcome_email_webhook_url', value: 'http://169.254.169.254/latest' });
    try {
      expect((await signup(validSignup())).statusCode).toBe(201);
    } finally {
      await t.ctx.db.delete(appConfig).where(eq(appConfig.key, 'welcome_email_webhook_url'));
    }
  });
});

describe('auth: welcome webhook', () => {
  let t: TestApp;
  let server: Server;
  const hits: { url: string; body: Record<string, unknown> }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        hits.push({ url: req.url ?? '', body: JSON.parse(raw || '{}') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t = await createTestApp({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
    const port = (server.address() as AddressInfo).port;
    await t.ctx.db.insert(appConfig).values({ key: 'welcome_email_webhook_url', value: `http://127.0.0.1:${port}/welcome` });
  });
  afterAll(async () => {
    server.close();
    await t.close();
  });

  it('posts the new user to welcome_email_webhook_url through the outbound guard', async () => {
    const body = validSignup();
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: body, remoteAddress: nextIp() });
    expect(res.statusCode).toBe(201);
    await expect.poll(() => hits.length, { timeout: 5000 }).toBe(1);
    expect(hits[0].url).toBe('/welcome');
    expect(hits[0].body).toMatchObject({ event: 'welcome_email', email: body.email.toLowerCase(), name: 'Ana', user_id: res.json().user.user_id });
    expect(JSON.stringify(hits[0].body)).not.toMatch(/password/i);
  });
});

describe('auth: login, tokens and sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, remoteAddress = nextIp()) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });

  it('signs in with the right pair (email in any case) and returns the current user', async () => {
    const { user, password } = await buildUser(t.ctx);
    const res = await login(`  ${user.email.toUpperCase()}`, password);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ user_id: user.userId, email: user.email });
    const me = await t.app.inject({ url: '/api/users', headers: bearer(res.json().token) });
    expect(me.statusCode).toBe(200);
  });

  it('a wrong password and an unknown email get the same 401', async () => {
    const { user } = await buildUser(t.ctx);
    const expected = { error: 'invalid_credentials', message: 'Email or password is incorrect, please try again.' };
    const wrong = await login(user.email, 'not-the-password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(expected);
    const unknown = await login('nobody-here@example.com', 'whatever1');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(expected);
    const es = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'nope-nope' },
      headers: { 'accept-language': 'es' },
      remoteAddress: nextIp(),
    });
    expect(es.json().message).toBe('El correo o la contraseña son incorrectos, inténtalo de nuevo.');
  });

  it('repeated wrong logins for one IP and email are rate limited (429), other emails are not', async () => {
    const { user, password } = await buildUser(t.ctx);
    const ip = nextIp();
    // Signed in from this address before, so the per-account wait (account-limits.test.ts) leaves it
    // alone and only the per-IP-and-email limit is at work; that sign-in is one of its requests.
    expect((await login(user.email, password, ip)).statusCode).toBe(200);
    for (let i = 1; i < t.ctx.env.RATE_LIMIT_AUTH_PER_MINUTE; i++) {
      expect((await login(user.email, 'wrong-password', ip)).statusCode).toBe(401);
    }
    const limited = await login(user.email, password, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('rate_limited');
    const other = await buildUser(t.ctx);
    expect((await login(other.user.email, other.password, ip)).statusCode).toBe(200);
  });

  it('refuses a request with no token, a bad token, an expired token and a logged-out token (401)', async () => {
    const none = await t.app.inject({ url: '/api/users' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ error: 'unauthenticated', message: 'Please sign in to continue.' });

    const bad = await t.app.inject({ url: '/api/users', headers: bearer('not-a-real-token') });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().error).toBe('unauthenticated');

    const expired = await buildUser(t.ctx);
    await t.ctx.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.tokenHash, hashToken(expired.token)));
    const exp = await t.app.inject({ url: '/api/users', headers: expired.auth });
    expect(exp.statusCode).toBe(401);
    expect(exp.json()).toEqual({ error: 'auth/id-token-expired', message: 'Your session has expired, please sign in again.' });

    const out = await buildUser(t.ctx);
    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: out.auth });
    expect(logout.statusCode).toBe(204);
    const after = await t.app.inject({ url: '/api/users', headers: out.auth });
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe('unauthenticated');
    const refreshAfter = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: out.auth });
    expect(refreshAfter.statusCode).toBe(401);
  });

  it('logout ends the whole family server-side, not other sign-ins', async () => {
    const { user, password } = await buildUser(t.ctx);
    const a = (await login(user.email, password)).json().token as string;
    const b = (await login(user.email, password)).json().token as string;
    const refreshed = (await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: bearer(a) })).json().token as string;
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(refreshed) })).statusCode).toBe(204);
    expect((await t.app.inject({ url: '/api/users', headers: bearer(refreshed) })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/users', headers: bearer(a) })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/users', headers: bearer(b) })).statusCode).toBe(200);
  });

  it('refresh rotates the token; reusing the old one on refresh revokes the family, new token included', async () => {
    const { token } = await buildUser(t.ctx);
    const first = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: bearer(token) });
    expect(first.statusCode).toBe(200);
    const next = first.json().token as string;
    expect(next).not.toBe(token);
    expect(first.json().user.user_id).toBeTypeOf('number');
    expect((await t.app.inject({ url: '/api/users', headers: bearer(next) })).statusCode).toBe(200);

    const reuse = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: bearer(token) });
    expect(reuse.statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/users', headers: bearer(next) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: bearer(next) })).statusCode).toBe(401);
  });

  it('refresh without a token is a 401', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/refresh' });
    expect(res.statusCode).toBe(401);
  });

  it('reset-password: single use, ends every other session, new password works', async () => {
    const { user, token: oldSession, password: oldPassword } = await buildUser(t.ctx);
    const reset = await createResetPasswordToken(t.ctx, user.userId);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: reset, password: 'brand-new-1' }, remoteAddress: nextIp() });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.user_id).toBe(user.userId);
    expect((await t.app.inject({ url: '/api/users', headers: bearer(res.json().token) })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/users', headers: bearer(oldSession) })).statusCode).toBe(401);
    expect((await login(user.email, oldPassword)).statusCode).toBe(401);
    expect((await login(user.email, 'brand-new-1')).statusCode).toBe(200);

    const again = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: reset, password: 'another-one' }, remoteAddress: nextIp() });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'reset_token_invalid', message: 'This password reset link is invalid or has expired.' });
  });

  it('reset-password: an expired, unknown or sign-in token is refused, a successful reset voids other reset links', async () => {
    const { user } = await buildUser(t.ctx);
    const expired = await createResetPasswordToken(t.ctx, user.userId);
    await t.ctx.db.update(oneTimeTokens).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(oneTimeTokens.tokenHash, hashToken(expired)));
    const signIn = await createSignInToken(t.ctx, user.userId, null);
    for (const token of [expired, 'x'.repeat(43), signIn]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'new-pass-1' }, remoteAddress: nextIp() });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('reset_token_invalid');
    }
    const a = await createResetPasswordToken(t.ctx, user.userId);
    const b = await createResetPasswordToken(t.ctx, user.userId);
    const ok = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: a, password: 'new-pass-1' }, remoteAddress: nextIp() });
    expect(ok.statusCode).toBe(200);
    const other = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: b, password: 'new-pass-2' }, remoteAddress: nextIp() });
    expect(other.statusCode).toBe(400);
  });

  it('reset-password validates the new password like signup', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: 'y'.repeat(43), password: '123' },
      headers: { 'accept-language': 'es' },
      remoteAddress: nextIp(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.password).toBe('La contraseña debe tener al menos 6 caracteres.');
  });

  it('token: a one-time sign-in token gives a session once, within 5 minutes', async () => {
    const admin = await buildUser(t.ctx, { staffRole: 'admin' });
    const { user } = await buildUser(t.ctx);
    const token = await createSignInToken(t.ctx, user.userId, admin.user.userId);
    const [row] = await t.ctx.db.select().from(oneTimeTokens).where(eq(oneTimeTokens.tokenHash, hashToken(token)));
    expect(row).toMatchObject({ purpose: 'sign_in', createdByUserId: admin.user.userId });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(5 * 60_000 + 1000);

    const res = await t.app.inject({ method: 'POST', url: '/api/auth/token', payload: { token }, remoteAddress: nextIp() });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.user_id).toBe(user.userId);
    expect((await t.app.inject({ url: '/api/users', headers: bearer(res.json().token) })).json().user_id).toBe(user.userId);

    const reuse = await t.app.inject({ method: 'POST', url: '/api/auth/token', payload: { token }, remoteAddress: nextIp() });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toEqual({ error: 'sign_in_token_invalid', message: 'This sign-in link is invalid or has expired.' });

    const late = await createSignInToken(t.ctx, user.userId, null);
    await t.ctx.db.update(oneTimeTokens).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(oneTimeTokens.tokenHash, hashToken(late)));
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/token', payload: { token: late }, remoteAddress: nextIp() })).statusCode).toBe(400);

    const reset = await createResetPasswordToken(t.ctx, user.userId);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/token', payload: { token: reset }, remoteAddress: nextIp() })).statusCode).toBe(400);
  });

  it('password change: needs the current password, keeps the caller signed in, ends the other sessions', async () => {
    const { user, token, password } = await buildUser(t.ctx);
    const otherDevice = (await login(user.email, password)).json().token as string;
    const reset = await createResetPasswordToken(t.ctx, user.userId);

    const wrong = await t.app.inject({ method: 'PUT', url: '/api/auth/password', headers: bearer(token), payload: { current_password: 'nope-nope', password: 'changed-1' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'invalid_credentials', message: 'Your current password is incorrect.' });
    expect((await t.app.inject({ url: '/api/users', headers: bearer(otherDevice) })).statusCode).toBe(200);

    const ok = await t.app.inject({ method: 'PUT', url: '/api/auth/password', headers: bearer(token), payload: { current_password: password, password: 'changed-1' } });
    expect(ok.statusCode).toBe(204);
    expect((await t.app.inject({ url: '/api/users', headers: bearer(token) })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/users', headers: bearer(otherDevice) })).statusCode).toBe(401);
    expect((await login(user.email, password)).statusCode).toBe(401);
    expect((await login(user.email, 'changed-1')).statusCode).toBe(200);
    // An outstanding reset link no longer works after the password changed.
    const [resetRow] = await t.ctx.db
      .select()
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.tokenHash, hashToken(reset)), eq(oneTimeTokens.purpose, 'reset_password')));
    expect(resetRow.usedAt).not.toBeNull();
  });

  it('password change needs a session', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/auth/password', payload: { current_password: 'a', password: 'bbbbbb' } });
    expect(res.statusCode).toBe(401);
  });

  it('the auth routes are in the OpenAPI document', async () => {
    const docs = (await t.app.inject('/api/docs/json')).json();
    for (const path of ['/api/auth/signup', '/api/auth/login', '/api/auth/refresh', '/api/auth/logout', '/api/auth/reset-password', '/api/auth/token', '/api/auth/password']) {
      expect(Object.keys(docs.paths)).toContain(path);
    }
  });
});
