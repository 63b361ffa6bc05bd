// The customers list as migration 0011 serves it (docs/decisions.md "Back-office at scale"): substring search
// through the pg_trgm indexes (any part of a name, email or phone; the first-name field never matches the
// last name), the count from the per-day sign-ups when nothing is searched (exact across deletions and moved
// dates), and a date range sorted by value, words or last use reading the range's rows first.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, users } from '../../db/schema';
import { buildProduct, buildPurchase, buildStaffCast, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

interface ListBody {
  users: { user_id: number; name: string; ltv: number; total_words: number; last_used: string | null }[];
  total: number;
}

describe('customers list at scale', () => {
  let t: TestApp;
  let admin: BuiltUser;

  beforeAll(async () => {
    t = await createTestApp();
    ({ admin } = await buildStaffCast(t.ctx));
  });
  afterAll(() => t.close());

  const list = async (query: string): Promise<ListBody> => {
    const res = await t.app.inject({ url: `/api/users/admin/all?${query}`, headers: admin.auth });
    expect(res.statusCode, query).toBe(200);
    return res.json();
  };
  const ids = (body: ListBody) => body.users.map((u) => u.user_id);

  it('finds any part of a name, an email or a phone; each field only in its column', async () => {
    const tag = `q${Date.now().toString(36)}`;
    const mariela = await buildUser(t.ctx, { name: 'Mariela', lastName: `Zubizarreta${tag}`, email: `mz.${tag}.inbox@example.org`, phone: '5213318842' });
    const other = await buildUser(t.ctx, { name: `Zubi${tag}`, lastName: 'Ortiz', email: `other.${tag}@example.org`, phone: '5550000000' });

    // The middle of a last name, across first and last name, the middle of an email, digits inside a phone.
    expect(ids(await list(`query=izarreta${tag}&field=all`))).toEqual([mariela.user.userId]);
    expect(ids(await list(`query=${encodeURIComponent(`ela Zubizarreta${tag}`)}&field=all`))).toEqual([mariela.user.userId]);
    expect(ids(await list(`query=${tag}.inbox&field=email`))).toEqual([mariela.user.userId]);
    expect(ids(await list('query=331-884&field=phone'))).toEqual([mariela.user.userId]);
    // Case and accents as ILIKE has them; a query of two letters (no trigram) still works.
    expect(ids(await list(`query=ZUBIZARRETA${tag.toUpperCase()}&field=last_name`))).toEqual([mariela.user.userId]);
    expect((await list('query=ri&field=name')).users.map((u) => u.name)).toContain('Mariela');
    // Fields: "Zubi<tag>" is one user's first name and part of the other's last name.
    expect(ids(await list(`query=Zubi${tag}&field=name`))).toEqual([other.user.userId]);
    expect(ids(await list(`query=zubi&field=last_name&sort=user_id&direction=asc`))).toContain(mariela.user.userId);
    expect(ids(await list(`query=zubi&field=last_name`))).not.toContain(other.user.userId);
    const both = await list(`query=zubi&field=all&sort=user_id&direction=asc`);
    expect(ids(both)).toEqual(expect.arrayContaining([mariela.user.userId, other.user.userId]));
    expect(both.total).toBe(both.users.length);
    // LIKE's wildcards are text: "%" matches no one here.
    expect((await list(`query=${encodeURIComponent(`${tag}%inbox`)}&field=email`)).total).toBe(0);
  });

  it('counts a date range from the daily sign-ups: exact after deletions and moved sign-up days', async () => {
    const day = (d: number) => new Date(Date.UTC(2019, 4, d, 12));
    const made: BuiltUser[] = [];
    for (const [i, d] of [1, 2, 2, 31].entries()) made.push(await buildUser(t.ctx, { name: `May${i}`, createdAt: day(d) }));
    const may = 'start_date=2019-05-01&end_date=2019-05-31';
    expect((await list(may)).total).toBe(4);
    expect((await list('start_date=2019-05-02&end_date=2019-05-02')).total).toBe(2);
    // The day ends at midnight UTC: one second after May 31 is June.
    await buildUser(t.ctx, { name: 'June', createdAt: new Date(Date.UTC(2019, 5, 1, 0, 0, 0)) });
    expect((await list(may)).total).toBe(4);
    expect((await list('start_date=2019-05-31')).total).toBeGreaterThanOrEqual(2);

    expect((await t.app.inject({ method: 'DELETE', url: `/api/users/admin/${made[0].user.userId}`, headers: admin.auth })).statusCode).toBe(204);
    await t.ctx.db.update(users).set({ createdAt: day(20) }).where(eq(users.userId, made[1].user.userId));
    expect((await list(may)).total).toBe(3);
    expect((await list('start_date=2019-05-02&end_date=2019-05-02')).total).toBe(1);
    expect((await list('start_date=2019-05-20&end_date=2019-05-20')).users.map((u) => u.name)).toEqual(['May1']);
    // All time: every user there is.
    const everyone = await t.ctx.db.$count(users);
    expect((await list('sort=ltv')).total).toBe(everyone);
  });

  it('sorts a date range by value, words and last use (the unused last), both ways, page by page', async () => {
    const day = (d: number) => new Date(Date.UTC(2018, 2, d, 12));
    const product = await buildProduct(t.ctx, { name: 'Range plan' });
    const values = [40, 0, 15, 99, 15];
    // One after the other: ids in this order (ties sort by id).
    const made: BuiltUser[] = [];
    for (const i of values.keys()) made.push(await buildUser(t.ctx, { name: `R${i}`, createdAt: day(i + 1), lastUsedAt: i % 2 === 0 ? day(28 - i) : null }));
    for (const [i, value] of values.entries()) {
      if (value > 0) await buildPurchase(t.ctx, { userId: made[i].user.userId, productId: product.productId, status: 'completed', totalPayment: value });
      await t.ctx.db.insert(creditLedger).values({ userId: made[i].user.userId, words: -(10 * (i + 1)), balanceAfter: 0, sourceType: 'message', sourceId: `range-${i}` });
    }
    // Someone outside the range with the highest value must not appear.
    const outside = await buildUser(t.ctx, { name: 'Outside', createdAt: new Date(Date.UTC(2018, 3, 1, 0, 0, 1)) });
    await buildPurchase(t.ctx, { userId: outside.user.userId, productId: product.productId, status: 'completed', totalPayment: 500 });
    const range = 'start_date=2018-03-01&end_date=2018-03-31';
    const id = (i: number) => made[i].user.userId;

    const byValue = await list(`${range}&sort=ltv&direction=desc`);
    expect(byValue.total).toBe(5);
    // Ties (15) by id, the same direction.
    expect(ids(byValue)).toEqual([id(3), id(0), id(4), id(2), id(1)]);
    expect(byValue.users.map((u) => u.ltv)).toEqual([99, 40, 15, 15, 0]);
    expect(ids(await list(`${range}&sort=ltv&direction=asc`))).toEqual([id(1), id(2), id(4), id(0), id(3)]);
    expect(ids(await list(`${range}&sort=total_words&direction=desc`))).toEqual([id(4), id(3), id(2), id(1), id(0)]);
    expect(ids(await list(`${range}&sort=last_used&direction=desc`))).toEqual([id(0), id(2), id(4), id(3), id(1)]);
    expect(ids(await list(`${range}&sort=last_used&direction=asc`))).toEqual([id(4), id(2), id(0), id(1), id(3)]);

    // A range past one page: 50, then the rest, in the same order as sorting everyone would give.
    const many = await t.ctx.db
      .insert(users)
      .values(Array.from({ length: 53 }, (_, i) => ({ name: `Many${i}`, email: `many-${i}-${Date.now()}@example.com`, createdAt: new Date(Date.UTC(2017, 6, 1 + (i % 28), 12)) })))
      .returning({ userId: users.userId });
    await t.ctx.db.update(users).set({ lastUsedAt: new Date(Date.UTC(2020, 0, 1)) }).where(inArray(users.userId, many.slice(0, 20).map((m) => m.userId)));
    const july = 'start_date=2017-07-01&end_date=2017-07-31';
    const first = await list(`${july}&sort=last_used&direction=desc`);
    const second = await list(`${july}&sort=last_used&direction=desc&page=2`);
    expect(first.total).toBe(53);
    expect(first.users).toHaveLength(50);
    const order = [...ids(first), ...ids(second)];
    const used = many.slice(0, 20).map((m) => m.userId).sort((a, b) => b - a);
    const unused = many.slice(20).map((m) => m.userId).sort((a, b) => b - a);
    expect(order).toEqual([...used, ...unused]);
  });
});
