import { UNLIMITED_WORDS } from '@pluma/common/constants';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, creditLedger, purchases } from '../../db/schema';
import { buildUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { seedProducts } from '../products/seed';

describe('give and revoke access', () => {
  let t: TestApp;
  let starterId: number;
  let proId: number;
  beforeAll(async () => {
    t = await createTestApp();
    await seedProducts(t.ctx);
    await seedProducts(t.ctx); // idempotent
    const list = (await t.app.inject('/api/products/available')).json() as { product_id: number; name: string; word_amount: number | null }[];
    expect(list.map((p) => p.name)).toEqual(['Starter', 'Pro']);
    starterId = list[0].product_id;
    proId = list[1].product_id;
  });
  afterAll(() => t.close());

  it('an admin grants a product: access and its words at once, through the ledger, audited', async () => {
    const admin = await buildUser(t.ctx, { staffRole: 'admin' });
    const customer = await buildUser(t.ctx);
    expect((await t.app.inject({ url: '/api/users', headers: customer.auth })).json().has_access).toBe(false);

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/giveAccess',
      headers: admin.auth,
      payload: { user_id: customer.user.userId, product_id: starterId, gift: true },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'completed', total_payment: 0, is_gift: true, expiration_days: 30 });

    const me = (await t.app.inject({ url: '/api/users', headers: customer.auth })).json();
    expect(me.has_access).toBe(true);
    expect(me.available_words).toBe(50_000);
    const ledger = await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, customer.user.userId));
    expect(ledger).toMatchObject([{ words: 50_000, balanceAfter: 50_000, sourceType: 'purchase' }]);
    const audit = await t.ctx.db.select().from(auditLog).where(eq(auditLog.actorUserId, admin.user.userId));
    expect(audit.map((a) => a.action)).toContain('POST /api/users/giveAccess');

    // Revoke ends access immediately.
    const revoke = await t.app.inject({
      method: 'PUT',
      url: '/api/users/revokeAccess',
      headers: admin.auth,
      payload: { purchase_id: res.json().purchase_id },
    });
    expect(revoke.json().status).toBe('revoked');
    expect((await t.app.inject({ url: '/api/users', headers: customer.auth })).json().has_access).toBe(false);
  });

  it('an unlimited product sets 1000000 words', async () => {
    const admin = await buildUser(t.ctx, { staffRole: 'admin' });
    const customer = await buildUser(t.ctx);
    await t.app.inject({
      method: 'POST',
      url: '/api/users/giveAccess',
      headers: admin.auth,
      payload: { user_id: customer.user.userId, product_id: proId, total: 49, payment_method_id: null },
    });
    const me = (await t.app.inject({ url: '/api/users', headers: customer.auth })).json();
    expect(me).toMatchObject({ has_access: true, available_words: UNLIMITED_WORDS });
  });

  it('refuses non-admins, unknown users/products, and bad input, changing nothing', async () => {
    const manager = await buildUser(t.ctx, { staffRole: 'manager' });
    const customer = await buildUser(t.ctx);
    const admin = await buildUser(t.ctx, { staffRole: 'admin' });
    const payload = { user_id: customer.user.userId, product_id: starterId, gift: true };
    expect((await t.app.inject({ method: 'POST', url: '/api/users/giveAccess', payload })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/users/giveAccess', headers: customer.auth, payload })).statusCode).toBe(403);
    // Managers give access but do not revoke (docs/decisions.md "Staff rights").
    const revokeBody = { purchase_id: 1 };
    expect((await t.app.inject({ method: 'PUT', url: '/api/users/revokeAccess', payload: revokeBody })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: '/api/users/revokeAccess', headers: customer.auth, payload: revokeBody })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: '/api/users/revokeAccess', headers: manager.auth, payload: revokeBody })).statusCode).toBe(403);
    const unknownUser = await t.app.inject({ method: 'POST', url: '/api/users/giveAccess', headers: admin.auth, payload: { ...payload, user_id: 999_999 } });
    expect(unknownUser.statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'POST', url: '/api/users/giveAccess', headers: admin.auth, payload: { ...payload, product_id: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'PUT', url: '/api/users/revokeAccess', headers: admin.auth, payload: { purchase_id: 999_999 } })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/users', headers: customer.auth })).json().has_access).toBe(false);
  });

  it('a manager gives access too (audited); a customer cannot', async () => {
    const manager = await buildUser(t.ctx, { staffRole: 'manager' });
    const customer = await buildUser(t.ctx);
    const res = await t.app.inject({ method: 'POST', url: '/api/users/giveAccess', headers: manager.auth, payload: { user_id: customer.user.userId, product_id: starterId, gift: true } });
    expect(res.statusCode).toBe(201);
    expect((await t.app.inject({ url: '/api/users', headers: customer.auth })).json().has_access).toBe(true);
    const audit = await t.ctx.db.select().from(auditLog).where(eq(auditLog.actorUserId, manager.user.userId));
    expect(audit).toMatchObject([{ action: 'POST /api/users/giveAccess', targetType: 'user', targetId: String(customer.user.userId) }]);
  });

  it('extends access: more days from the expiry (or from now once past), audited; only the customer\'s own purchase that gives or gave access', async () => {
    const manager = await buildUser(t.ctx, { staffRole: 'manager' });
    const customer = await buildUser(t.ctx);
    const given = (await t.app.inject({ method: 'POST', url: '/api/users/giveAccess', headers: manager.auth, payload: { user_id: customer.user.userId, product_id: starterId, gift: true } })).json();
    const before = Date.parse((await t.app.inject({ url: '/api/users', headers: customer.auth })).json().purchase.expires_at);
    const extend = await t.app.inject({ method: 'POST', url: '/api/users/giveAccess', headers: manager.auth, payload: { user_id: customer.user.userId, purchase_id: given.purchase_id, expiration_days: 10 } });
    expect(extend.statusCode).toBe(200);
    expect(extend.json()).toMatchObject({ purchase_id: given.purchase_id, expiration_days: 40 });
    const after = Date.parse((await t.app.inject({ url: '/api/users', headers: customer.auth })).json().purchase.expires_at);
    expect(after - before).toBe(10 * 86_400_000);
    const [audit] = await t.ctx.db.select().from(auditLog).where(eq(auditLog.actorUserId, manager.user.userId)).orderBy(desc(auditLog.auditId)).limit(1);
    expect(JSON.parse(audit.details!)).toMatchObject({ purchase_id: given.purchase_id, extended_days: 10, changes: { expiration_days: { from: 30, to: 40 } } });

    // Past its expiry: counted from now, and access comes back.
    const old = new Date(Date.now() - 100 * 86_400_000);
    await t.ctx.db.update(purchases).set({ createdAt: old }).where(eq(purchases.purchaseId, given.purchase_id));
    expect((await t.app.inject({ url: '/api/users', headers: customer.auth })).json().has_access).toBe(false);
    const revived = await t.app.inject({ method: 'POST', url: '/api/users/giveAccess', headers: manager.auth, payload: { user_id: customer.user.userId, purchase_id: given.purchase_id, expiration_days: 5 } });
    // 100 days since it was made plus 5, rounded up to whole days.
    expect(revived.json().expiration_days).toBe(106);
    expect((await t.app.inject({ url: '/api/users', headers: customer.auth })).json().has_access).toBe(true);

    // Another customer's purchase is a 404; a revoked one is a 409; bad days are a 400.
    const other = await buildUser(t.ctx);
    expect((await t.app.inject({ method: 'POST', url: '/api/users/giveAccess', headers: manager.auth, payload: { user_id: other.user.userId, purchase_id: given.purchase_id, expiration_days: 5 } })).statusCode).toBe(404);
    await t.ctx.db.update(purchases).set({ status: 'revoked' }).where(eq(purchases.purchaseId, given.purchase_id));
    const revoked = await t.app.inject({ method: 'POST', url: '/api/users/giveAccess', headers: manager.auth, payload: { user_id: customer.user.userId, purchase_id: given.purchase_id, expiration_days: 5 } });
    expect(revoked.statusCode).toBe(409);
    expect(revoked.json().error).toBe('conflict');
    const bad = await t.app.inject({ method: 'POST', url: '/api/users/giveAccess', headers: { ...manager.auth, 'accept-language': 'es' }, payload: { user_id: customer.user.userId, purchase_id: given.purchase_id, expiration_days: 0 } });
    expect(bad.statusCode).toBe(400);
  });
});
