// Back-office analytics through the real app (spec part 1 §2, §3 "Analytics results", §7 GET /analytics/*,
// §9 default range the current month): staff only (managers read), the figures over a seeded range, the
// counters' lists, AI usage per model from the credits ledger, and the spec's routes Pluma has no use for (404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, invoices, messages, conversations, paymentMethods } from '../../db/schema';
import { buildProduct, buildPurchase, buildStaffCast, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

const ROUTES = ['income', 'customers', 'purchases', 'words', 'monthly', 'free_trials', 'ai_usage'];
const RANGE = 'start_date=2025-03-01&end_date=2025-03-31';
const at = (day: number, hour = 12) => new Date(Date.UTC(2025, 2, day, hour));

describe('analytics', () => {
  let t: TestApp;
  let admin: BuiltUser;
  let manager: BuiltUser;
  let customer: BuiltUser;

  beforeAll(async () => {
    t = await createTestApp();
    ({ admin, manager, customer } = await buildStaffCast(t.ctx));
  });
  afterAll(() => t.close());

  const get = (who: BuiltUser | null, url: string) => t.app.inject({ url: `/api/analytics/${url}`, headers: who ? who.auth : {} });

  it('every route: 401 signed out, 403 customers, 200 managers and admins; the default range is the current month', async () => {
    for (const route of ROUTES) {
      expect((await get(null, route)).statusCode, route).toBe(401);
      expect((await get(customer, route)).statusCode, route).toBe(403);
      expect((await get(manager, route)).statusCode, route).toBe(200);
      const res = await get(admin, route);
      expect(res.statusCode, route).toBe(200);
      const now = new Date();
      const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
      expect(res.json().start_date, route).toBe(`${month}-01`);
      expect(res.json().end_date.startsWith(month), route).toBe(true);
      expect((await get(admin, `${route}?start_date=2025-02-30`)).statusCode, route).toBe(400);
    }
  });

  it("answers 404 for the spec's reservations, instructors and videos (no meaning in Pluma)", async () => {
    for (const route of ['reservations', 'instructors', 'instructors/report', 'videos']) {
      expect((await get(admin, route)).statusCode, route).toBe(404);
    }
  });

  it('counts income per payment method, purchases per product, customers, free trials, words and AI usage in the range', async () => {
    const [card] = await t.ctx.db.insert(paymentMethods).values({ name: 'card-test' }).returning();
    const [paypal] = await t.ctx.db.insert(paymentMethods).values({ name: 'paypal-test' }).returning();
    const alice = await buildUser(t.ctx, { name: 'Alice', createdAt: at(2) });
    const bob = await buildUser(t.ctx, { name: 'Bob', createdAt: at(3) });
    await buildUser(t.ctx, { name: 'Outside', createdAt: new Date(Date.UTC(2025, 3, 1, 0, 0, 1)) });
    const basic = await buildProduct(t.ctx, { name: 'Basic' });
    const pro = await buildProduct(t.ctx, { name: 'Pro' });
    const p1 = await buildPurchase(t.ctx, { userId: alice.user.userId, productId: basic.productId, status: 'completed', totalPayment: 10, createdAt: at(4) });
    await buildPurchase(t.ctx, { userId: bob.user.userId, productId: pro.productId, status: 'active', totalPayment: 30, freeTrialLength: 7, createdAt: at(5) });
    await buildPurchase(t.ctx, { userId: bob.user.userId, productId: pro.productId, status: 'cancelled', totalPayment: 30, cancelReason: 'Too pricey now', cancelledAt: at(20), createdAt: at(6) });
    await buildPurchase(t.ctx, { userId: alice.user.userId, productId: pro.productId, status: 'pending', totalPayment: 30, createdAt: at(7) });
    await buildPurchase(t.ctx, { userId: alice.user.userId, productId: pro.productId, status: 'completed', totalPayment: 99, createdAt: new Date(Date.UTC(2025, 1, 28)) });
    await t.ctx.db.insert(invoices).values([
      { purchaseId: p1.purchaseId, userId: alice.user.userId, status: 'completed', amount: 10, totalPayment: 10, paymentMethodId: card.paymentMethodId, createdAt: at(4) },
      { userId: bob.user.userId, status: 'succeeded', amount: 30, totalPayment: 30, paymentMethodId: paypal.paymentMethodId, createdAt: at(5) },
      { userId: bob.user.userId, status: 'completed', amount: 30.5, totalPayment: 30.5, paymentMethodId: card.paymentMethodId, createdAt: at(31, 23) },
      { userId: bob.user.userId, status: 'failed', amount: 30, totalPayment: 30, paymentMethodId: card.paymentMethodId, createdAt: at(6) },
    ]);
    const [conversation] = await t.ctx.db.insert(conversations).values({ userId: alice.user.userId, name: 'Usage' }).returning();
    const [m1] = await t.ctx.db.insert(messages).values({ conversationId: conversation.conversationId, userId: alice.user.userId, role: 'assistant', model: 'gpt-4o', content: 'x' }).returning();
    const [m2] = await t.ctx.db.insert(messages).values({ conversationId: conversation.conversationId, userId: alice.user.userId, role: 'assistant', model: 'claude-3', content: 'y' }).returning();
    await t.ctx.db.insert(creditLedger).values([
      { userId: alice.user.userId, words: -100, balanceAfter: 900, sourceType: 'message', sourceId: String(m1.messageId), createdAt: at(8) },
      { userId: alice.user.userId, words: -50, balanceAfter: 850, sourceType: 'message', sourceId: `${m1.messageId}:continue:1`, createdAt: at(8, 13) },
      { userId: alice.user.userId, words: -20, balanceAfter: 830, sourceType: 'message', sourceId: String(m2.messageId), createdAt: at(9) },
      { userId: alice.user.userId, words: -7, balanceAfter: 823, sourceType: 'enhance', sourceId: 'enh-abc', createdAt: at(9) },
      { userId: alice.user.userId, words: 5000, balanceAfter: 5823, sourceType: 'purchase', sourceId: `test-${p1.purchaseId}`, createdAt: at(9) },
    ]);

    const income = (await get(manager, `income?${RANGE}`)).json();
    expect(income).toMatchObject({ income: 70.5, payments: 3, gross_income: 70.5, excluded: { count: 0, total: 0 } });
    expect(income.payment_methods).toEqual([
      { payment_method_id: card.paymentMethodId, name: 'card-test', payments: 2, total: 40.5 },
      { payment_method_id: paypal.paymentMethodId, name: 'paypal-test', payments: 1, total: 30 },
    ]);

    const bought = (await get(admin, `purchases?${RANGE}`)).json();
    expect(bought).toMatchObject({ purchases: 3, total: 70, revoked: { count: 0, total: 0 } });
    expect(bought.products).toEqual([
      { product_id: pro.productId, name: 'Pro', purchases: 2, total: 60 },
      { product_id: basic.productId, name: 'Basic', purchases: 1, total: 10 },
    ]);

    const customers = (await get(admin, `customers?${RANGE}`)).json();
    expect(customers).toMatchObject({ signups: 2, customers: 2, cancelled: 1, list: null });
    const signups = (await get(admin, `customers?${RANGE}&list=signups`)).json().list;
    expect(signups).toMatchObject({ kind: 'signups', total: 2, page: 1 });
    expect(signups.rows.map((r: { name: string }) => r.name)).toEqual(['Bob', 'Alice']);
    const cancelled = (await get(admin, `customers?${RANGE}&list=cancelled`)).json().list;
    expect(cancelled.rows).toEqual([expect.objectContaining({ user_id: bob.user.userId, email: bob.user.email, date: at(20).toISOString() })]);

    expect((await get(admin, `free_trials?${RANGE}`)).json()).toMatchObject({ free_trials: 1, products: [{ product_id: pro.productId, name: 'Pro', free_trials: 1 }] });

    const words = (await get(admin, `words?${RANGE}`)).json();
    expect(words).toMatchObject({ words: 177, days: [{ date: '2025-03-08', words: 150 }, { date: '2025-03-09', words: 27 }] });

    const usage = (await get(admin, `ai_usage?${RANGE}`)).json();
    expect(usage).toMatchObject({ words: 177, messages: 4 });
    expect(usage.models).toEqual([
      { model: 'gpt-4o', words: 150, messages: 2 },
      { model: 'claude-3', words: 20, messages: 1 },
      { model: 'enhance', words: 7, messages: 1 },
    ]);
    expect(usage.days).toContainEqual({ date: '2025-03-08', model: 'gpt-4o', words: 150, messages: 2 });

    const monthly = (await get(admin, 'monthly?start_date=2025-02-01&end_date=2025-03-31')).json();
    expect(monthly.months).toEqual([
      { month: '2025-02', income: 0, payments: 0, signups: 0, purchases: 1 },
      { month: '2025-03', income: 70.5, payments: 3, signups: 2, purchases: 3 },
    ]);
  });

  it('Income and Products agree on one definition: payments of purchases no longer bought (revoked, pending, failed, expired) are not income', async () => {
    const may = (day: number) => new Date(Date.UTC(2025, 4, day, 12));
    const [card] = await t.ctx.db.insert(paymentMethods).values({ name: 'card-net' }).returning();
    const buyer = await buildUser(t.ctx, { name: 'Net', createdAt: may(1) });
    const starter = await buildProduct(t.ctx, { name: 'Starter', price: 19 });
    const pro = await buildProduct(t.ctx, { name: 'Pro', price: 49 });
    // Every status, each paid (a completed invoice of its price the same day); 'failed' and 'expired' are
    // the lifecycle's new statuses: any status but active, completed and cancelled is not income.
    const statuses = [
      ['active', pro],
      ['completed', starter],
      ['cancelled', pro],
      ['revoked', starter],
      ['pending', pro],
      ['failed', pro],
      ['expired', pro],
    ] as const;
    for (const [i, [status, product]] of statuses.entries()) {
      const purchase = await buildPurchase(t.ctx, {
        userId: buyer.user.userId,
        productId: product.productId,
        status,
        totalPayment: product.price,
        createdAt: may(2 + i),
        ...(status === 'cancelled' ? { cancelReason: 'Too pricey now', cancelledAt: may(20) } : {}),
      });
      await t.ctx.db.insert(invoices).values({ purchaseId: purchase.purchaseId, userId: buyer.user.userId, status: 'completed', amount: product.price, totalPayment: product.price, paymentMethodId: card.paymentMethodId, createdAt: may(2 + i) });
    }
    const range = 'start_date=2025-05-01&end_date=2025-05-31';
    const income = (await get(admin, `income?${range}`)).json();
    const bought = (await get(admin, `purchases?${range}`)).json();
    // Gross: every payment received; net: those of active, completed and cancelled purchases.
    expect(income).toMatchObject({ income: 117, payments: 3, gross_income: 19 + 49 * 5 + 19, excluded: { count: 4, total: 166 } });
    expect(income.payment_methods).toEqual([{ payment_method_id: card.paymentMethodId, name: 'card-net', payments: 3, total: 117 }]);
    expect(bought).toMatchObject({ purchases: 3, total: 117, revoked: { count: 1, total: 19 } });
    expect(bought.products).toEqual([
      { product_id: pro.productId, name: 'Pro', purchases: 2, total: 98 },
      { product_id: starter.productId, name: 'Starter', purchases: 1, total: 19 },
    ]);
    expect((await get(admin, `monthly?${range}`)).json().months).toEqual([{ month: '2025-05', income: 117, payments: 3, signups: 1, purchases: 3 }]);
  });
});
