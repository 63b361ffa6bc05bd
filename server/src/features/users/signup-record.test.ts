// POST /api/users (spec part 1 §7 "sign-up record") answers exactly as POST /api/auth/signup does.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appConfig, mailOutbox, staff, users } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/test-app';

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.92.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};

const validSignup = (overrides: Record<string, unknown> = {}) => ({
  name: 'Luis',
  last_name: 'Mora',
  email: `luis-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@Example.com`,
  password: 'secret-pass',
  phone: '+525 551 234567',
  ...overrides,
});

describe('POST /api/users: the sign-up record', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://pluma.example' });
  });
  afterAll(() => t.close());

  const post = (url: string, body: unknown, headers: Record<string, string> = {}, remoteAddress = nextIp()) =>
    t.app.inject({ method: 'POST', url, payload: body as object, headers, remoteAddress });

  it('creates and signs in the account like sign-up: same status, same fields, welcome mail; uid is ignored', async () => {
    const body = validSignup({ uid: 'firebase-uid-123' });
    const res = await post('/api/users', body, { 'accept-language': 'es' });
    expect(res.statusCode).toBe(201);
    const { token, user } = res.json();
    expect(typeof token).toBe('string');
    expect(user).toMatchObject({ email: body.email.toLowerCase(), name: 'Luis', phone: '+525551234567', lang: 'es', staff: null });

    const viaSignup = await post('/api/auth/signup', validSignup());
    expect(Object.keys(res.json()).sort()).toEqual(Object.keys(viaSignup.json()).sort());
    expect(Object.keys(user).sort()).toEqual(Object.keys(viaSignup.json().user).sort());

    const me = await t.app.inject({ url: '/api/users', headers: { authorization: `Bearer ${token}` } });
    expect(me.json().user_id).toBe(user.user_id);
    const [mail] = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email));
    expect(mail).toMatchObject({ kind: 'welcome', subject: 'Bienvenido a Pluma' });
  });

  const invalid = [
    { name: '' },
    { last_name: ' ' },
    { email: 'nope' },
    { password: '123' },
    { phone: '12-34' },
    { phone: undefined },
  ];
  for (const change of invalid) {
    for (const lang of ['en', 'es']) {
      it(`refuses ${JSON.stringify(change)} with the sign-up's answer (${lang})`, async () => {
        const body = validSignup(change);
        const record = await post('/api/users', body, { 'accept-language': lang });
        const signup = await post('/api/auth/signup', body, { 'accept-language': lang });
        expect(record.statusCode).toBe(400);
        expect(record.json()).toEqual(signup.json());
      });
    }
  }

  it('an existing email is the same 412 as sign-up', async () => {
    const body = validSignup();
    expect((await post('/api/auth/signup', body)).statusCode).toBe(201);
    const res = await post('/api/users', { ...body, email: body.email.toUpperCase() });
    expect(res.statusCode).toBe(412);
    expect(res.json()).toEqual({ error: 'email_exists', message: 'You already have an account, please login.' });
  });

  it('cannot make anyone staff or give words or access', async () => {
    const body = validSignup({
      staff: { staff_id: 1, role: 'admin' },
      role: 'admin',
      staff_role: 'admin',
      available_words: 1_000_000,
      has_access: true,
      user_id: 1,
    });
    const res = await post('/api/users', body);
    expect(res.statusCode).toBe(201);
    const { user } = res.json();
    expect(user).toMatchObject({ staff: null, has_access: false, available_words: 0 });
    expect(user.user_id).not.toBe(1);
    expect(await t.ctx.db.select().from(staff).where(eq(staff.userId, user.user_id))).toHaveLength(0);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.userId, user.user_id));
    expect(row.availableWords).toBe(0);
  });

  it('is limited to 5 a minute per IP, and refused when sign-up is off', async () => {
    const ip = nextIp();
    for (let i = 0; i < 5; i++) expect((await post('/api/users', {}, {}, ip)).statusCode).toBe(400);
    expect((await post('/api/users', validSignup(), {}, ip)).statusCode).toBe(429);

    await t.ctx.db.insert(appConfig).values({ key: 'signup_enabled', value: 'false' }).onConflictDoUpdate({ target: appConfig.key, set: { value: 'false' } });
    try {
      const res = await post('/api/users', validSignup());
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('signup_disabled');
    } finally {
      await t.ctx.db.delete(appConfig).where(eq(appConfig.key, 'signup_enabled'));
    }
  });
});
