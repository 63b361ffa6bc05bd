// Staff actions are audited with their target — taken from the path or the body — and a small diff where
// it matters (DESIGN.md §3; issue "Groundwork" item 4). Through the real app and database.
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, products } from '../../db/schema';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

describe('audit targets', () => {
  let t: TestApp;
  let admin: BuiltUser;
  let manager: BuiltUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await buildUser(t.ctx, { staffRole: 'admin' });
    manager = await buildUser(t.ctx, { staffRole: 'manager' });
  });
  afterAll(() => t.close());

  const lastAudit = async () => {
    const [row] = await t.ctx.db.select().from(auditLog).orderBy(desc(auditLog.auditId)).limit(1);
    return { ...row, details: row.details ? JSON.parse(row.details) : null };
  };

  it('a grant names the user from the body, with the purchase it made and the access it gave', async () => {
    const customer = await buildUser(t.ctx);
    const [product] = await t.ctx.db.insert(products).values({ name: 'Audit plan', price: 10, wordAmount: 100, expirationDays: 30 }).returning();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/giveAccess',
      headers: admin.auth,
      payload: { user_id: customer.user.userId, product_id: product.productId, gift: true },
    });
    expect(res.statusCode).toBe(201);
    const row = await lastAudit();
    expect(row).toMatchObject({ actorUserId: admin.user.userId, action: 'POST /api/users/giveAccess', targetType: 'user', targetId: String(customer.user.userId) });
    expect(row.details).toEqual({
      purchase_id: res.json().purchase_id,
      product_id: product.productId,
      gift: true,
      changes: { access: { from: null, to: 'completed' } },
    });

    const revoke = await t.app.inject({ method: 'PUT', url: '/api/users/revokeAccess', headers: admin.auth, payload: { purchase_id: res.json().purchase_id } });
    expect(revoke.statusCode).toBe(200);
    expect(await lastAudit()).toMatchObject({
      action: 'PUT /api/users/revokeAccess',
      targetType: 'purchase',
      targetId: String(res.json().purchase_id),
      details: { user_id: customer.user.userId, changes: { status: { from: 'completed', to: 'revoked' } } },
    });
  });

  it('a reset link handed to staff names the user it is for, found by email', async () => {
    const customer = await buildUser(t.ctx);
    const res = await t.app.inject({ method: 'POST', url: '/api/users/resetPasswordLink', headers: manager.auth, payload: { email: customer.user.email } });
    expect(res.statusCode).toBe(200);
    expect(await lastAudit()).toMatchObject({ actorUserId: manager.user.userId, targetType: 'user', targetId: String(customer.user.userId) });
  });

  it('revealing a secret setting names the key, never the value', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/appconfig/admin/reveal', headers: admin.auth, payload: { key: 'openai_secret_key' } });
    expect(res.statusCode).toBe(200);
    const row = await lastAudit();
    expect(row).toMatchObject({ action: 'POST /api/appconfig/admin/reveal', targetType: 'config', targetId: 'openai_secret_key', details: { key: 'openai_secret_key' } });
  });

  it('refused and failed staff calls leave no row', async () => {
    const before = await t.ctx.db.select().from(auditLog);
    const customer = await buildUser(t.ctx);
    expect((await t.app.inject({ method: 'PUT', url: '/api/users/revokeAccess', headers: customer.auth, payload: { purchase_id: 1 } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: '/api/users/revokeAccess', headers: admin.auth, payload: { purchase_id: 2_000_000_000 } })).statusCode).toBe(404);
    expect(await t.ctx.db.select().from(auditLog)).toHaveLength(before.length);
    expect(await t.ctx.db.select().from(auditLog).where(eq(auditLog.actorUserId, customer.user.userId))).toEqual([]);
  });
});
