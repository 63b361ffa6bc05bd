// The /admin table's totals as migration 0011 gives them (docs/decisions.md "Back-office at scale"): without a
// search, exact from the per-day summaries for every status tab, type and product, and still exact after an
// admin's edit; with a search (or invoices of a product), counted only as far as the page buttons reach from
// the current page, said by total_capped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, purchases } from '../../db/schema';
import { buildProduct, buildStaffCast, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

const RANGE = 'start_date=2016-08-01&end_date=2016-08-31';
const at = (day: number, minute = 0) => new Date(Date.UTC(2016, 7, day, 12, minute));

describe('/admin totals', () => {
  let t: TestApp;
  let admin: BuiltUser;
  let manager: BuiltUser;

  beforeAll(async () => {
    t = await createTestApp();
    ({ admin, manager } = await buildStaffCast(t.ctx));
  });
  afterAll(() => t.close());

  const list = async (who: BuiltUser, query: string) => {
    const range = query.includes('start_date') ? '' : `${RANGE}&`;
    const res = await t.app.inject({ url: `/api/purchases/admin?${range}${query}`, headers: who.auth });
    expect(res.statusCode, query).toBe(200);
    return res.json() as { rows: { type: string; purchase_id: number | null }[]; total: number; total_capped: boolean };
  };

  it('counts each tab, type and product exactly without a search, before and after an edit', async () => {
    const buyer = await buildUser(t.ctx, { name: 'Counted', lastName: 'Buyer' });
    const basic = await buildProduct(t.ctx, { name: 'Count basic' });
    const pro = await buildProduct(t.ctx, { name: 'Count pro' });
    const statuses = ['active', 'completed', 'pending', 'failed', 'cancelled', 'revoked', 'active'];
    const made = await t.ctx.db
      .insert(purchases)
      .values(statuses.map((status, i) => ({ userId: buyer.user.userId, productId: i % 2 ? pro.productId : basic.productId, status, totalPayment: 10, createdAt: at(2 + i) })))
      .returning();
    await t.ctx.db.insert(invoices).values([
      { purchaseId: made[0].purchaseId, userId: buyer.user.userId, status: 'completed', totalPayment: 10, createdAt: at(2, 1) },
      { purchaseId: made[1].purchaseId, userId: buyer.user.userId, status: 'pending', totalPayment: 10, createdAt: at(3, 1) },
      { purchaseId: made[3].purchaseId, userId: buyer.user.userId, status: 'failed', totalPayment: 10, createdAt: at(5, 1) },
      // Outside the range (the next month's first second): never counted.
      { purchaseId: made[3].purchaseId, userId: buyer.user.userId, status: 'failed', totalPayment: 10, createdAt: new Date(Date.UTC(2016, 8, 1)) },
    ]);

    const all = await list(manager, 'page=1');
    expect(all).toMatchObject({ total: 10, total_capped: false });
    expect((await list(admin, 'status=successful')).total).toBe(4); // active ×2, completed; the completed invoice
    expect((await list(admin, 'status=failed')).total).toBe(3); // failed, cancelled; the failed invoice
    expect((await list(admin, 'status=pending')).total).toBe(2);
    expect((await list(admin, 'type=purchases')).total).toBe(7);
    expect((await list(admin, 'type=invoices&status=failed')).total).toBe(1);
    expect((await list(admin, `type=purchases&product_id=${pro.productId}`)).total).toBe(3);
    expect((await list(admin, `type=purchases&status=successful&product_id=${basic.productId}`)).total).toBe(2);
    // Invoices of a product go by their purchase's product (counted, not summed): made[1] and made[3] are Pro.
    expect(await list(admin, `product_id=${pro.productId}`)).toMatchObject({ total: 5, total_capped: false });
    expect((await list(admin, 'start_date=2016-08-02&end_date=2016-08-02')).total).toBe(2);

    // The admin's edit moves a record between tabs; the totals follow.
    const edit = await t.app.inject({ method: 'PUT', url: '/api/purchases/admin', headers: admin.auth, payload: { purchase_id: made[2].purchaseId, status: 'active' } });
    expect(edit.statusCode).toBe(200);
    expect((await list(admin, 'status=pending')).total).toBe(1);
    expect((await list(admin, 'status=successful')).total).toBe(5);
    expect((await list(admin, 'page=1')).total).toBe(10);
  });

  it('counts a search as far as the page buttons reach: "more than" past it, exact under it', async () => {
    const tag = `cap${Date.now().toString(36)}`;
    const many = await buildUser(t.ctx, { name: 'Many', lastName: tag });
    const product = await buildProduct(t.ctx, { name: `Plan ${tag}` });
    await t.ctx.db
      .insert(purchases)
      .values(Array.from({ length: 75 }, (_, i) => ({ userId: many.user.userId, productId: product.productId, status: 'active', totalPayment: 1, createdAt: at(10 + (i % 15), i) })));

    // Page 1 reaches page 5: 60 records (12 a page); 75 match.
    const first = await list(admin, `query=${tag}&type=purchases`);
    expect(first).toMatchObject({ total: 60, total_capped: true });
    expect(first.rows).toHaveLength(12);
    // From page 3 the buttons reach page 7 (84): all 75 are counted.
    const third = await list(admin, `query=${tag}&type=purchases&page=3`);
    expect(third).toMatchObject({ total: 75, total_capped: false });
    // By the customer's email, by the product, under the cap: exact.
    expect(await list(admin, `query=${encodeURIComponent(many.user.email)}&type=purchases&page=2`)).toMatchObject({ total: 72, total_capped: true });
    expect(await list(admin, `query=${tag}&type=purchases&page=4`)).toMatchObject({ total: 75, total_capped: false });
    expect(await list(admin, `query=nothing-matches-${tag}`)).toMatchObject({ total: 0, total_capped: false, rows: [] });
    // A page that is not full tells the total by itself (72 before it, 3 on it); past the end, counted.
    const last = await list(admin, `query=${tag}&type=purchases&page=7`);
    expect(last).toMatchObject({ total: 75, total_capped: false });
    expect(last.rows).toHaveLength(3);
    expect(await list(admin, `query=${tag}&type=purchases&page=9`)).toMatchObject({ total: 75, total_capped: false, rows: [] });
  });
});
