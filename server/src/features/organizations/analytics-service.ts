// An organization's analytics (spec part 2 §2 "Organization analytics"; §3 "Analytics rows"): the operator's
// analytics (features/analytics) narrowed to one organization — its members' sign-ups (joining it), its
// products' purchases (purchases.organization_id, index purchases_org_created_idx) and their income — over a
// date range, the current month (UTC) by default (spec §9). What each figure counts: common/organizations.ts.
import { BOUGHT_PURCHASE_STATUSES } from '@pluma/common/analytics';
import { ORGANIZATION_ANALYTICS_LIST_LIMIT, type OrganizationAnalytics, type OrganizationAnalyticsQuery } from '@pluma/common/organizations';
import { currentMonthRange, rangeBounds, utcDay, type DateRange } from '@pluma/common/rules/date-range';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { Actor } from '../../platform/auth/actor';
import { requireOrganization } from './policy';

const list = (values: readonly string[]) => sql.join(values.map((value) => sql`${value}`), sql`, `);
const num = (value: unknown) => Number(value ?? 0);
const cents = (value: number) => Math.round(value * 100) / 100;
const isoOf = (value: unknown) => (value == null ? null : (value instanceof Date ? value : new Date(String(value))).toISOString());

type CardKind = 'signups' | 'active' | 'cancelled';

/** The people of each card as (user_id, date, cancel_reason) rows. */
function cardRows(kind: CardKind, organizationId: number, within: (column: SQL) => SQL): SQL {
  if (kind === 'signups') {
    return sql`select uo.user_id, uo.created_at as date, null::text as cancel_reason from user_organizations uo
      where uo.organization_id = ${organizationId} and ${within(sql`uo.created_at`)}`;
  }
  if (kind === 'active') {
    return sql`select p.user_id, max(p.created_at) as date, null::text as cancel_reason from purchases p
      where p.organization_id = ${organizationId} and ${within(sql`p.created_at`)} and p.status in ('active', 'completed') group by p.user_id`;
  }
  return sql`select distinct on (p.user_id) p.user_id, p.cancelled_at as date, p.cancel_reason from purchases p
    where p.organization_id = ${organizationId} and p.status = 'cancelled' and ${within(sql`p.cancelled_at`)}
    order by p.user_id, p.cancelled_at desc`;
}

async function card(db: Db, kind: CardKind, organizationId: number, within: (column: SQL) => SQL) {
  const rows = cardRows(kind, organizationId, within);
  const [counted] = rowsOf(await db.execute(sql`select count(*) as count from (${rows}) c`));
  const people = rowsOf(
    await db.execute(sql`
      select u.user_id, u.name, u.last_name, u.email, c.date, c.cancel_reason, uo.last_use,
        (select coalesce(-sum(l.words), 0) from credit_ledger l where l.user_id = u.user_id and l.words < 0 and ${within(sql`l.created_at`)}) as used_words
      from (${rows}) c join users u on u.user_id = c.user_id
      left join user_organizations uo on uo.user_id = c.user_id and uo.organization_id = ${organizationId}
      order by c.date desc, u.user_id desc
      limit ${ORGANIZATION_ANALYTICS_LIST_LIMIT}`),
  );
  return {
    count: num(counted?.count),
    users: people.map((r) => ({
      user_id: num(r.user_id),
      name: String(r.name),
      last_name: String(r.last_name),
      email: String(r.email),
      date: isoOf(r.date)!,
      last_used: isoOf(r.last_use),
      used_words: num(r.used_words),
      cancel_reason: r.cancel_reason == null ? null : String(r.cancel_reason),
    })),
  };
}

export function organizationAnalyticsRange(query: OrganizationAnalyticsQuery, now = new Date()): DateRange {
  const month = currentMonthRange(utcDay(now));
  return { start_date: query.start_date ?? month.start_date, end_date: query.end_date ?? month.end_date };
}

/** GET /organizations/{id}/analytics: for its Admins and Managers (and staff admins). */
export async function organizationAnalytics({ actor, db, organizationId, range }: { actor: Actor; db: Db; organizationId: number; range: DateRange }): Promise<OrganizationAnalytics> {
  await requireOrganization(db, actor, organizationId, 'view_analytics');
  const { from, until } = rangeBounds(range);
  const within = (column: SQL) => sql`${column} >= ${from.toISOString()}::timestamptz and ${column} < ${until.toISOString()}::timestamptz`;
  const bought = sql`p.organization_id = ${organizationId} and ${within(sql`p.created_at`)} and p.status in (${list(BOUGHT_PURCHASE_STATUSES)})`;
  const productRows = rowsOf(
    await db.execute(sql`
      select p.product_id, pr.name, count(*) as purchases, coalesce(sum(p.total_payment), 0) as total_paid
      from purchases p left join products pr on pr.product_id = p.product_id
      where ${bought}
      group by p.product_id, pr.name
      order by total_paid desc, purchases desc`),
  );
  const month = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM')`;
  const monthRows = rowsOf(
    await db.execute(sql`
      with joined as (
        select ${month(sql`created_at`)} as month, count(*) as signups from user_organizations
        where organization_id = ${organizationId} and ${within(sql`created_at`)} group by 1
      ), sold as (
        select ${month(sql`p.created_at`)} as month, count(*) as total, sum(p.total_payment) as total_paid from purchases p where ${bought} group by 1
      ), months as (select month from joined union select month from sold)
      select m.month, coalesce(joined.signups, 0) as signups, coalesce(sold.total, 0) as total, coalesce(sold.total_paid, 0) as total_paid
      from months m left join joined using (month) left join sold using (month)
      order by m.month`),
  );
  const products = productRows.map((r) => ({
    product_id: r.product_id == null ? null : num(r.product_id),
    name: r.name == null ? null : String(r.name),
    purchases: num(r.purchases),
    total_paid: cents(num(r.total_paid)),
  }));
  return {
    ...range,
    signups: await card(db, 'signups', organizationId, within),
    active: await card(db, 'active', organizationId, within),
    cancelled: await card(db, 'cancelled', organizationId, within),
    products,
    total_paid: cents(products.reduce((sum, p) => sum + p.total_paid, 0)),
    months: monthRows.map((r) => ({ month: String(r.month), signups: num(r.signups), total: num(r.total), total_paid: cents(num(r.total_paid)) })),
  };
}
