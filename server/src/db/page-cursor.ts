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
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';

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

/**
 * How to read the page at `offset`: `where` (the list's filters, plus the keyset condition when the cursor
 * fits), the OFFSET left to apply, whether the page's ids are cut first (a jump), and what its total counts
 * (`count`: the matches from the page's first row on).
 */
export function planPage({
  table,
  order,
  where,
  offset,
  pageSize,
  cursor,
  scope,
}: {
  table: PgTable;
  order: PageOrder;
  where: SQL | undefined;
  offset: number;
  pageSize: number;
  cursor: string | undefined;
  scope: unknown[];
}): { where: SQL | undefined; offset: number; keyset: boolean; jump: boolean; count: { where: SQL | undefined; skip: number } } {
  const key = readPageCursor(cursor, scope, offset, order.type);
  if (key) {
    const from = and(where, after(order, key));
    return { where: from, offset: 0, keyset: true, jump: false, count: { where: from, skip: 0 } };
  }
  // A jump's matches from its first row: the list's, past the `offset` before it (capped-count.ts planCount).
  if (offset > 0) return { where: and(where, jumpIds(table, order, where, offset, pageSize)), offset: 0, keyset: false, jump: true, count: { where, skip: offset } };
  return { where, offset: 0, keyset: false, jump: false, count: { where, skip: 0 } };
}

/** The page's `next_cursor`: null when it is not full (nothing follows). */
export function nextPageCursor(scope: unknown[], offset: number, pageSize: number, rows: Array<{ sortKey: string; id: number }>): string | null {
  const last = rows.at(-1);
  if (!last || rows.length < pageSize) return null;
  return encodePageCursor(scope, offset + rows.length, { value: last.sortKey, id: last.id });
}
