// The per-day summaries of migration 0011 (daily_signups, daily_purchase_figures, daily_invoice_figures),
// which analytics and the back-office counts read (docs/decisions.md "Back-office at scale"): after every
// kind of write — inserts, status changes (an admin's edit, a payment failing after it was paid), totals,
// products, payment methods, moved dates, deletions and a customer's deletion cascading — they equal a
// recount of the tables, and the analytics answers follow.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, paymentMethods, purchases, users } from '../../db/schema';
import { buildProduct, buildPurchase, buildStaffCast, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

const RANGE = 'start_date=2024-06-01&end_date=2024-06-30';
const at = (day: number, hour = 12) => new Date(Date.UTC(2024, 5, day, hour));

describe('daily figures', () => {
  let t: TestApp;
  let admin: BuiltUser;

  beforeAll(async () => {
    t = await createTestApp();
    ({ admin } = await buildStaffCast(t.ctx));
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ url: `/api/analytics/${url}`, headers: admin.auth });
  const rows = async (query: ReturnType<typeof sql>) => ((await t.ctx.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
  const normalized = (list: Record<string, unknown>[]) => list.map((r) => Object.values(r).map((v) => (v == null ? null : String(v))).join('|')).sort();

  /** The summaries (rows left at zero dropped) against the same sums taken from the tables now. */
  async function expectSummariesMatchTables() {
    const signups = await rows(sql`select day::text, signups from daily_signups where signups <> 0`);
    const signupsNow = await rows(sql`select ((created_at at time zone 'UTC')::date)::text as day, count(*) as signups from users group by 1`);
    expect(normalized(signups)).toEqual(normalized(signupsNow));
    const bought = await rows(sql`select day::text, product_id, status, purchases, total::numeric(16,2) from daily_purchase_figures where purchases <> 0 or total <> 0`);
    const boughtNow = await rows(sql`select ((created_at at time zone 'UTC')::date)::text, product_id, status, count(*), sum(total_payment)::numeric(16,2)
      from purchases group by 1, 2, 3`);
    expect(normalized(bought)).toEqual(normalized(boughtNow));
    const paid = await rows(sql`select day::text, payment_method_id, status, invoices, total::numeric(16,2) from daily_invoice_figures where invoices <> 0 or total <> 0`);
    const paidNow = await rows(sql`select ((created_at at time zone 'UTC')::date)::text, payment_method_id, status, count(*), sum(total_payment)::numeric(16,2)
      from invoices group by 1, 2, 3`);
    expect(normalized(paid)).toEqual(normalized(paidNow));
  }

  it('start equal to the tables (the migration backfilled what the staff cast wrote)', async () => {
    await expectSummariesMatchTables();
  });

  it('follow inserts, edits, moves and deletions; analytics reads them', async () => {
    const [card] = await t.ctx.db.insert(paymentMethods).values({ name: 'card-daily' }).returning();
    const ana = await buildUser(t.ctx, { name: 'Ana', createdAt: at(2) });
    const leo = await buildUser(t.ctx, { name: 'Leo', createdAt: at(2, 23) });
    const gone = await buildUser(t.ctx, { name: 'Gone', createdAt: at(3) });
    const basic = await buildProduct(t.ctx, { name: 'Daily basic' });
    const pro = await buildProduct(t.ctx, { name: 'Daily pro' });
    const p1 = await buildPurchase(t.ctx, { userId: ana.user.userId, productId: basic.productId, status: 'pending', totalPayment: 10, createdAt: at(4) });
    const p2 = await buildPurchase(t.ctx, { userId: leo.user.userId, productId: pro.productId, status: 'active', totalPayment: 30, createdAt: at(5) });
    await buildPurchase(t.ctx, { userId: gone.user.userId, productId: pro.productId, status: 'completed', totalPayment: 30, createdAt: at(5) });
    const [i1] = await t.ctx.db
      .insert(invoices)
      .values([
        { purchaseId: p2.purchaseId, userId: leo.user.userId, status: 'completed', amount: 30, totalPayment: 30, paymentMethodId: card.paymentMethodId, createdAt: at(5) },
        { userId: gone.user.userId, status: 'completed', amount: 30, totalPayment: 30, paymentMethodId: card.paymentMethodId, createdAt: at(5) },
        { userId: ana.user.userId, status: 'succeeded', amount: 5, totalPayment: 5, createdAt: at(6) },
      ])
      .returning();
    await expectSummariesMatchTables();
    expect((await get(`income?${RANGE}`)).json()).toMatchObject({ income: 65, payments: 3 });
    expect((await get(`purchases?${RANGE}`)).json()).toMatchObject({ purchases: 2, total: 60 });
    expect((await get(`customers?${RANGE}`)).json()).toMatchObject({ signups: 3 });

    // The admin's edit activates the pending purchase (PUT /purchases/admin), a paid invoice fails afterwards
    // (PUT /invoices/admin), a total changes, a purchase moves to another day and product.
    const edit = await t.app.inject({ method: 'PUT', url: '/api/purchases/admin', headers: admin.auth, payload: { purchase_id: p1.purchaseId, status: 'active' } });
    expect(edit.statusCode).toBe(200);
    const failed = await t.app.inject({ method: 'PUT', url: '/api/invoices/admin', headers: admin.auth, payload: { invoice_id: i1.invoiceId, status: 'failed' } });
    expect(failed.statusCode).toBe(200);
    await t.ctx.db.update(purchases).set({ totalPayment: 45 }).where(eq(purchases.purchaseId, p2.purchaseId));
    await t.ctx.db.update(purchases).set({ createdAt: at(20), productId: pro.productId }).where(eq(purchases.purchaseId, p1.purchaseId));
    await t.ctx.db.update(invoices).set({ paymentMethodId: null, createdAt: new Date(Date.UTC(2024, 6, 1)) }).where(eq(invoices.userId, gone.user.userId));
    await t.ctx.db.update(users).set({ createdAt: at(25) }).where(eq(users.userId, leo.user.userId));
    await expectSummariesMatchTables();
    const income = (await get(`income?${RANGE}`)).json();
    expect(income).toMatchObject({ income: 5, payments: 1 });
    // A payment method left with no paid invoice in the range is no row (its summary row stays at 0).
    expect(income.payment_methods).toEqual([{ payment_method_id: null, name: null, payments: 1, total: 5 }]);
    expect((await get(`purchases?${RANGE}`)).json().products).toEqual([{ product_id: pro.productId, name: 'Daily pro', purchases: 3, total: 85 }]);
    const monthly = (await get('monthly?start_date=2024-06-01&end_date=2024-07-31')).json();
    expect(monthly.months).toEqual([
      { month: '2024-06', income: 5, payments: 1, signups: 3, purchases: 3 },
      { month: '2024-07', income: 30, payments: 1, signups: 0, purchases: 0 },
    ]);

    // Deleting a customer cascades to their purchases and invoices; deleting a purchase leaves its invoices.
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/users/admin/${gone.user.userId}`, headers: admin.auth });
    expect(removed.statusCode).toBe(204);
    await t.ctx.db.delete(purchases).where(eq(purchases.purchaseId, p2.purchaseId));
    await expectSummariesMatchTables();
    expect((await get(`customers?${RANGE}`)).json()).toMatchObject({ signups: 2 });
    expect((await get(`purchases?${RANGE}`)).json()).toMatchObject({ purchases: 1, total: 10, products: [{ product_id: pro.productId, purchases: 1, total: 10 }] });
    expect((await get('monthly?start_date=2024-07-01&end_date=2024-07-31')).json().months).toEqual([]);
  });

  it('pluma_backfill_daily_figures() rebuilds them from the tables', async () => {
    await t.ctx.db.execute(sql`update daily_signups set signups = signups + 7`);
    await t.ctx.db.execute(sql`delete from daily_purchase_figures`);
    await t.ctx.db.execute(sql`select pluma_backfill_daily_figures()`);
    await expectSummariesMatchTables();
  });
});
