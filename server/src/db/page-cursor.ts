// Deep pages that stay flat (issue 31 item 1). The lists keep the spec's page numbers (OFFSET), and a page
// also answers `next_cursor`: the sort key and id of its last row. A client walking pages in order sends it
// back with the next page number (`page` + `cursor`), and that page is read as a keyset (rows after the key,
// one index range) instead of skipping `offset` rows. A cursor is used only for the page right after the one
// it came from, in the same list (user, context, sort, filters: `scope`); any other cursor — stale, forged,
// another user's, another sort's — is ignored and the page is read by its number, so it can never change what
// a page holds, only how it is found. Jumps to a far page read the page's ids first (`jumpIds`), over the
// sort's index alone, then only those rows with their joins and computed columns.
import { createHash } from 'node:crypto';
import { isDbId, isStorableTimestamp } from '@pluma/common/schema-kit';
import { and, sql, type SQL } from 'drizzle-orm';
import { QueryBuilder, type AnyPgColumn, type PgSelect, type PgTable, type WithSubqueryWithSelection } from 'drizzle-orm/pg-core';

/** A list's sort as an index has it: the key, then the id, both in `direction`. */
export interface PageOrder {
  key: SQL;
  id: AnyPgColumn;
  direction: 'asc' | 'desc';
  /** The key's SQL type, to compare it with the cursor's value. */
  type: 'timestamptz' | 'text';
  /**
   * The columns the list's filters fix, leading the sort's index (user, organization). Sorting by them first
   * changes no order, but tells the planner the index's order is the sort's: `organization_id is null` (the
   * Personal context) is no equality to it, so without them it read every one of the user's rows and sorted
   * them (a heavy user's documents: seq scan + top-N sort, 1.4 ms vs 0.05 on PostgreSQL).
   */
  context?: AnyPgColumn[];
}

export interface PageKey {
  value: string;
  id: number;
}

/** The list a cursor belongs to: who, in which context, sorted and filtered how. */
function fingerprint(scope: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(scope)).digest('base64url').slice(0, 16);
}

/** The cursor after a page whose last row is `last`; `at` is the offset of the row that follows it. */
export function encodePageCursor(scope: unknown[], at: number, last: PageKey): string {
  return Buffer.from(JSON.stringify([fingerprint(scope), at, last.value, last.id])).toString('base64url');
}

/** The key to read the page at `offset` from, or null when the cursor is not this list's, for this page. */
export function readPageCursor(cursor: string | undefined, scope: unknown[], offset: number, type: PageOrder['type']): PageKey | null {
  if (!cursor || offset === 0) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 4) return null;
    const [fp, at, value, id] = parsed as unknown[];
    if (fp !== fingerprint(scope) || at !== offset || typeof value !== 'string' || value.length > 1000 || !isDbId(id)) return null;
    // A forged value must not reach the query as something PostgreSQL cannot read.
    if (type === 'timestamptz' && !isStorableTimestamp(value)) return null;
    return { value, id: id as number };
  } catch {
    return null;
  }
}

/** The sort's ORDER BY (after its context columns, in the same direction, as the index is read). */
export function orderBy(order: PageOrder): SQL[] {
  const dir = sql.raw(order.direction);
  return [...(order.context ?? []).map((column) => sql`${column} ${dir}`), sql`${order.key} ${dir}`, sql`${order.id} ${dir}`];
}

/** The key of a row as text (selected beside the row, to make the next cursor). */
export const keyText = (order: PageOrder): SQL<string> => sql<string>`(${order.key})::text`;

/** The rows after `key` in the sort (a row comparison an index on (…, key, id) reads as one range). */
export function after(order: PageOrder, key: PageKey): SQL {
  const value = order.type === 'timestamptz' ? sql`${key.value}::timestamptz` : sql`${key.value}::text`;
  return order.direction === 'asc' ? sql`(${order.key}, ${order.id}) > (${value}, ${key.id})` : sql`(${order.key}, ${order.id}) < (${value}, ${key.id})`;
}

/**
 * A jump to the page at `offset` without a cursor: the page's ids, read over the sort's index alone (the
 * skipped rows are not fetched, joined or computed), as a condition on the outer query. The ids are an
 * array (`= any(array(…))`, computed once) so the outer query fetches just them by primary key: as
 * `in (select …)` the planner hashed them and read every one of the user's rows to probe it (a heavy user's
 * documents page 40: seq scan of 2,000 rows, 0.82 ms vs 0.36 on PostgreSQL; issue 31 item 1).
 */
export function jumpIds(table: PgTable, order: PageOrder, where: SQL | undefined, offset: number, pageSize: number): SQL {
  return sql`${order.id} = any(array(select ${order.id} from ${table} where ${where ?? sql`true`} order by ${sql.join(orderBy(order), sql`, `)} limit ${pageSize} offset ${offset}))`;
}

/** The ids of a search's first matches, kept once for its page and its total (searchRead). */
export type SearchIds = WithSubqueryWithSelection<{ ids: SQL.Aliased<number[]> }, 'search_ids'>;

/** A page read from ids already in the sort's order: joined to its table by `on`, sorted by `order`. */
export interface PageIds {
  rows: SQL;
  on: SQL;
  order: SQL;
}

