// Totals that stay flat with size (issue 31 item 1): a list's `total` is exact up to a cap and "at least the
// cap" beyond it (`capped`, shown as "1,000+"). count(*) over every match read all of a heavy user's rows on
// every page (10,000 conversations: 10× a light user's time); a count that stops after cap + 1 rows reads at
// most that many index entries, and none at all when the page itself shows where the list ends. A first page,
// a page read from its cursor and a jump to a page by number count in their own query (`countColumn`): a
// second query was a second round trip that only the heavy user made (the light user's page is not full),
// the larger part of their difference.
import { and, count, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client';

/** Totals are exact up to this many; beyond, the answer is "1,000+" (`capped`). */
export const LIST_TOTAL_CAP = 1000;
/**
 * With a search or a filter, the count reads every row it checks, and only one in so many matches: these
 * totals stop at 100 ("100+"), so a heavy user's search reads about as much as a light user's.
 */
export const SEARCH_TOTAL_CAP = 100;

export interface CappedTotal {
  total: number;
  /** true: there are more than `total` (the list says "total+"). */
  capped: boolean;
}

/**
 * The total of a list whose page (`pageRows` rows at `offset`, at most `pageSize`) was just read. A page that
 * is not full and not past the end tells the total by itself; otherwise the matches are counted up to
 * `offset + cap` (paged lists keep their next pages reachable), stopping there. With `after` (the rows past a
 * full page), only those are counted, up to the same limit.
 */
export async function cappedTotal(
  db: Db | Tx,
  {
    table,
    where,
    offset,
    pageSize,
    pageRows,
    cap = LIST_TOTAL_CAP,
    after,
  }: { table: PgTable; where: SQL | undefined; offset: number; pageSize: number; pageRows: number; cap?: number; after?: SQL },
): Promise<CappedTotal> {
  if (pageRows < pageSize && (pageRows > 0 || offset === 0)) return { total: offset + pageRows, capped: false };
  const limit = offset + cap;
  if (after && pageRows === pageSize) {
    // A full page whose end is known (the rows after its last one): only what follows it is counted, so a
    // deep page costs what the first one does (page-cursor.ts).
    const room = Math.max(cap - pageRows, 0);
    const rest = db
      .select({ one: sql`1` })
      .from(table)
      .where(and(where, after))
      .limit(room + 1)
      .as('rest');
    const [{ n }] = await db.select({ n: count() }).from(rest);
    return n > room ? { total: limit, capped: true } : { total: offset + pageRows + n, capped: false };
  }
  const matches = db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(limit + 1)
    .as('matches');
  const [{ n }] = await db.select({ n: count() }).from(matches);
  return n > limit ? { total: limit, capped: true } : { total: n, capped: false };
}

/**
 * The matches of `where` (from the page's first row on: the list's filters, plus the cursor's condition on a
 * keyset page), counted up to `cap` + 1, as a column of the page's own query. PostgreSQL evaluates it once
 * (an InitPlan); inside, `table` is the subquery's own, so the filters' columns refer to it.
 */
export function countColumn(table: PgTable | SQL, where: SQL | undefined, cap: number, skip = 0): SQL<number> {
  // `skip`: the matches before the page (a jump by number). How many follow them does not depend on the order,
  // so none is asked for and the planner skips them in whatever index serves the filters.
  const past = skip > 0 ? sql` offset ${skip}` : sql``;
  return sql<number>`(select count(*) from (select 1 from ${table} where ${where ?? sql`true`} limit ${cap + 1}${past}) m)`.mapWith(Number);
}

/**
 * countColumn for a page planned by page-cursor.ts planPage (`count`: the matches from the page's first row
 * on: a first page's, a keyset page's after its key, a jump's past the rows before it, so every page counts
 * in its own query: a jump's count after it was a second round trip only deep pages made, issue 31 item 1).
 * Without `count` (templates' own paging), a jump selects 0 and is counted after it (pageTotal).
 */
export function planCount(
  table: PgTable,
  plan: { where: SQL | undefined; jump: boolean; count?: { where: SQL | undefined; skip: number }; matches?: SQL<number> },
  cap: number,
): SQL<number> {
  if (plan.matches) return plan.matches;
  if (plan.count) return countColumn(table, plan.count.where, cap, plan.count.skip);
  return plan.jump ? sql<number>`0`.mapWith(Number) : countColumn(table, plan.where, cap);
}

/** The total of a page at `offset` whose countColumn said `n` (the matches from its first row on). */
export function totalFrom(offset: number, cap: number, n: number): CappedTotal {
  return n > cap ? { total: offset + cap, capped: true } : { total: offset + n, capped: false };
}

/**
 * The total of a page whose query carried countColumn (`counted`; `matches`: its last row's, undefined when
 * the page is empty): from that count, else (a jump, an empty page past the start) from cappedTotal.
 */
export async function pageTotal(db: Db | Tx, counted: boolean, matches: number | undefined, args: Parameters<typeof cappedTotal>[1]): Promise<CappedTotal> {
  if (counted && (matches !== undefined || args.offset === 0)) return totalFrom(args.offset, args.cap ?? LIST_TOTAL_CAP, matches ?? 0);
  return cappedTotal(db, args);
}
