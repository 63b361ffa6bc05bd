import { UNLIMITED_WORDS } from '@pluma/common/constants';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, creditLedger } from '../../db/schema';
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
    expect((await t.app.inject({ method: 'POST', url: '/api/users/giveAccess', headers: manager.auth, payload })).statusCode).toBe(403);
    const unknownUser = await t.app.inject({ method: 'POST', url: '/api/users/giveAccess', headers: admin.auth, payload: { ...payload, user_id: 999_999 } });
    expect(unknownUser.statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'POST', url: '/api/users/giveAccess', headers: admin.auth, payload: { ...payload, product_id: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'PUT', url: '/api/users/revokeAccess', headers: admin.auth, payload: { purchase_id: 999_999 } })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/users', headers: customer.auth })).json().has_access).toBe(false);
  });
});
