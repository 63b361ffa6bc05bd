// The page's own count (capped-count.ts countColumn / planCount), issue 31 item 1: from the page's first row on,
// at most cap + 1, a jump's past the rows before it, so a deep page needs no second query for its total.
import { and, eq, isNull, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, type BuiltUser } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';
import { countColumn, planCount, totalFrom } from './capped-count';
import { keyText, nextPageCursor, planPage, readPage, type PageOrder } from './page-cursor';
import { documents } from './schema';

describe('countColumn and planCount', () => {
  let t: TestApp;
  let owner: BuiltUser;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await buildUser(t.ctx);
    await t.ctx.db.insert(documents).values(Array.from({ length: 7 }, (_, i) => ({ userId: owner.user.userId, name: `Doc ${i}`, content: '', plainText: '' })));
  });
  afterAll(() => t.close());

  const where = () => and(eq(documents.userId, owner.user.userId), isNull(documents.organizationId));
  const counted = async (column: ReturnType<typeof countColumn>) => (await t.ctx.db.select({ n: column }).from(sql`(select 1) one`))[0].n;

  it('counts the matches past `skip`, stopping at cap + 1', async () => {
    expect(await counted(countColumn(documents, where(), 100))).toBe(7);
    expect(await counted(countColumn(documents, where(), 100, 3))).toBe(4);
    expect(await counted(countColumn(documents, where(), 2, 3))).toBe(3);
    expect(await counted(countColumn(documents, where(), 100, 9))).toBe(0);
  });

  it("gives a jump by page number its total in the page's own query, as the count after it did", async () => {
    const order: PageOrder = { key: sql`${documents.createdAt}`, id: documents.documentId, direction: 'desc', type: 'timestamptz', context: [documents.userId, documents.organizationId] };
    const page = async (offset: number, cap: number) => {
      const plan = planPage({ table: documents, order, where: where(), offset, pageSize: 2, cursor: undefined, scope: ['t'] });
      expect(plan.jump).toBe(offset > 0);
      const rows = await t.ctx.db.select({ id: documents.documentId, matches: planCount(documents, plan, cap) }).from(documents).where(plan.where);
      return { ids: rows.length, total: totalFrom(offset, cap, rows[0].matches) };
    };
    expect(await page(2, 100)).toEqual({ ids: 2, total: { total: 7, capped: false } });
    expect(await page(4, 100)).toEqual({ ids: 2, total: { total: 7, capped: false } });
    // Past the cap from the page's first row: "offset + cap" and more.
    expect(await page(2, 3)).toEqual({ ids: 2, total: { total: 5, capped: true } });
    expect(await page(4, 3)).toEqual({ ids: 2, total: { total: 7, capped: false } });
  });

  it("reads a search's page from its first matches' ids, in the sort's order, its total from the same ids", async () => {
    // Matches interleaved with other rows, names out of insertion order: the page's order is the sort's alone.
    const names = ['kiwi match', 'apple', 'fig match', 'cherry match', 'date', 'banana match', 'elder match'];
    await t.ctx.db.insert(documents).values(names.map((name) => ({ userId: owner.user.userId, name, content: '', plainText: '' })));
    const expected = names.filter((n) => n.includes('match')).sort();
    const order: PageOrder = { key: sql`${documents.nameLower}`, id: documents.documentId, direction: 'asc', type: 'text', context: [documents.userId, documents.organizationId] };
    const searched = and(where(), like(documents.nameLower, '%match%'));
    const page = async (offset: number, cap: number, cursor?: string) => {
      const plan = planPage({ table: documents, order, where: searched, offset, pageSize: 2, cursor, scope: ['t'], search: { cap } });
      const query = t.ctx.db
        .with(...plan.with)
        .select({ id: documents.documentId, name: documents.name, sortKey: keyText(order), matches: planCount(documents, plan, cap) })
        .from(documents)
        .$dynamic();
      const rows = await readPage(query, plan, order).limit(2);
      const next = nextPageCursor(['t'], offset, 2, rows.map((r) => ({ sortKey: r.sortKey, id: r.id })));
      return { names: rows.map((r) => r.name), total: rows.length ? totalFrom(offset, cap, rows[0].matches) : null, next };
    };
    const first = await page(0, 100);
    expect(first).toMatchObject({ names: expected.slice(0, 2), total: { total: 5, capped: false } });
    // By page number, and by the cursor of the page before: the same rows.
    expect(await page(2, 100)).toMatchObject({ names: expected.slice(2, 4), total: { total: 5, capped: false } });
    expect(await page(2, 100, first.next ?? undefined)).toMatchObject({ names: expected.slice(2, 4), total: { total: 5, capped: false } });
    expect(await page(4, 100)).toMatchObject({ names: expected.slice(4), total: { total: 5, capped: false } });
    // Capped: the first cap + 1 matches are read, the page is still their first ones.
    expect(await page(0, 2)).toMatchObject({ names: expected.slice(0, 2), total: { total: 2, capped: true } });
    expect(await page(6, 100)).toMatchObject({ names: [], total: null });
  });
});
