import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, desc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appConfig, auditLog, files, mailOutbox, products, purchases, sessions, staff, users } from '../../db/schema';
import { invalidateUser } from '../../platform/auth/invalidation';
import { buildUser, grantAccess } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { hasAccess } from './access';

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.88.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};

describe('users: current user and profile', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /api/users presents the spec fields only, without access when there is no purchase', async () => {
    const { user, auth } = await buildUser(t.ctx, { availableWords: 0, lang: 'es', company: 'ACME' });
    const res = await t.app.inject({ url: '/api/users', headers: auth });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        'user_id', 'name', 'last_name', 'email', 'phone', 'company', 'lang', 'dark_mode', 'birthday', 'file_id', 'picture',
        'signup_reason', 'instagram', 'has_access', 'available_words', 'staff', 'purchase', 'default_organization', 'createdAt',
        // Beyond the spec: the sign-in's second factor (issue 33), so the web knows what Settings › Security shows.
        'two_factor',
      ].sort(),
    );
    expect(body).toMatchObject({ user_id: user.userId, lang: 'es', company: 'ACME', has_access: false, purchase: null, staff: null, available_words: 0 });
    expect(body.two_factor).toEqual({ enabled: false, required: false, verified: false });
    expect(await hasAccess({ db: t.ctx.db, userId: user.userId })).toBe(false);
  });

  it('a valid purchase gives access and is shown with its product', async () => {
    const { user, auth } = await buildUser(t.ctx, { access: true });
    const body = (await t.app.inject({ url: '/api/users', headers: auth })).json();
    expect(body.has_access).toBe(true);
    expect(body.available_words).toBe(10_000);
    expect(body.purchase).toMatchObject({ status: 'active', product: { name: expect.stringMatching(/^Plan /) } });
    expect(new Date(body.purchase.expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect(await hasAccess({ db: t.ctx.db, userId: user.userId })).toBe(true);
  });

  it('the newest valid purchase wins; expired, cancelled-and-over, pending and revoked ones give no access', async () => {
    const { user, auth } = await buildUser(t.ctx);
    const [product] = await t.ctx.db.insert(products).values({ name: 'Old plan', price: 5, expirationDays: 10 }).returning();
    const longAgo = new Date(Date.now() - 40 * 86_400_000);
    await t.ctx.db.insert(purchases).values([
      { userId: user.userId, productId: product.productId, status: 'active', expirationDays: 10, createdAt: longAgo, updatedAt: longAgo },
      { userId: user.userId, productId: product.productId, status: 'pending', expirationDays: 30 },
      { userId: user.userId, productId: product.productId, status: 'revoked', expirationDays: 30 },
      { userId: user.userId, productId: product.productId, status: 'cancelled', subscriptionInterval: 1, subscriptionPeriod: 'month', createdAt: longAgo, updatedAt: longAgo },
    ]);
    let body = (await t.app.inject({ url: '/api/users', headers: auth })).json();
    expect(body.has_access).toBe(false);
    expect(body.purchase).toBeNull();

    const older = await grantAccess(t.ctx, user.userId);
    await t.ctx.db.update(purchases).set({ createdAt: new Date(Date.now() - 86_400_000) }).where(eq(purchases.purchaseId, older.purchase.purchaseId));
    const newer = await grantAccess(t.ctx, user.userId);
    // Written straight to the tables; the app's purchase paths tell the auth cache themselves.
    invalidateUser(user.userId);
    body = (await t.app.inject({ url: '/api/users', headers: auth })).json();
    expect(body.has_access).toBe(true);
    expect(body.purchase.purchase_id).toBe(newer.purchase.purchaseId);
  });

  it('staff have access and are shown as unlimited', async () => {
    const { auth, user } = await buildUser(t.ctx, { staffRole: 'manager', availableWords: 3 });
    const body = (await t.app.inject({ url: '/api/users', headers: auth })).json();
    const [row] = await t.ctx.db.select().from(staff).where(eq(staff.userId, user.userId));
    expect(body).toMatchObject({ has_access: true, available_words: 1_000_000, staff: { staff_id: row.staffId, role: 'manager' } });
  });

  it('opening the app is not a use: last_used_at stays unset (Not used yet) while the session is kept fresh', async () => {
    const { user, auth } = await buildUser(t.ctx);
    await t.app.inject({ url: '/api/users', headers: auth });
    const [first] = await t.ctx.db.select().from(users).where(eq(users.userId, user.userId));
    expect(first.lastUsedAt).toBeNull();
    // Two minutes later (the clock moves, not the row): the session is touched, the user's last use is not.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 120_000 });
    try {
      await t.app.inject({ url: '/api/users', headers: auth });
      const [again] = await t.ctx.db.select().from(users).where(eq(users.userId, user.userId));
      expect(again.lastUsedAt).toBeNull();
      const [session] = await t.ctx.db.select().from(sessions).where(eq(sessions.userId, user.userId));
      expect(session.lastUsedAt.getTime()).toBe(Date.now());
    } finally {
      vi.useRealTimers();
    }
  });

  it('PUT /api/users updates the profile; the phone is kept to 10 digits', async () => {
    const { auth } = await buildUser(t.ctx);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/users',
      headers: auth,
      payload: { name: 'Lucía', last_name: 'Pérez', phone: '+52 (555) 123-4567-89', lang: 'es', dark_mode: true, birthday: '1990-04-05', company: 'Tienda', instagram: '@lucia' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Lucía', last_name: 'Pérez', phone: '5255512345', lang: 'es', dark_mode: true, birthday: '1990-04-05', company: 'Tienda', instagram: '@lucia' });
  });

  it('PUT /api/users validates, in the user language', async () => {
    const { auth } = await buildUser(t.ctx, { lang: 'es' });
    const res = await t.app.inject({ method: 'PUT', url: '/api/users', headers: auth, payload: { name: '  ' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.name).toBe('El nombre no es válido.');
    const lang = await t.app.inject({ method: 'PUT', url: '/api/users', headers: auth, payload: { lang: 'fr' } });
    expect(lang.statusCode).toBe(400);
  });

  it("PUT /api/users refuses another user's file as picture (404) and accepts an own one", async () => {
    const owner = await buildUser(t.ctx);
    const other = await buildUser(t.ctx);
    const [file] = await t.ctx.db
      .insert(files)
      .values({ userId: owner.user.userId, name: 'me.png', type: 'png', mime: 'image/png', size: 10, storageKey: `k-${owner.user.userId}`, publicName: `pub${owner.user.userId}` })
      .returning();
    const refused = await t.app.inject({ method: 'PUT', url: '/api/users', headers: other.auth, payload: { file_id: file.fileId } });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error).toBe('not_found');
    const ok = await t.app.inject({ method: 'PUT', url: '/api/users', headers: owner.auth, payload: { file_id: file.fileId } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ file_id: file.fileId, picture: `/api/files/pub${owner.user.userId}.png` });
  });

  it('DELETE /api/users deletes the account and its data', async () => {
    const { user, auth } = await buildUser(t.ctx, { access: true });
    const res = await t.app.inject({ method: 'DELETE', url: '/api/users', headers: auth });
    expect(res.statusCode).toBe(204);
    expect(await t.ctx.db.select().from(users).where(eq(users.userId, user.userId))).toHaveLength(0);
    expect(await t.ctx.db.select().from(purchases).where(eq(purchases.userId, user.userId))).toHaveLength(0);
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.userId, user.userId))).toHaveLength(0);
    expect((await t.app.inject({ url: '/api/users', headers: auth })).statusCode).toBe(401);
  });

  it('the last admin cannot delete their own account (409); with a second admin they can', async () => {
    await t.ctx.db.delete(staff).where(eq(staff.role, 'admin'));
    const first = await buildUser(t.ctx, { staffRole: 'admin' });
    const refused = await t.app.inject({ method: 'DELETE', url: '/api/users', headers: first.auth });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'conflict', message: 'You are the last admin. Add another admin before deleting your account.' });
    expect(await t.ctx.db.select().from(users).where(eq(users.userId, first.user.userId))).toHaveLength(1);

    await buildUser(t.ctx, { staffRole: 'admin' });
    expect((await t.app.inject({ method: 'DELETE', url: '/api/users', headers: first.auth })).statusCode).toBe(204);
  });

  it('every /api/users route needs a session', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/api/users', payload: method === 'PUT' ? {} : undefined });
      expect(res.statusCode).toBe(401);
    }
  });
});

