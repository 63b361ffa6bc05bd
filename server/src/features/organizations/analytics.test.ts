// An organization's analytics through the real app and database (spec part 2 §2 "Organization analytics",
// §3 "Analytics rows"): only this organization's sign-ups and sales count, in the date range.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, userOrganizations } from '../../db/schema';
import { buildOrganization, buildProduct, buildPurchase, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

describe('organization analytics API', () => {
  let t: TestApp;
  let admin: BuiltUser;
  let member: BuiltUser;
  let leaver: BuiltUser;
  let organizationId: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await buildUser(t.ctx);
    member = await buildUser(t.ctx, { name: 'Mia' });
    leaver = await buildUser(t.ctx, { name: 'Leo' });
    organizationId = (
      await buildOrganization(t.ctx, [
        { user: admin, role: 'admin' },
        { user: member, role: 'member' },
        { user: leaver, role: 'member' },
      ])
    ).organizationId;
  });
  afterAll(async () => t.close());

  it('counts sign-ups, active and cancelled customers, purchases by product and months of this organization only', async () => {
    // Joined in March 2025 (the admin), the others in the current month.
    await t.ctx.db.update(userOrganizations).set({ createdAt: new Date('2025-03-10T12:00:00Z') }).where(and(eq(userOrganizations.userId, admin.user.userId), eq(userOrganizations.organizationId, organizationId)));
    const seats = await buildProduct(t.ctx, { organizationId, name: 'Seats' });
    const extra = await buildProduct(t.ctx, { organizationId, name: 'Extra' });
    const personal = await buildProduct(t.ctx, { name: 'Personal plan' });
    const march = new Date('2025-03-15T12:00:00Z');
    const april = new Date('2025-04-02T12:00:00Z');
    await buildPurchase(t.ctx, { userId: member.user.userId, productId: seats.productId, organizationId, totalPayment: 30, createdAt: march });
    await buildPurchase(t.ctx, { userId: member.user.userId, productId: extra.productId, organizationId, totalPayment: 10, status: 'completed', createdAt: april });
    await buildPurchase(t.ctx, {
      userId: leaver.user.userId,
      productId: seats.productId,
      organizationId,
      totalPayment: 30,
      status: 'cancelled',
      cancelReason: 'Our team got smaller this year',
      cancelledAt: april,
      createdAt: march,
    });
    await buildPurchase(t.ctx, { userId: member.user.userId, productId: seats.productId, organizationId, totalPayment: 30, status: 'pending', createdAt: march });
    // Not the organization's: a Personal purchase of a member.
    await buildPurchase(t.ctx, { userId: member.user.userId, productId: personal.productId, totalPayment: 99, createdAt: march });
    await t.ctx.db.insert(creditLedger).values({ userId: member.user.userId, words: -75, balanceAfter: 0, sourceType: 'message', sourceId: `a-${member.user.userId}`, createdAt: march });

    const res = await t.app.inject({ method: 'GET', url: `/api/organizations/${organizationId}/analytics?start_date=2025-03-01&end_date=2025-04-30`, headers: admin.auth });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.signups).toMatchObject({ count: 1, users: [{ user_id: admin.user.userId }] });
    expect(body.active).toMatchObject({ count: 1, users: [{ user_id: member.user.userId, used_words: 75, date: april.toISOString() }] });
    expect(body.cancelled).toMatchObject({ count: 1, users: [{ user_id: leaver.user.userId, cancel_reason: 'Our team got smaller this year' }] });
    expect(body.products).toEqual([
      { product_id: seats.productId, name: 'Seats', purchases: 2, total_paid: 60 },
      { product_id: extra.productId, name: 'Extra', purchases: 1, total_paid: 10 },
    ]);
    expect(body.total_paid).toBe(70);
    expect(body.months).toEqual([
      { month: '2025-03', signups: 1, total: 2, total_paid: 60 },
      { month: '2025-04', signups: 0, total: 1, total_paid: 10 },
    ]);

    // The default range is the current month: none of the above; the members who joined now.
    const now = (await t.app.inject({ method: 'GET', url: `/api/organizations/${organizationId}/analytics`, headers: admin.auth })).json();
    expect(now).toMatchObject({ signups: { count: 2 }, active: { count: 0 }, cancelled: { count: 0 }, products: [], total_paid: 0 });
    expect((await t.app.inject({ method: 'GET', url: `/api/organizations/${organizationId}/analytics`, headers: member.auth })).statusCode).toBe(403);
  });
});
