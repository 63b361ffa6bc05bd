// Back-office customers through the real app (spec part 1 §2, §7; docs/decisions.md "Staff rights").
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, creditLedger, invoices, mailOutbox, sessions, users } from '../../db/schema';
import { buildProduct, buildPurchase, buildStaffCast, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('back-office customers', () => {
  let t: TestApp;
  let admin: BuiltUser;
  let spanishAdmin: BuiltUser;
  let manager: BuiltUser;
  let customer: BuiltUser;
  const call = (as: BuiltUser | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: as?.auth, ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    t = await createTestApp();
    ({ admin, spanishAdmin, manager, customer } = await buildStaffCast(t.ctx));
  });
  afterAll(() => t.close());

  const form = (email: string) => ({ name: 'Ana', last_name: 'Pérez', email, phone: '+52 (55) 1234-5678', instagram: '@ana', lang: 'es', signup_reason: 'Instagram Ad', birthday: '1990-04-01' });

  it('refuses by role, route by route: anonymous 401, customer 403, manager per the rights table, admin allowed', async () => {
    const target = await buildUser(t.ctx);
    const id = target.user.userId;
    const routes: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: unknown; manager: number; admin: number }[] = [
      { method: 'GET', url: '/api/users/admin/all', manager: 200, admin: 200 },
      { method: 'GET', url: `/api/users/${id}/admin`, manager: 200, admin: 200 },
      { method: 'POST', url: '/api/users/admin/user', payload: form(`matrix-${Date.now()}@example.com`), manager: 403, admin: 201 },
      { method: 'PUT', url: `/api/users/admin/${id}`, payload: form(target.user.email), manager: 403, admin: 200 },
      { method: 'POST', url: `/api/users/admin/${id}/impersonate`, manager: 403, admin: 201 },
      { method: 'DELETE', url: `/api/users/admin/${id}`, manager: 403, admin: 204 },
    ];
    for (const route of routes) {
      expect((await call(null, route.method, route.url, route.payload)).statusCode, `${route.method} ${route.url} anonymous`).toBe(401);
      expect((await call(customer, route.method, route.url, route.payload)).statusCode, `${route.method} ${route.url} customer`).toBe(403);
      expect((await call(manager, route.method, route.url, route.payload)).statusCode, `${route.method} ${route.url} manager`).toBe(route.manager);
      expect((await call(admin, route.method, route.url, route.payload)).statusCode, `${route.method} ${route.url} admin`).toBe(route.admin);
    }
  });

  it('lists 50 a page with the columns of the table, words used and lifetime value, filtered and sorted in SQL', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const big = await buildUser(t.ctx, { name: `${tag} Big`, email: `${tag}-big@example.com`, phone: '5512345678', lastUsedAt: new Date() });
    const small = await buildUser(t.ctx, { name: `${tag} Small`, email: `${tag}-small@example.com`, phone: '3311112222' });
    const product = await buildProduct(t.ctx);
    const paid = await buildPurchase(t.ctx, { userId: big.user.userId, productId: product.productId, totalPayment: 30 });
    await t.ctx.db.insert(invoices).values([
      { purchaseId: paid.purchaseId, userId: big.user.userId, status: 'completed', amount: 30, totalPayment: 30 },
      { purchaseId: paid.purchaseId, userId: big.user.userId, status: 'failed', amount: 30, totalPayment: 30 },
    ]);
    // Given by staff with a total and no invoice: counted; a gift counts 0.
    await buildPurchase(t.ctx, { userId: big.user.userId, productId: product.productId, status: 'completed', totalPayment: 12.5 });
    await buildPurchase(t.ctx, { userId: small.user.userId, productId: product.productId, status: 'completed', totalPayment: 0, isGift: true });
    await t.ctx.db.insert(creditLedger).values([
      { userId: big.user.userId, words: 1000, balanceAfter: 1000, sourceType: 'admin', sourceId: `${tag}-1` },
      { userId: big.user.userId, words: -120, balanceAfter: 880, sourceType: 'message', sourceId: `${tag}-2` },
      { userId: big.user.userId, words: -30, balanceAfter: 850, sourceType: 'message', sourceId: `${tag}-3` },
    ]);

    const res = await call(manager, 'GET', `/api/users/admin/all?query=${tag}&sort=ltv&direction=desc`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(2);
    expect(Object.keys(body.users[0]).sort()).toEqual(['createdAt', 'email', 'last_name', 'last_used', 'ltv', 'name', 'phone', 'role', 'total_words', 'user_id']);
    expect(body.users.map((u: { user_id: number }) => u.user_id)).toEqual([big.user.userId, small.user.userId]);
    expect(body.users[0]).toMatchObject({ ltv: 42.5, total_words: 150, role: null });
    expect(body.users[1]).toMatchObject({ ltv: 0, total_words: 0, last_used: null });

    const asc = (await call(admin, 'GET', `/api/users/admin/all?query=${tag}&sort=total_words&direction=asc`)).json();
    expect(asc.users[0].user_id).toBe(small.user.userId);
    // Field filter: the phone's digits; the email field does not match a name.
    const byPhone = (await call(admin, 'GET', `/api/users/admin/all?query=331-111&field=phone`)).json();
    expect(byPhone.users.map((u: { user_id: number }) => u.user_id)).toContain(small.user.userId);
    expect((await call(admin, 'GET', `/api/users/admin/all?query=${tag}%20Big&field=email`)).json().total).toBe(0);
    expect((await call(admin, 'GET', `/api/users/admin/all?query=${tag}%20Big&field=name`)).json().total).toBe(1);
    // Sign-up day range: today is in, last year is out.
    const today = new Date().toISOString().slice(0, 10);
    expect((await call(admin, 'GET', `/api/users/admin/all?query=${tag}&start_date=${today}&end_date=${today}`)).json().total).toBe(2);
    expect((await call(admin, 'GET', `/api/users/admin/all?query=${tag}&start_date=2001-01-01&end_date=2001-01-31`)).json().total).toBe(0);
    // The role column says staff.
    const staffRow = (await call(admin, 'GET', `/api/users/admin/all?query=${encodeURIComponent(manager.user.email)}&field=email`)).json();
    expect(staffRow.users[0].role).toBe('manager');
    // A page past the end still counts.
    expect((await call(admin, 'GET', `/api/users/admin/all?query=${tag}&page=5`)).json()).toEqual({ users: [], total: 2 });
  });

  it('pages by 50', async () => {
    const tag = `pg${Date.now().toString(36)}`;
    await t.ctx.db.insert(users).values(Array.from({ length: 51 }, (_, i) => ({ name: `${tag} ${i}`, email: `${tag}-${i}@example.com` })));
    const first = (await call(admin, 'GET', `/api/users/admin/all?query=${tag}&sort=user_id&direction=asc`)).json();
    expect(first.users).toHaveLength(50);
    expect(first.total).toBe(51);
    const second = (await call(admin, 'GET', `/api/users/admin/all?query=${tag}&sort=user_id&direction=asc&page=2`)).json();
    expect(second.users.map((u: { name: string }) => u.name)).toEqual([`${tag} 50`]);
  });

  it('validates the list query and ids, translated', async () => {
    const bad = await call(spanishAdmin, 'GET', '/api/users/admin/all?sort=password&field=secret');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toMatchObject({ sort: expect.any(String), field: expect.any(String) });
    expect((await call(admin, 'GET', '/api/users/admin/all?start_date=2024-02-30')).statusCode).toBe(400);
    expect((await call(admin, 'GET', '/api/users/abc/admin')).statusCode).toBe(400);
    expect((await call(admin, 'GET', '/api/users/999999/admin')).statusCode).toBe(404);
    expect((await call(admin, 'PUT', '/api/users/admin/999999', form('nobody-999@example.com'))).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', '/api/users/admin/999999')).statusCode).toBe(404);
    expect((await call(admin, 'POST', '/api/users/admin/999999/impersonate')).statusCode).toBe(404);
  });

  it('shows one customer with purchases, invoices, totals and the exact keys', async () => {
    const someone = await buildUser(t.ctx, { instagram: '@someone', birthday: '1985-12-24' });
    const product = await buildProduct(t.ctx, { name: 'Detail plan' });
    const purchase = await buildPurchase(t.ctx, { userId: someone.user.userId, productId: product.productId, totalPayment: 10 });
    await t.ctx.db.insert(invoices).values({ purchaseId: purchase.purchaseId, userId: someone.user.userId, status: 'completed', amount: 10, totalPayment: 10 });
    const res = await call(manager, 'GET', `/api/users/${someone.user.userId}/admin`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      ['available_words', 'birthday', 'createdAt', 'email', 'instagram', 'invoices', 'lang', 'last_name', 'last_used', 'name', 'phone', 'picture', 'purchases', 'signup_reason', 'staff', 'total_purchases', 'total_words', 'user_id', 'value'].sort(),
    );
    expect(body).toMatchObject({ instagram: '@someone', birthday: '1985-12-24', total_purchases: 1, value: 10, staff: null });
    expect(body.purchases[0]).toMatchObject({ purchase_id: purchase.purchaseId, product: { name: 'Detail plan' }, status: 'active' });
    expect(Date.parse(body.purchases[0].expires_at)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect(body.invoices[0]).toMatchObject({ purchase_id: purchase.purchaseId, status: 'completed', total_payment: 10 });
  });

  it('creates a customer without signup: no password, a reset email in the outbox, audited; a taken email is 409', async () => {
    const email = `created-${Date.now()}@example.com`;
    const res = await call(admin, 'POST', '/api/users/admin/user', form(email.toUpperCase()));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ email, name: 'Ana', last_name: 'Pérez', phone: '5255123456', lang: 'es', signup_reason: 'Instagram Ad', birthday: '1990-04-01' });
    const [row] = await t.ctx.db.select().from(users).where(eq(users.userId, body.user_id));
    expect(row.passwordHash).toBeNull();
    const mail = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toContain('/reset-password?token=');
    const [audit] = await t.ctx.db.select().from(auditLog).where(and(eq(auditLog.actorUserId, admin.user.userId), eq(auditLog.action, 'POST /api/users/admin/user'))).orderBy(desc(auditLog.auditId));
    expect(audit).toMatchObject({ targetType: 'user', targetId: String(body.user_id) });

    const again = await call(spanishAdmin, 'POST', '/api/users/admin/user', form(email));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Otra cuenta ya usa este correo.');
    const invalid = await call(admin, 'POST', '/api/users/admin/user', { ...form('x'), name: ' ', birthday: '1990-13-01' });
    expect(invalid.statusCode).toBe(400);
    expect(Object.keys(invalid.json().details).sort()).toEqual(['birthday', 'email', 'name']);
  });

  it('updates a customer and audits what changed; another account\'s email is 409', async () => {
    const someone = await buildUser(t.ctx);
    const res = await call(admin, 'PUT', `/api/users/admin/${someone.user.userId}`, { ...form(someone.user.email), name: 'Renamed' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Renamed', instagram: '@ana' });
    const [audit] = await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'PUT /api/users/admin/:id')).orderBy(desc(auditLog.auditId)).limit(1);
    expect(JSON.parse(audit.details!).changes.name).toEqual({ from: 'Test', to: 'Renamed' });
    expect((await call(admin, 'PUT', `/api/users/admin/${someone.user.userId}`, form(customer.user.email))).statusCode).toBe(409);
  });

  // The last admin is never deleted either (account-deletion.ts deleteAccount); through this route an admin could only
  // be the last one by deleting themselves, refused first.
  it('deletes a customer (sessions end), never the caller', async () => {
    const doomed = await buildUser(t.ctx);
    expect((await call(admin, 'DELETE', `/api/users/admin/${doomed.user.userId}`)).statusCode).toBe(204);
    expect((await t.app.inject({ url: '/api/users', headers: doomed.auth })).statusCode).toBe(401);
    expect((await call(admin, 'GET', `/api/users/${doomed.user.userId}/admin`)).statusCode).toBe(404);

    const self = await call(admin, 'DELETE', `/api/users/admin/${admin.user.userId}`);
    expect(self.statusCode).toBe(409);
    expect(self.json()).toMatchObject({ error: 'conflict', message: 'You cannot delete your own account from the back office.' });
  });

  it('logs in as a customer: a one-time uid opening a session that records the admin; never a staff member', async () => {
    const viewed = await buildUser(t.ctx, { name: 'Viewed' });
    const res = await call(admin, 'POST', `/api/users/admin/${viewed.user.userId}/impersonate`);
    expect(res.statusCode).toBe(201);
    const { uid } = res.json();
    const [audit] = await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'POST /api/users/admin/:id/impersonate')).orderBy(desc(auditLog.auditId)).limit(1);
    expect(audit).toMatchObject({ actorUserId: admin.user.userId, targetType: 'user', targetId: String(viewed.user.userId) });
    expect(JSON.parse(audit.details!).impersonation).toEqual({ admin_user_id: admin.user.userId, user_id: viewed.user.userId });

    const exchange = await t.app.inject({ method: 'POST', url: '/api/auth/token', payload: { token: uid } });
    expect(exchange.statusCode).toBe(200);
    expect(exchange.json().user.impersonated_by).toEqual({ user_id: admin.user.userId, name: 'Test User', email: admin.user.email });
    const token = exchange.json().token;
    const me = (await t.app.inject({ url: '/api/users', headers: bearer(token) })).json();
    expect(me).toMatchObject({ user_id: viewed.user.userId, impersonated_by: { user_id: admin.user.userId, email: admin.user.email } });
    const [session] = await t.ctx.db.select().from(sessions).where(eq(sessions.userId, viewed.user.userId)).orderBy(desc(sessions.sessionId)).limit(1);
    expect(session.impersonatedBy).toBe(admin.user.userId);
    expect(session.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(3600_000);
    // A refresh (every 15 minutes in the web) keeps it the admin's view, within the same hour.
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: bearer(token) });
    expect(refreshed.statusCode).toBe(200);
    const refreshedToken = refreshed.json().token;
    expect((await t.app.inject({ url: '/api/users', headers: bearer(refreshedToken) })).json()).toMatchObject({ impersonated_by: { user_id: admin.user.userId } });
    const [rotated] = await t.ctx.db.select().from(sessions).where(eq(sessions.userId, viewed.user.userId)).orderBy(desc(sessions.sessionId)).limit(1);
    expect(rotated).toMatchObject({ impersonatedBy: admin.user.userId, expiresAt: session.expiresAt });
    // The customer's own session says nothing of it.
    expect((await t.app.inject({ url: '/api/users', headers: viewed.auth })).json()).not.toHaveProperty('impersonated_by');
    // Ending it (the web's way back) signs out only that session.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(refreshedToken) })).statusCode).toBeLessThan(300);
    expect((await t.app.inject({ url: '/api/users', headers: bearer(refreshedToken) })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/users', headers: viewed.auth })).statusCode).toBe(200);

    for (const staffTarget of [manager, spanishAdmin]) {
      const refused = await call(admin, 'POST', `/api/users/admin/${staffTarget.user.userId}/impersonate`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('You cannot log in as a staff member.');
    }
  });
});
