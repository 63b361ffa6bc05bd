// Back-office analytics (spec part 1 §2 "Analytics income/customers/products", §3 "Analytics results",
// §7 GET /analytics/*): aggregates over a date range (default the current month, UTC). Income, purchases by
// product, sign-ups and the monthly table read the per-day summaries the triggers of migration 0011 keep
// (docs/decisions.md "Back-office at scale"); the rest are indexed queries on the tables' dates (0007,
// 0011). What each figure counts is in docs/decisions.md "Analytics": income is net of the payments of
// purchases no longer bought (revoked, …), so Income and Products agree on which purchases count.
import {
  ANALYTICS_LIST_PAGE_SIZE,
  BOUGHT_PURCHASE_STATUSES,
  PAID_INVOICE_STATUSES,
  type CustomerList,
} from '@pluma/common/analytics';
import { currentMonthRange, rangeBounds, utcDay, type DateRange } from '@pluma/common/rules/date-range';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Actor } from '../../platform/auth/actor';
import { analyticsRules } from './policy';

/** Every figure is asked by a staff actor, over a date range. */
interface Scope {
  actor: Actor;
  db: Db;
  range: DateRange;
}

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
const list = (values: readonly string[]) => sql.join(values.map((value) => sql`${value}`), sql`, `);
const num = (value: unknown) => Number(value ?? 0);
const cents = (value: number) => Math.round(value * 100) / 100;
const nullableNum = (value: unknown) => (value == null ? null : Number(value));
const text = (value: unknown) => (value == null ? null : String(value));

/** The range asked for, else the current month (spec part 1 §9). */
export function analyticsRange(query: { start_date?: string; end_date?: string }, now = new Date()): DateRange {
  const month = currentMonthRange(utcDay(now));
  return { start_date: query.start_date ?? month.start_date, end_date: query.end_date ?? month.end_date };
}

/** `column` within the range: from the start day's midnight to the midnight after the end day (UTC). */
function within(column: SQL, range: DateRange): SQL {
  const { from, until } = rangeBounds(range);
  return sql`${column} >= ${from.toISOString()}::timestamptz and ${column} < ${until.toISOString()}::timestamptz`;
}

const day = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

/** The summaries' days of the range (daily_* tables of migration 0011: one row per UTC day and key). */
const daysWithin = (range: DateRange) => sql`day >= ${range.start_date}::date and day <= ${range.end_date}::date`;

interface LeftOut {
  paymentMethodId: number | null;
  month: string;
  payments: number;
  total: number;
}

/**
 * Paid invoices of the range whose purchase is no longer bought — revoked, or any status but active,
 * completed and cancelled (BOUGHT_PURCHASE_STATUSES) — per payment method and month: not income
 * (docs/decisions.md "Analytics"). An invoice without a purchase (entered by staff) stays income. Few
 * rows: the range's paid invoices (invoices_status_created_idx) joined to their purchase by its key.
 */
