// The /admin table (spec part 1 §2 "Admin purchases and invoices", §7 GET /purchases/admin and
// GET /invoices/admin, §9): purchases and invoices in a date range, newest first, 12 a page, filtered by
// status tab (§9 "Purchase filters"), type, product and a search, all in SQL. Staff see every record;
// the routes admit staff only (DESIGN.md §7: the back office's scope is the whole operator).
import { ADMIN_PURCHASES_PAGE_SIZE } from '@pluma/common/constants';
import { STATUS_FILTERS, type StatusTab, type TypeTab } from '@pluma/common/admin-purchases';
import { purchasesDefaultRange, rangeBounds, utcDay, type DateRange } from '@pluma/common/rules/date-range';
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { Actor } from '../../platform/auth/actor';
import { adminRecordRules } from './policy';

export interface AdminListFilters {
  page: number;
  query?: string;
  status: StatusTab;
  type: TypeTab;
  product_id?: number;
  start_date?: string;
  end_date?: string;
}

/** One row as the SQL below returns it (numbers and dates normalized). */
export interface AdminRecordRow {
  type: 'purchase' | 'invoice';
  purchaseId: number | null;
  invoiceId: number | null;
  userId: number | null;
  userName: string | null;
  userLastName: string | null;
  userEmail: string | null;
  productId: number | null;
  productName: string | null;
  status: string;
  amount: number;
  totalPayment: number;
  discountCode: string | null;
  paymentMethodId: number | null;
  paymentMethodName: string | null;
  isGift: boolean;
  expirationDays: number | null;
  paymentProcessorId: string | null;
  orderId: string | null;
  subscriptionId: string | null;
  subscriptionPeriod: string | null;
  expirationDate: Date | null;
  cancelReason: string | null;
  failureReason: string | null;
  cancelledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

type Executor = Db | Tx;

const likePattern = (query: string) => `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The purchases' half of the table; `where` reads aliases p (purchases), u (users), pr (products). */
const purchaseSelect = (where: SQL) => sql`
  select 'purchase' as type, p.purchase_id, null::int as invoice_id, p.user_id,
    u.name as user_name, u.last_name as user_last_name, u.email as user_email,
    p.product_id, pr.name as product_name, p.status, p.amount, p.total_payment, p.discount_code,
    p.payment_method_id, pm.name as payment_method_name, p.is_gift, p.expiration_days, p.payment_processor_id,
    null::text as order_id, p.subscription_id, p.subscription_period, null::timestamptz as expiration_date,
    p.cancel_reason, p.failure_reason, p.cancelled_at, p.created_at, p.updated_at, p.purchase_id as sort_id
  from purchases p
  join users u on u.user_id = p.user_id
  left join products pr on pr.product_id = p.product_id
  left join payment_methods pm on pm.payment_method_id = p.payment_method_id
  where ${where}`;

/** The invoices' half; `where` reads aliases i (invoices), u (users), ip (the invoice's purchase), pr (its product). */
const invoiceSelect = (where: SQL) => sql`
  select 'invoice' as type, i.purchase_id, i.invoice_id, i.user_id,
    u.name as user_name, u.last_name as user_last_name, u.email as user_email,
    ip.product_id, pr.name as product_name, i.status, i.amount, i.total_payment, ip.discount_code,
    i.payment_method_id, pm.name as payment_method_name, coalesce(ip.is_gift, false) as is_gift, null::int as expiration_days,
    null::text as payment_processor_id, i.order_id, i.subscription_id, i.subscription_period, i.expiration_date,
    null::text as cancel_reason, null::text as failure_reason, null::timestamptz as cancelled_at, i.created_at, i.updated_at, i.invoice_id as sort_id
  from invoices i
  left join users u on u.user_id = i.user_id
  left join purchases ip on ip.purchase_id = i.purchase_id
  left join products pr on pr.product_id = ip.product_id
  left join payment_methods pm on pm.payment_method_id = i.payment_method_id
  where ${where}`;


function statusIn(column: SQL, tab: StatusTab): SQL | null {
  if (tab === 'all') return null;
  const statuses = STATUS_FILTERS[tab].map((status) => sql`${status}`);
  return sql`${column} in (${sql.join(statuses, sql`, `)})`;
}

/** Search: the customer's name or email, the product, the discount code or order id, or a record's number. */
function searchOf(query: string | undefined, kind: 'purchase' | 'invoice'): SQL | null {
  if (!query) return null;
  const like = likePattern(query);
  const own = kind === 'purchase' ? sql`p.discount_code ilike ${like}` : sql`i.order_id ilike ${like}`;
  const parts = [
    sql`u.email ilike ${like}`,
    sql`(u.name || ' ' || u.last_name) ilike ${like}`,
    sql`pr.name ilike ${like}`,
    own,
  ];
  const number = /^#?(\d{1,9})$/.exec(query)?.[1];
  if (number) parts.push(kind === 'purchase' ? sql`p.purchase_id = ${Number(number)}` : sql`i.invoice_id = ${Number(number)}`);
  return sql`(${sql.join(parts, sql` or `)})`;
}

function whereOf(kind: 'purchase' | 'invoice', filters: AdminListFilters, range: DateRange): SQL {
  const t = kind === 'purchase' ? sql.raw('p') : sql.raw('i');
  const { from, until } = rangeBounds(range);
  const parts: (SQL | null)[] = [
    sql`${t}.created_at >= ${from.toISOString()}::timestamptz and ${t}.created_at < ${until.toISOString()}::timestamptz`,
    statusIn(sql`${t}.status`, filters.status),
    filters.product_id ? (kind === 'purchase' ? sql`p.product_id = ${filters.product_id}` : sql`ip.product_id = ${filters.product_id}`) : null,
    searchOf(filters.query, kind),
  ];
  return sql.join(
    parts.filter((part): part is SQL => part !== null),
    sql` and `,
  );
}

const num = (value: unknown) => (value == null ? null : Number(value));
const date = (value: unknown) => (value == null ? null : value instanceof Date ? value : new Date(String(value)));

function toRow(raw: Record<string, unknown>): AdminRecordRow {
  return {
    type: raw.type as 'purchase' | 'invoice',
    purchaseId: num(raw.purchase_id),
    invoiceId: num(raw.invoice_id),
    userId: num(raw.user_id),
    userName: (raw.user_name as string | null) ?? null,
    userLastName: (raw.user_last_name as string | null) ?? null,
    userEmail: (raw.user_email as string | null) ?? null,
    productId: num(raw.product_id),
    productName: (raw.product_name as string | null) ?? null,
    status: String(raw.status),
    amount: Number(raw.amount),
    totalPayment: Number(raw.total_payment),
    discountCode: (raw.discount_code as string | null) ?? null,
    paymentMethodId: num(raw.payment_method_id),
    paymentMethodName: (raw.payment_method_name as string | null) ?? null,
    isGift: raw.is_gift === true,
    expirationDays: num(raw.expiration_days),
    paymentProcessorId: (raw.payment_processor_id as string | null) ?? null,
    orderId: (raw.order_id as string | null) ?? null,
    subscriptionId: (raw.subscription_id as string | null) ?? null,
    subscriptionPeriod: (raw.subscription_period as string | null) ?? null,
    expirationDate: date(raw.expiration_date),
    cancelReason: (raw.cancel_reason as string | null) ?? null,
    failureReason: (raw.failure_reason as string | null) ?? null,
    cancelledAt: date(raw.cancelled_at),
    createdAt: date(raw.created_at)!,
    updatedAt: date(raw.updated_at)!,
  };
}

const purchaseFrom = sql`purchases p join users u on u.user_id = p.user_id left join products pr on pr.product_id = p.product_id`;
const invoiceFrom = sql`invoices i left join users u on u.user_id = i.user_id left join purchases ip on ip.purchase_id = i.purchase_id left join products pr on pr.product_id = ip.product_id`;

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

/** The range asked for, else the default: the start of this month (UTC) to one month later. */
export function adminRange(filters: Pick<AdminListFilters, 'start_date' | 'end_date'>, now = new Date()): DateRange {
  const fallback = purchasesDefaultRange(utcDay(now));
  return { start_date: filters.start_date ?? fallback.start_date, end_date: filters.end_date ?? fallback.end_date };
}

/**
 * One half's count: exact from the per-day summaries of migration 0011 (by day, status and the purchase's
 * product; a month is ~400,000 rows at 1,000,000 customers) when no search is set; else the matching rows,
 * newest first, for cappedCount to count up to its cap (an invoice's product is its purchase's, which the
 * summary does not hold: the invoices with a product are counted the same way). docs/decisions.md
 * "Back-office at scale".
 */
function countOf(kind: 'purchase' | 'invoice', filters: AdminListFilters, range: DateRange, where: SQL, cap: number): { exact: true; sql: SQL } | { exact: false; matched: SQL } {
  if (!filters.query && (kind === 'purchase' || !filters.product_id)) {
    const days = sql`f.day >= ${range.start_date}::date and f.day <= ${range.end_date}::date`;
    const status = statusIn(sql`f.status`, filters.status);
    const statusSql = status ? sql` and ${status}` : sql``;
    if (kind === 'purchase') {
      const product = filters.product_id ? sql` and f.product_id = ${filters.product_id}` : sql``;
      return { exact: true, sql: sql`(select coalesce(sum(f.purchases), 0) from daily_purchase_figures f where ${days}${statusSql}${product})` };
    }
    return { exact: true, sql: sql`(select coalesce(sum(f.invoices), 0) from daily_invoice_figures f where ${days}${statusSql})` };
  }
  // Joined only as the filters read: a purchase always has its user (not null, cascade) and the left joins
  // add no row, but joining users made every count hash the whole users table.
  const from =
    kind === 'purchase'
      ? filters.query
        ? purchaseFrom
        : sql`purchases p`
      : filters.query
        ? invoiceFrom
        : sql`invoices i left join purchases ip on ip.purchase_id = i.purchase_id`;
  // Ordered as the page is (newest first on *_created_idx): without it the planner merge-joined every purchase
  // for the invoices' half (0.9 s at 200,000 customers) before its limit could stop it.
  const t = kind === 'purchase' ? sql.raw('p') : sql.raw('i');
  return { exact: false, matched: sql`(select ${t}.created_at from ${from} where ${where} order by ${t}.created_at desc limit ${cap + 1})` };
}

/**
 * The halves that are not exact, counted up to `cap` + 1 together: both halves merged newest first (one walk
 * that stops at the cap, about half the records two counts of cap + 1 each read), which decides "more than
 * `cap`" exactly as the two counts' sum would.
 */
function cappedCount(matched: SQL[], cap: number): SQL {
  if (matched.length === 1) return sql`(select count(*) from ${matched[0]} matched)`;
  return sql`(select count(*) from (select created_at from (${sql.join(matched, sql` union all `)}) halves order by created_at desc limit ${cap + 1}) matched)`;
}

/**
 * How far a count that is not exact goes: the pages the table's buttons can reach from this one (spec part 1
 * §2: up to 5 page buttons around the current page, and Next). Past it the total says "more than".
 */
const PAGES_AHEAD = 4;
export const countCap = (page: number) => (page + PAGES_AHEAD) * ADMIN_PURCHASES_PAGE_SIZE;

export async function listAdminRecords({ actor, db, filters, now }: { actor: Actor; db: Executor; filters: AdminListFilters; now?: Date }) {
  adminRecordRules.authorize(actor, 'read', null);
  const range = adminRange(filters, now);
  const withPurchases = filters.type !== 'invoices';
  const withInvoices = filters.type !== 'purchases';
  const purchaseWhere = whereOf('purchase', filters, range);
  const invoiceWhere = whereOf('invoice', filters, range);
  const halves = [...(withPurchases ? [purchaseSelect(purchaseWhere)] : []), ...(withInvoices ? [invoiceSelect(invoiceWhere)] : [])];
  const offset = (filters.page - 1) * ADMIN_PURCHASES_PAGE_SIZE;
  // Each half is ordered and limited on its own (an index scan on created_at), then merged.
  const limited = halves.map((half) => sql`(${half} order by created_at desc, sort_id desc limit ${offset + ADMIN_PURCHASES_PAGE_SIZE})`);
  const page = await db.execute(sql`
    select * from (${sql.join(limited, sql` union all `)}) rows
    order by created_at desc, type desc, sort_id desc
    limit ${ADMIN_PURCHASES_PAGE_SIZE} offset ${offset}`);
  const cap = countCap(filters.page);
  const counts = [
    ...(withPurchases ? [countOf('purchase', filters, range, purchaseWhere, cap)] : []),
    ...(withInvoices ? [countOf('invoice', filters, range, invoiceWhere, cap)] : []),
  ];
  const rows = rowsOf(page).map(toRow);
  // A count that is not exact (a search) is skipped when the page tells the total: fewer than 12 rows.
  const pageTells = rows.length < ADMIN_PURCHASES_PAGE_SIZE && (rows.length > 0 || filters.page === 1);
  if (counts.some((c) => !c.exact) && pageTells) return { rows, total: offset + rows.length, totalCapped: false, range };
  const parts = counts.flatMap((c) => (c.exact ? [c.sql] : []));
  const matched = counts.flatMap((c) => (c.exact ? [] : [c.matched]));
  if (matched.length > 0) parts.push(cappedCount(matched, cap));
  const countSql = sql`select ${sql.join(parts, sql` + `)} as total`;
  // A capped count must walk the newest records with their customer looked up one by one (nested loops) and
  // stop at the cap. The planner's guess of how many match a search varies with ANALYZE's sample, and once
  // it merge-joined every purchase instead: 5 s at 1,000,000 customers (docs/decisions.md "Back-office at
  // scale"). Hash and merge joins are off for that one statement, and parallel workers: each worker walked
  // its share of the records ahead of the limit (51 ms where one process takes 6).
  const [counted] =
    matched.length === 0
      ? rowsOf(await db.execute(countSql))
      : await db.transaction(async (tx) => {
          await tx.execute(
            sql`select set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)`,
          );
          return rowsOf(await tx.execute(countSql));
        });
  const total = Number(counted.total);
  // A search matching more than the buttons reach is "more than `cap`" (total_capped), never read in full.
  const capped = counts.some((c) => !c.exact) && total > cap;
  return { rows, total: capped ? cap : total, totalCapped: capped, range };
}

/** One purchase or invoice as the table shows it (after a change), or null. */
export async function getAdminRecord({ actor, db, type, id }: { actor: Actor; db: Executor; type: 'purchase' | 'invoice'; id: number }): Promise<AdminRecordRow | null> {
  adminRecordRules.authorize(actor, 'read', null);
  const result = await db.execute(type === 'purchase' ? purchaseSelect(sql`p.purchase_id = ${id}`) : invoiceSelect(sql`i.invoice_id = ${id}`));
  const [raw] = rowsOf(result);
  return raw ? toRow(raw) : null;
}