describe('users: recovery and staff lookups', () => {
  let t: TestApp;
  let server: Server;
  const hooks: Record<string, unknown>[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        hooks.push(JSON.parse(raw || '{}'));
        res.writeHead(200).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t = await createTestApp({ PUBLIC_URL: 'https://app.pluma.test/', OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
  });
  afterAll(async () => {
    server.close();
    await t.close();
  });

  const send = (email: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/users/sendResetPasswordLink', payload: { email }, headers, remoteAddress: nextIp() });

  const latestMailTo = async (to: string) => {
    const [mail] = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.mailId)).limit(1);
    return mail;
  };

  it('unknown email → 404 with the spec message, in EN and ES', async () => {
    const en = await send('nobody@example.com');
    expect(en.statusCode).toBe(404);
    expect(en.json()).toEqual({
      error: 'not_found',
      message: 'We did not found any account with this email. Could your account be under a different email?',
    });
    const es = await send('nobody@example.com', { 'accept-language': 'es' });
    expect(es.json().message).toBe('No encontramos ninguna cuenta con este correo. ¿Podría estar tu cuenta con otro correo?');
  });

  it('mails a working reset link (email lowercased and trimmed) and calls the reset webhook', async () => {
    const port = (server.address() as AddressInfo).port;
    await t.ctx.db.insert(appConfig).values({ key: 'reset_password_email_webhook_url', value: `http://127.0.0.1:${port}/reset` });
    const { user } = await buildUser(t.ctx, { lang: 'es' });
    const res = await send(`  ${user.email.toUpperCase()}  `);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: "We've sent you a password reset email." });

    const mail = await latestMailTo(user.email);
    expect(mail).toMatchObject({ kind: 'reset_password', status: 'stored', subject: 'Restablece tu contraseña de Pluma' });
    // The page opens in the user's language (lang=es), whatever browser opens the mail.
    const link = mail.text.match(/https:\/\/app\.pluma\.test\/reset-password\?token=([^&\s]+)&lang=es/);
    expect(link).not.toBeNull();
    const token = decodeURIComponent(link![1]);

    await expect.poll(() => hooks.length, { timeout: 5000 }).toBe(1);
    expect(hooks[0]).toMatchObject({ event: 'reset_password_email', email: user.email, user_id: user.userId, link: link![0] });

    const reset = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'from-email-1' }, remoteAddress: nextIp() });
    expect(reset.statusCode).toBe(200);
    await t.ctx.db.delete(appConfig).where(eq(appConfig.key, 'reset_password_email_webhook_url'));
  });

  it('recovery is limited to 5 a minute per IP', async () => {
    const ip = nextIp();
    // A different email each time: the per-account limit (account-limits.test.ts) is not what this tests.
    for (let i = 0; i < 5; i++) {
      await t.app.inject({ method: 'POST', url: '/api/users/sendResetPasswordLink', payload: { email: `x${i}@example.com` }, remoteAddress: ip });
    }
    const res = await t.app.inject({ method: 'POST', url: '/api/users/sendResetPasswordLink', payload: { email: 'x9@example.com' }, remoteAddress: ip });
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toBe('rate_limited');
  });

  it('resetPasswordLink: 403 for a non-staff user, a link for a manager (audited)', async () => {
    const customer = await buildUser(t.ctx);
    const refused = await t.app.inject({ method: 'POST', url: '/api/users/resetPasswordLink', headers: customer.auth, payload: { email: customer.user.email } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('forbidden');
    const before = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, customer.user.email));

    const manager = await buildUser(t.ctx, { staffRole: 'manager' });
    const res = await t.app.inject({ method: 'POST', url: '/api/users/resetPasswordLink', headers: manager.auth, payload: { email: customer.user.email.toUpperCase() } });
    expect(res.statusCode).toBe(200);
    const { link } = res.json();
    expect(link).toMatch(/^https:\/\/app\.pluma\.test\/reset-password\?token=/);
    // Returned, not mailed.
    expect(await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, customer.user.email))).toHaveLength(before.length);
    const audit = await t.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorUserId, manager.user.userId), like(auditLog.action, '%resetPasswordLink')));
    expect(audit).toHaveLength(1);

    const token = decodeURIComponent(new URL(link).searchParams.get('token')!);
    const reset = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'by-staff-1' }, remoteAddress: nextIp() });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().user.user_id).toBe(customer.user.userId);

    const missing = await t.app.inject({ method: 'POST', url: '/api/users/resetPasswordLink', headers: manager.auth, payload: { email: 'ghost@example.com' } });
    expect(missing.statusCode).toBe(404);
  });

  it('resetPasswordLink: a manager cannot get a link for an admin; an admin can', async () => {
    const manager = await buildUser(t.ctx, { staffRole: 'manager' });
    const admin = await buildUser(t.ctx, { staffRole: 'admin' });
    const refused = await t.app.inject({ method: 'POST', url: '/api/users/resetPasswordLink', headers: manager.auth, payload: { email: admin.user.email } });
    expect(refused.statusCode).toBe(403);
    const ok = await t.app.inject({ method: 'POST', url: '/api/users/resetPasswordLink', headers: admin.auth, payload: { email: manager.user.email } });
    expect(ok.statusCode).toBe(200);
  });

  it('GET /api/users/email: staff only, a small summary or 404', async () => {
    const target = await buildUser(t.ctx, { phone: '5550001111' });
    const customer = await buildUser(t.ctx);
    const refused = await t.app.inject({ url: `/api/users/email?email=${encodeURIComponent(target.user.email)}`, headers: customer.auth });
    expect(refused.statusCode).toBe(403);
    expect((await t.app.inject({ url: `/api/users/email?email=${encodeURIComponent(target.user.email)}` })).statusCode).toBe(401);

    const manager = await buildUser(t.ctx, { staffRole: 'manager' });
    const res = await t.app.inject({ url: `/api/users/email?email=${encodeURIComponent(target.user.email.toUpperCase())}`, headers: manager.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user_id: target.user.userId, name: 'Test', last_name: 'User', email: target.user.email, phone: '5550001111' });
    const missing = await t.app.inject({ url: '/api/users/email?email=ghost@example.com', headers: manager.auth });
    expect(missing.statusCode).toBe(404);
    const invalid = await t.app.inject({ url: '/api/users/email?email=nope', headers: manager.auth });
    expect(invalid.statusCode).toBe(400);
  });

  it('GET /api/users/phone: staff only; finds the number in any spelling; spec message when missing', async () => {
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { name: 'Phone', last_name: 'Person', email: `phone-${Date.now()}@example.com`, password: 'secret-1', phone: '+521 555 009999' },
      remoteAddress: nextIp(),
    });
    expect(signup.statusCode).toBe(201);
    const customer = await buildUser(t.ctx);
    expect((await t.app.inject({ url: '/api/users/phone?phone=521555009999', headers: customer.auth })).statusCode).toBe(403);

    const admin = await buildUser(t.ctx, { staffRole: 'admin' });
    for (const phone of ['+521555009999', '521-555-009999', '521555009999']) {
      const res = await t.app.inject({ url: `/api/users/phone?phone=${encodeURIComponent(phone)}`, headers: admin.auth });
      expect(res.statusCode).toBe(200);
      expect(res.json().user_id).toBe(signup.json().user.user_id);
    }
    const missing = await t.app.inject({ url: '/api/users/phone?phone=0000000', headers: { ...admin.auth } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'not_found', message: "We're sorry, we couldn't find an account with that number." });
  });
});