async function paymentsLeftOut(db: Db, range: DateRange): Promise<LeftOut[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select i.payment_method_id, to_char(i.created_at at time zone 'UTC', 'YYYY-MM') as month, count(*) as payments,
        coalesce(sum(i.total_payment), 0) as total
      from invoices i join purchases p on p.purchase_id = i.purchase_id
      where ${within(sql`i.created_at`, range)} and i.status in (${list(PAID_INVOICE_STATUSES)})
        and p.status not in (${list(BOUGHT_PURCHASE_STATUSES)})
      group by 1, 2`),
  );
  return rows.map((r) => ({ paymentMethodId: nullableNum(r.payment_method_id), month: String(r.month), payments: num(r.payments), total: num(r.total) }));
}

const sumOf = (rows: LeftOut[]) => ({ count: rows.reduce((s, r) => s + r.payments, 0), total: cents(rows.reduce((s, r) => s + r.total, 0)) });

/**
 * Income, net: paid invoices (each a payment received) and their totals, per payment method
 * (daily_invoice_figures), less the payments of purchases no longer bought (paymentsLeftOut); the gross
 * and what was left out beside it.
 */
export async function incomeAnalytics({ actor, db, range }: Scope) {
  analyticsRules.authorize(actor, 'read', null);
  // having: a key whose invoices all moved to another status or day keeps its row with 0.
  const rows = rowsOf(
    await db.execute(sql`
      select f.payment_method_id, pm.name, sum(f.invoices) as payments, coalesce(sum(f.total), 0) as total
      from daily_invoice_figures f left join payment_methods pm on pm.payment_method_id = f.payment_method_id
      where ${daysWithin(range)} and f.status in (${list(PAID_INVOICE_STATUSES)})
      group by f.payment_method_id, pm.name
      having sum(f.invoices) > 0
      order by total desc, payments desc`),
  );
  const gross = rows.map((r) => ({ payment_method_id: nullableNum(r.payment_method_id), name: text(r.name), payments: num(r.payments), total: num(r.total) }));
  const leftOut = await paymentsLeftOut(db, range);
  const payment_methods = gross
    .map((m) => {
      const out = sumOf(leftOut.filter((o) => o.paymentMethodId === m.payment_method_id));
      return { ...m, payments: m.payments - out.count, total: cents(m.total - out.total) };
    })
    .filter((m) => m.payments > 0)
    .sort((a, b) => b.total - a.total || b.payments - a.payments);
  return {
    ...range,
    income: cents(payment_methods.reduce((sum, m) => sum + m.total, 0)),
    payments: payment_methods.reduce((sum, m) => sum + m.payments, 0),
    gross_income: cents(gross.reduce((sum, m) => sum + m.total, 0)),
    excluded: sumOf(leftOut),
    payment_methods,
  };
}

/**
 * The customers of each counter, as (user_id, date) rows: sign-ups (users created), customers (users whose
 * purchase in the range gives access: active or completed) and cancelled (users whose purchase was
 * cancelled in the range).
 */
function customersOf(kind: CustomerList, range: DateRange): SQL {
  if (kind === 'signups') return sql`select u.user_id, u.created_at as date from users u where ${within(sql`u.created_at`, range)}`;
  if (kind === 'customers') {
    return sql`select p.user_id, max(p.created_at) as date from purchases p
      where ${within(sql`p.created_at`, range)} and p.status in ('active', 'completed') group by p.user_id`;
  }
  return sql`select p.user_id, max(p.cancelled_at) as date from purchases p
    where ${within(sql`p.cancelled_at`, range)} and p.status = 'cancelled' group by p.user_id`;
}

export async function customersAnalytics({ actor, db, range, expand }: Scope & { expand: { list?: CustomerList; page: number } }) {
  analyticsRules.authorize(actor, 'read', null);
  // Sign-ups from daily_signups; buyers and cancellers are distinct customers (no per-day sum gives them),
  // counted from the partial indexes purchases_bought_created_idx and purchases_cancelled_user_idx (the same
  // rows as customersOf's lists; count(distinct) sorts ids where grouping them with their dates spilled to
  // disk: 330 vs 135 ms for a month at 1,000,000 customers).
  const [counts] = rowsOf(
    await db.execute(sql`select
      (select coalesce(sum(signups), 0) from daily_signups where ${daysWithin(range)}) as signups,
      (select count(distinct p.user_id) from purchases p where ${within(sql`p.created_at`, range)} and p.status in ('active', 'completed')) as customers,
      (select count(distinct p.user_id) from purchases p where ${within(sql`p.cancelled_at`, range)} and p.status = 'cancelled') as cancelled`),
  );
  let expanded = null;
  if (expand.list) {
    const rows = rowsOf(
      await db.execute(sql`
        select u.user_id, u.name, u.last_name, u.email, c.date
        from (${customersOf(expand.list, range)}) c join users u on u.user_id = c.user_id
        order by c.date desc, u.user_id desc
        limit ${ANALYTICS_LIST_PAGE_SIZE} offset ${(expand.page - 1) * ANALYTICS_LIST_PAGE_SIZE}`),
    );
    expanded = {
      kind: expand.list,
      page: expand.page,
      page_size: ANALYTICS_LIST_PAGE_SIZE,
      total: num(counts[expand.list]),
      rows: rows.map((r) => ({
        user_id: num(r.user_id),
        name: String(r.name),
        last_name: String(r.last_name),
        email: String(r.email),
        date: (r.date instanceof Date ? r.date : new Date(String(r.date))).toISOString(),
      })),
    };
  }
  return { ...range, signups: num(counts.signups), customers: num(counts.customers), cancelled: num(counts.cancelled), list: expanded };
}

/**
 * Purchases by product: those bought (active, completed or cancelled) in the range, and their totals
 * (daily_purchase_figures); beside them, the purchases of the range revoked since (not counted).
 */
export async function purchasesAnalytics({ actor, db, range }: Scope) {
  analyticsRules.authorize(actor, 'read', null);
  const rows = rowsOf(
    await db.execute(sql`
      select f.product_id, pr.name, sum(f.purchases) as purchases, coalesce(sum(f.total), 0) as total
      from daily_purchase_figures f left join products pr on pr.product_id = f.product_id
      where ${daysWithin(range)} and f.status in (${list(BOUGHT_PURCHASE_STATUSES)})
      group by f.product_id, pr.name
      having sum(f.purchases) > 0
      order by total desc, purchases desc`),
  );
  const products = rows.map((r) => ({ product_id: nullableNum(r.product_id), name: text(r.name), purchases: num(r.purchases), total: num(r.total) }));
  const [revoked] = rowsOf(
    await db.execute(sql`
      select coalesce(sum(purchases), 0) as count, coalesce(sum(total), 0) as total from daily_purchase_figures
      where ${daysWithin(range)} and status = 'revoked'`),
  );
  return {
    ...range,
    purchases: products.reduce((s, p) => s + p.purchases, 0),
    total: cents(products.reduce((s, p) => s + p.total, 0)),
    revoked: { count: num(revoked.count), total: cents(num(revoked.total)) },
    products,
  };
}

/** Words the balances lost to answers and enhancements, per day (the ledger's charges). */
export async function wordsAnalytics({ actor, db, range }: Scope) {
  analyticsRules.authorize(actor, 'read', null);
  const rows = rowsOf(
    await db.execute(sql`
      select ${day(sql`l.created_at`)} as date, coalesce(sum(-l.words), 0) as words
      from credit_ledger l
      where l.source_type in ('message', 'enhance') and ${within(sql`l.created_at`, range)}
      group by 1 order by 1`),
  );
  const days = rows.map((r) => ({ date: String(r.date), words: num(r.words) }));
  return { ...range, words: days.reduce((s, d) => s + d.words, 0), days };
}

/**
 * Per calendar month of the range: income and payments (paid invoices, net as on the Income page), sign-ups
 * and purchases bought (the daily summaries).
 */
export async function monthlyAnalytics({ actor, db, range }: Scope) {
  analyticsRules.authorize(actor, 'read', null);
  const month = sql`to_char(day, 'YYYY-MM')`;
  const rows = rowsOf(
    await db.execute(sql`
      with paid as (
        select ${month} as month, sum(invoices) as payments, sum(total) as income from daily_invoice_figures
        where ${daysWithin(range)} and status in (${list(PAID_INVOICE_STATUSES)}) group by 1 having sum(invoices) > 0
      ), joined as (
        select ${month} as month, sum(signups) as signups from daily_signups where ${daysWithin(range)} group by 1 having sum(signups) > 0
      ), bought as (
        select ${month} as month, sum(purchases) as purchases from daily_purchase_figures
        where ${daysWithin(range)} and status in (${list(BOUGHT_PURCHASE_STATUSES)}) group by 1 having sum(purchases) > 0
      ), months as (select month from paid union select month from joined union select month from bought)
      select m.month, coalesce(paid.income, 0) as income, coalesce(paid.payments, 0) as payments,
        coalesce(joined.signups, 0) as signups, coalesce(bought.purchases, 0) as purchases
      from months m left join paid using (month) left join joined using (month) left join bought using (month)
      order by m.month`),
  );
  const leftOut = await paymentsLeftOut(db, range);
  return {
    ...range,
    months: rows.map((r) => {
      const out = sumOf(leftOut.filter((o) => o.month === String(r.month)));
      return { month: String(r.month), income: cents(num(r.income) - out.total), payments: num(r.payments) - out.count, signups: num(r.signups), purchases: num(r.purchases) };
    }),
  };
}

/** Free trials started: purchases made in the range with trial days, per product. */
export async function freeTrialsAnalytics({ actor, db, range }: Scope) {
  analyticsRules.authorize(actor, 'read', null);
  const rows = rowsOf(
    await db.execute(sql`
      select p.product_id, pr.name, count(*) as free_trials
      from purchases p left join products pr on pr.product_id = p.product_id
      where ${within(sql`p.created_at`, range)} and p.free_trial_length > 0
      group by p.product_id, pr.name order by free_trials desc`),
  );
  const products = rows.map((r) => ({ product_id: nullableNum(r.product_id), name: text(r.name), free_trials: num(r.free_trials) }));
  return { ...range, free_trials: products.reduce((s, p) => s + p.free_trials, 0), products };
}

/**
 * Beyond the spec: AI usage per model and day from the credits ledger — each charge of an answer (its
 * first writing or a Continue, source 'message' `{id}` or `{id}:continue:{n}`) joined to its message for
 * the model, and prompt enhancements as the model 'enhance'. Words are what the balances lost (an
 * unlimited balance loses none); messages count the charges.
 */
export async function aiUsageAnalytics({ actor, db, range }: Scope) {
  analyticsRules.authorize(actor, 'read', null);
  const rows = rowsOf(
    await db.execute(sql`
      select ${day(sql`l.created_at`)} as date,
        coalesce(m.model, case when l.source_type = 'enhance' then 'enhance' else 'unknown' end) as model,
        coalesce(sum(-l.words), 0) as words, count(*) as messages
      from credit_ledger l
      -- The case keeps the cast to answers' ids (an enhancement's id is not a number).
      left join messages m on m.message_id = case when l.source_type = 'message' then split_part(l.source_id, ':', 1)::int end
      where l.source_type in ('message', 'enhance') and ${within(sql`l.created_at`, range)}
      group by 1, 2 order by 1, 2`),
  );
  const days = rows.map((r) => ({ date: String(r.date), model: String(r.model), words: num(r.words), messages: num(r.messages) }));
  const byModel = new Map<string, { model: string; words: number; messages: number }>();
  for (const d of days) {
    const entry = byModel.get(d.model) ?? { model: d.model, words: 0, messages: 0 };
    entry.words += d.words;
    entry.messages += d.messages;
    byModel.set(d.model, entry);
  }
  const models = [...byModel.values()].sort((a, b) => b.words - a.words);
  const searches = await webSearchUsage(db, range);
  return { ...range, words: models.reduce((s, m) => s + m.words, 0), messages: models.reduce((s, m) => s + m.messages, 0), models, days, searches };
}

/** Web searches (issue 32, web_searches): per provider and day, with those that failed and the pages read. */
async function webSearchUsage(db: Db, range: DateRange) {
  const rows = rowsOf(
    await db.execute(sql`
      select ${day(sql`created_at`)} as date, provider, count(*) as searches,
        count(*) filter (where failed) as failed, coalesce(sum(pages_read), 0) as pages_read
      from web_searches where ${within(sql`created_at`, range)}
      group by 1, 2 order by 1, 2`),
  );
  const add = <T extends { searches: number; failed: number; pages_read: number }>(map: Map<string, T>, key: string, empty: T, r: Record<string, unknown>) => {
    const entry = map.get(key) ?? empty;
    entry.searches += num(r.searches);
    entry.failed += num(r.failed);
    entry.pages_read += num(r.pages_read);
    map.set(key, entry);
  };
  const byProvider = new Map<string, { provider: string; searches: number; failed: number; pages_read: number }>();
  const byDay = new Map<string, { date: string; searches: number; failed: number; pages_read: number }>();
  for (const r of rows) {
    add(byProvider, String(r.provider), { provider: String(r.provider), searches: 0, failed: 0, pages_read: 0 }, r);
    add(byDay, String(r.date), { date: String(r.date), searches: 0, failed: 0, pages_read: 0 }, r);
  }
  const providers = [...byProvider.values()].sort((a, b) => b.searches - a.searches);
  const total = (field: 'searches' | 'failed' | 'pages_read') => providers.reduce((s, p) => s + p[field], 0);
  return { searches: total('searches'), failed: total('failed'), pages_read: total('pages_read'), providers, days: [...byDay.values()] };
}
