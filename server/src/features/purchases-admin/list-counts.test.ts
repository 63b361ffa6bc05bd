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
  it('counts a search over purchases and invoices together: the sum up to the cap, "more than" past it', async () => {
    const RANGE_B = 'start_date=2016-09-01&end_date=2016-09-30';
    const inSeptember = (day: number, minute: number) => new Date(Date.UTC(2016, 8, day, 12, minute));
    const tag = `both${Date.now().toString(36)}`;
    const customer = await buildUser(t.ctx, { name: 'Both', lastName: tag });
    const other = await buildUser(t.ctx, { name: 'Other', lastName: `x${Date.now().toString(36)}` });
    const product = await buildProduct(t.ctx, { name: `Plan b${Date.now().toString(36)}` });
    // 40 purchases and 30 invoices of the customer searched, interleaved in time; others' records between them.
    const made = await t.ctx.db
      .insert(purchases)
      .values(Array.from({ length: 40 }, (_, i) => ({ userId: customer.user.userId, productId: product.productId, status: 'active', totalPayment: 1, createdAt: inSeptember(1 + (i % 20), i) })))
      .returning();
    await t.ctx.db
      .insert(invoices)
      .values(made.slice(0, 30).map((p, i) => ({ purchaseId: p.purchaseId, userId: customer.user.userId, status: 'paid', totalPayment: 1, createdAt: inSeptember(2 + (i % 20), i) })));
    await t.ctx.db
      .insert(purchases)
      .values(Array.from({ length: 20 }, (_, i) => ({ userId: other.user.userId, productId: product.productId, status: 'active', totalPayment: 1, createdAt: inSeptember(1 + i, 30) })));
    const search = (extra: string) => list(admin, `${RANGE_B}&query=${tag}${extra}`);

    // 70 match; page 1 reaches 60.
    const first = await search('');
    expect(first).toMatchObject({ total: 60, total_capped: true });
    expect(first.rows).toHaveLength(12);
    // Page 3 reaches 84: both halves counted exactly.
    expect(await search('&page=3')).toMatchObject({ total: 70, total_capped: false });
    // Each half alone, as before.
    expect(await search('&type=purchases&page=2')).toMatchObject({ total: 40, total_capped: false });
    expect(await search('&type=invoices')).toMatchObject({ total: 30, total_capped: false });
    // The newest page is the newest records of both halves; the last page holds the rest (70 = 5 × 12 + 10).
    const last = await search('&page=6');
    expect(last).toMatchObject({ total: 70, total_capped: false });
    expect(last.rows).toHaveLength(10);
    // Staff only.
    const denied = await t.app.inject({ url: `/api/purchases/admin?${RANGE_B}&query=${tag}`, headers: customer.auth });
    expect(denied.statusCode).toBe(403);
  });
});