/**
 * A search's page and its capped total from one read (issue 31 item 1): the ids of the first `cap` + 1 matches
 * from the page's first row on (`count`: past `skip` of `where`), in the sort's order, kept once in a CTE that
 * both refer to. The page is their first `pageSize`, fetched by primary key; the total, their number. A
 * search's filter is checked on every row it reads, about ten for each match: read once for the page and again
 * for its count, that was most of a heavy user's search (documents, PostgreSQL: 1.03 → 0.60 ms a query,
 * pgbench; the light user's 0.33 → 0.29). Lists without a search keep two reads: their count is an index-only
 * scan, and up to 1,001 ids kept in order would cost more.
 *
 * The page joins the ids, numbered, and keeps their order (`page`): filtering and sorting the rows again
 * planned the search's conditions (their trigram indexes' costs) a second time for nothing, as the ids come
 * from the same statement's filtered read. A heavy user's conversation search went 1.6 → 1.05 ms a query,
 * the light user's 0.9 → 0.5 (pgbench, PostgreSQL).
 */
export function searchRead(table: PgTable, order: PageOrder, count: { where: SQL | undefined; skip: number }, cap: number, pageSize: number, first = 0) {
  const skip = count.skip > 0 ? sql` offset ${count.skip}` : sql``;
  const ids = new QueryBuilder()
    .$with('search_ids', { ids: sql<number[]>`ids`.as('ids') })
    .as(sql`select array(select ${order.id} from ${table} where ${count.where ?? sql`true`} order by ${sql.join(orderBy(order), sql`, `)} limit ${cap + 1}${skip}) as ids`);
  const page: PageIds = {
    // `first`: the page's first id in the array (0-based), for a list whose count starts before its page.
    rows: sql`unnest((select ids from ${sql.identifier('search_ids')})[${first + 1}:${first + pageSize}]) with ordinality as page_ids(id, n)`,
    on: sql`${order.id} = page_ids.id`,
    order: sql`page_ids.n`,
  };
  return {
    ids: ids as SearchIds,
    page,
    matches: sql<number>`(select cardinality(ids) from ${sql.identifier('search_ids')})`.mapWith(Number),
  };
}

/** The page's rows on a dynamic select from the plan's table: a search's ids joined in their order, else the filters and the sort. */
export function readPage<Q extends PgSelect>(query: Q, plan: Pick<PagePlan, 'page' | 'where'>, order: PageOrder): Q {
  // Joined SQL adds no fields to a query that names its own (every list does): its rows' type is unchanged.
  if (plan.page) return query.innerJoin(plan.page.rows, plan.page.on).orderBy(plan.page.order) as unknown as Q;
  return query.where(plan.where).orderBy(...orderBy(order)) as Q;
}

/**
 * How to read the page at `offset`: `where` (the list's filters, plus the keyset condition when the cursor
 * fits), the OFFSET left to apply, whether the page's ids are cut first (a jump), and what its total counts
 * (`count`: the matches from the page's first row on). With `search` (its total's cap), the page and total
 * come from one read of the first matches (searchRead): the query runs `with(...plan.with)`.
 */
export function planPage({
  table,
  order,
  where,
  offset,
  pageSize,
  cursor,
  scope,
  search,
}: {
  table: PgTable;
  order: PageOrder;
  where: SQL | undefined;
  offset: number;
  pageSize: number;
  cursor: string | undefined;
  scope: unknown[];
  search?: { cap: number };
}): PagePlan {
  const plan = planRead({ table, order, where, offset, pageSize, cursor, scope });
  if (!search) return plan;
  const read = searchRead(table, order, plan.count, search.cap, pageSize);
  return { ...plan, with: [read.ids], page: read.page, matches: read.matches };
}

export interface PagePlan {
  where: SQL | undefined;
  offset: number;
  keyset: boolean;
  jump: boolean;
  count: { where: SQL | undefined; skip: number };
  /** A search's CTE (searchRead), for db.with(...), its page (readPage) and its total's column. */
  with: SearchIds[];
  page?: PageIds;
  matches?: SQL<number>;
}

function planRead({ table, order, where, offset, pageSize, cursor, scope }: Parameters<typeof planPage>[0]): PagePlan {
  const key = readPageCursor(cursor, scope, offset, order.type);
  if (key) {
    const from = and(where, after(order, key));
    return { where: from, offset: 0, keyset: true, jump: false, count: { where: from, skip: 0 }, with: [] };
  }
  // A jump's matches from its first row: the list's, past the `offset` before it (capped-count.ts planCount).
  if (offset > 0) return { where: and(where, jumpIds(table, order, where, offset, pageSize)), offset: 0, keyset: false, jump: true, count: { where, skip: offset }, with: [] };
  return { where, offset: 0, keyset: false, jump: false, count: { where, skip: 0 }, with: [] };
}

/** The page's `next_cursor`: null when it is not full (nothing follows). */
export function nextPageCursor(scope: unknown[], offset: number, pageSize: number, rows: Array<{ sortKey: string; id: number }>): string | null {
  const last = rows.at(-1);
  if (!last || rows.length < pageSize) return null;
  return encodePageCursor(scope, offset + rows.length, { value: last.sortKey, id: last.id });
}
