// Back-office customers (spec part 1 §2 "Admin customers table", "Customer detail", "Customer form"; §7).
// Framework-free (DESIGN.md §7); each operation authorizes its actor through customerRules (policy.ts,
// docs/decisions.md "Staff rights").
import type { CustomerForm, CustomerListQuery } from '@pluma/common/admin-users';
import { CUSTOMERS_PAGE_SIZE, customerListQuery } from '@pluma/common/admin-users';
import { ErrorIds } from '@pluma/common/errors';
import { desc, eq, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { files, invoices, products, purchases, staff, users } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { invalidateUser } from '../../platform/auth/invalidation';
import { AppError, notFound } from '../../platform/http/errors';
import { escapeLikePattern } from '../../platform/http/like-pattern';
import type { Log } from '../../platform/log';
import { createSignInToken } from '../../platform/auth/one-time-tokens';
import { sendResetPasswordLink } from './recovery';
import { rarestWindows, trigramFrequencies, trigramMatch, trigramWindows, type TrigramStatistics } from './trigram-search';
import { deleteAccount } from './account-deletion';
import { customerRules } from './policy';
import { findUserByEmail } from './queries';
import { rowsOf } from '../../db/rows';

/** Invoice statuses that mean money was received (spec part 1 §9 "Successful" filter, and providers' words). Migration 0009's triggers repeat these and the purchases' below: change both together. */
export const PAID_INVOICE_STATUSES = ['active', 'completed', 'success', 'succeeded', 'paid'] as const;
/** Purchases staff recorded as paid (given with a total) count when no invoice stands for them. */
export const PAID_PURCHASE_STATUSES = ['active', 'completed', 'cancelled'] as const;

const inList = (values: readonly string[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);

/** Words used: the charges of the credits ledger (negative entries). */
const wordsUsedSql = (userId: SQL) => sql`(select coalesce(-sum(l.words), 0)::int from credit_ledger l where l.user_id = ${userId} and l.words < 0)`;

/**
 * Lifetime value in dollars: paid invoices, plus paid purchases staff gave with a total that no invoice
 * stands for (a provider's payment always has its invoice, so nothing counts twice). Gifts count 0.
 */
const lifetimeValueSql = (userId: SQL) => sql`(
  (select coalesce(sum(i.total_payment), 0) from invoices i where i.user_id = ${userId} and i.status in (${inList(PAID_INVOICE_STATUSES)}))
  + (select coalesce(sum(p.total_payment), 0) from purchases p
     where p.user_id = ${userId} and p.status in (${inList(PAID_PURCHASE_STATUSES)}) and not p.is_gift
       and not exists (select 1 from invoices i2 where i2.purchase_id = p.purchase_id))
)::float8`;

export interface CustomerListRow {
  userId: number;
  name: string;
  lastName: string;
  email: string;
  phone: string | null;
  role: string | null;
  totalWords: number;
  lastUsedAt: Date | null;
  ltv: number;
  createdAt: Date;
}

const SORT_SQL: Record<string, SQL> = {
  user_id: sql`u.user_id`,
  name: sql`lower(u.name)`,
  email: sql`lower(u.email)`,
  role: sql`coalesce(s.role, 'customer')`,
  // The summaries the triggers of migration 0009 keep, so these sorts read an index (users_words_used_idx,
  // users_lifetime_value_idx) instead of summing every customer's ledger and payments (docs/decisions.md
  // "Back-office at scale").
  total_words: sql`u.words_used`,
  last_used: sql`u.last_used_at`,
  ltv: sql`u.lifetime_value`,
};

/** The full name as users_full_name_trgm_idx indexes it (migration 0011): the expression must match it exactly. */
const FULL_NAME = sql`(u.name || ' ' || u.last_name)`;

/**
 * Substring search, served by the pg_trgm indexes of migration 0011. A first or last name that contains the
 * query makes the full name contain it too, so the full name's condition is added (exact, and indexed) and
 * "all" needs no separate first and last name conditions. The email and the full name ask their index for
 * the query's rarest trigrams only (trigram-search.ts): same rows as a plain ILIKE.
 */
async function searchFilter(db: Db, field: string, query: string): Promise<SQL> {
  const pattern = `%${escapeLikePattern(query)}%`;
  // Phones are stored as digits; a query with letters is no phone.
  const digits = /\p{L}/u.test(query) ? '' : query.replace(/\D/g, '');
  const byPhone = digits ? sql`u.phone like ${`%${digits}%`}` : sql`false`;
  if (field === 'phone') return byPhone;
  const statistics: TrigramStatistics[] =
    field === 'email' ? ['users_email_trgm_stats'] : field === 'all' ? ['users_email_trgm_stats', 'users_full_name_trgm_stats'] : ['users_full_name_trgm_stats'];
  const windows = trigramWindows(query);
  const frequencies = await trigramFrequencies(db, statistics, windows);
  const probes = (name: TrigramStatistics) => {
    const found = frequencies.get(name);
    return found ? rarestWindows(windows, found) : [];
  };
  const byEmail = () => trigramMatch(sql`u.email`, pattern, probes('users_email_trgm_stats'));
  const byFullName = () => trigramMatch(FULL_NAME, pattern, probes('users_full_name_trgm_stats'));
  switch (field) {
    case 'name':
      return sql`(${byFullName()} and u.name ilike ${pattern})`;
    case 'last_name':
      return sql`(${byFullName()} and u.last_name ilike ${pattern})`;
    case 'email':
      return byEmail();
    default:
      return sql`(${byFullName()} or ${byEmail()} or ${byPhone})`;
  }
}

/** Midnight UTC of a YYYY-MM-DD day (the list's dates are UTC days, as daily_signups counts them). */
const utcMidnight = (day: string) => sql`(${day}::date)::timestamp at time zone 'UTC'`;

/** Sorts by a figure of migration 0009 (which users_created_figures_idx also holds). */
const FIGURE_SORTS = new Set(['ltv', 'total_words', 'last_used']);
/**
 * Up to this many sign-ups in the range, a figure sort reads the range's rows (users_created_figures_idx)
 * and sorts them. Walking the figure's index instead and skipping rows outside the range is what the planner
 * picks, but a recent range holds the newest customers, whose value is lowest: it walked most of the table
 * (521 ms for this month at 1,000,000 customers; docs/decisions.md "Back-office at scale").
 */
const RANGE_FIRST_MAX_ROWS = 200_000;


/** How many customers match: the per-day sign-ups (migration 0011) unless a search narrows them. */
async function countCustomers(db: Db, q: ReturnType<typeof customerListQuery.parse>, whereSql: SQL): Promise<number> {
  if (q.query) {
    const [row] = rowsOf(await db.execute(sql`select count(*) as total from users u ${whereSql}`));
    return Number(row?.total ?? 0);
  }
  const days: SQL[] = [];
  if (q.start_date) days.push(sql`day >= ${q.start_date}::date`);
  if (q.end_date) days.push(sql`day <= ${q.end_date}::date`);
  const where = days.length > 0 ? sql`where ${sql.join(days, sql` and `)}` : sql``;
  const [row] = rowsOf(await db.execute(sql`select coalesce(sum(signups), 0) as total from daily_signups ${where}`));
  return Number(row?.total ?? 0);
}

/**
 * GET /users/admin/all: 50 a page, filtered, sorted and counted in SQL. The date range is the sign-up day,
 * inclusive, in UTC; words and value are the summaries the triggers of migration 0009 keep.
 */
export async function listCustomers({ actor, db, query }: { actor: Actor; db: Db; query: CustomerListQuery }): Promise<{ rows: CustomerListRow[]; total: number }> {
  customerRules.authorize(actor, 'read', null);
  const q = customerListQuery.parse(query);
  const range: SQL[] = [];
  if (q.start_date) range.push(sql`u.created_at >= ${utcMidnight(q.start_date)}`);
  if (q.end_date) range.push(sql`u.created_at < ${utcMidnight(q.end_date)} + interval '1 day'`);
  const where = q.query ? [...range, await searchFilter(db, q.field, q.query)] : range;
  const whereSql = where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``;
  const direction = q.direction === 'asc' ? sql`asc` : sql`desc`;
  // Unused customers ('Not used yet') come last whichever way last use is sorted.
  const nulls = q.sort === 'last_used' ? sql`nulls last` : sql``;
  const order = sql`order by ${SORT_SQL[q.sort]} ${direction} ${nulls}, u.user_id ${direction}`;
  const offset = (q.page - 1) * CUSTOMERS_PAGE_SIZE;
  // The page and the count are two queries: a count(*) over () window would read every matching row before
  // the first 50 (all customers when no filter is set), where the page alone stops after 50 index entries.
  // Unsearched, the count is cheap (daily_signups) and decides the plan below; a search's count comes after
  // the page, and not at all when the page says it (fewer than 50 rows: the total is the rows before and on it).
  const summed = q.query ? null : await countCustomers(db, q, whereSql);
  const columns = sql`u.user_id, u.name, u.last_name, u.email, u.phone, s.role, u.last_used_at, u.created_at,
           u.words_used as total_words, u.lifetime_value::float8 as ltv`;
  // The page's ids first, from the sort's index alone (users_lifetime_value_idx, users_words_used_idx,
  // users_last_used_desc_idx hold the id): an offset of 4,950 then skips index entries, not table rows. The
  // staff join is dropped by the planner unless the role sorts.
  const rangeFirst = summed !== null && range.length > 0 && FIGURE_SORTS.has(q.sort) && summed <= RANGE_FIRST_MAX_ROWS;
  // offset 0 is a fence: the range's rows are read first (users_created_figures_idx holds the figures), the
  // planner cannot walk the figure's index instead.
  const source = rangeFirst
    ? sql`(select u.user_id, u.lifetime_value, u.words_used, u.last_used_at from users u ${whereSql} offset 0) u`
    : sql`users u left join staff s on s.user_id = u.user_id ${whereSql}`;
  const result = await db.execute(sql`
    with page as (select u.user_id from ${source} ${order} limit ${CUSTOMERS_PAGE_SIZE} offset ${offset})
    select ${columns}
    from page join users u on u.user_id = page.user_id left join staff s on s.user_id = u.user_id
    ${order}`);
  const raw = rowsOf(result);
  const pageTells = raw.length < CUSTOMERS_PAGE_SIZE && (raw.length > 0 || q.page === 1);
  const total = summed ?? (pageTells ? offset + raw.length : await countCustomers(db, q, whereSql));
  return {
    total,
    rows: raw.map((r) => ({
      userId: Number(r.user_id),
      name: String(r.name),
      lastName: String(r.last_name),
      email: String(r.email),
      phone: (r.phone as string | null) ?? null,
      role: (r.role as string | null) ?? null,
      totalWords: Number(r.total_words),
      lastUsedAt: r.last_used_at == null ? null : new Date(r.last_used_at as string),
      ltv: Number(r.ltv),
      createdAt: new Date(r.created_at as string),
    })),
  };
}

/** GET /users/{id}/admin: the customer, their purchases and invoices (newest first), words and value. */
export async function readCustomer({ actor, db, userId }: { actor: Actor; db: Db; userId: number }) {
  customerRules.authorize(actor, 'read', null);
  const [row] = await db
    .select({
      user: users,
      staff: { staffId: staff.staffId, role: staff.role },
      picture: { fileId: files.fileId, publicName: files.publicName, type: files.type },
      totalWords: sql<number>`${wordsUsedSql(sql`${users.userId}`)}`,
      value: sql<number>`${lifetimeValueSql(sql`${users.userId}`)}`,
    })
    .from(users)
    .leftJoin(staff, eq(staff.userId, users.userId))
    .leftJoin(files, eq(files.fileId, users.fileId))
    .where(eq(users.userId, userId))
    .limit(1);
  if (!row) throw notFound();
  const purchaseRows = await db
    .select({ purchase: purchases, productName: products.name })
    .from(purchases)
    .leftJoin(products, eq(products.productId, purchases.productId))
    .where(eq(purchases.userId, userId))
    .orderBy(desc(purchases.createdAt), desc(purchases.purchaseId));
  const invoiceRows = await db.select().from(invoices).where(eq(invoices.userId, userId)).orderBy(desc(invoices.createdAt), desc(invoices.invoiceId));
  return {
    ...row,
    staff: row.staff?.staffId ? row.staff : null,
    picture: row.picture?.fileId ? row.picture : null,
    totalWords: Number(row.totalWords),
    value: Number(row.value),
    purchases: purchaseRows,
    invoices: invoiceRows,
  };
}
export type CustomerRows = Awaited<ReturnType<typeof readCustomer>>;

function formFields(input: CustomerForm): Partial<typeof users.$inferInsert> {
  const fields: Partial<typeof users.$inferInsert> = { name: input.name, lastName: input.last_name, email: input.email, lang: input.lang };
  if (input.phone !== undefined) fields.phone = input.phone || null;
  if (input.instagram !== undefined) fields.instagram = input.instagram || null;
  if (input.signup_reason !== undefined) fields.signupReason = input.signup_reason || null;
  if (input.birthday !== undefined) fields.birthday = input.birthday;
  return fields;
}

async function assertEmailFree(db: Db, email: string, exceptUserId?: number) {
  const existing = await findUserByEmail({ db, email });
  if (existing && existing.userId !== exceptUserId) throw new AppError(409, ErrorIds.emailExists, 'email_taken');
}

/**
 * POST /users/admin/user: an account without sign-up and without a password; the customer gets the
 * password-reset email (to the outbox when SMTP is not set) to choose one.
 */
export async function createCustomer(options: { ctx: AppContext; actor: Actor; input: CustomerForm; baseUrl: string; log: Log }) {
  const { ctx, actor, input } = options;
  customerRules.authorize(actor, 'edit', null);
  await assertEmailFree(ctx.db, input.email);
  const [user] = await ctx.db.insert(users).values({ name: input.name, email: input.email, ...formFields(input) }).returning();
  try {
    await sendResetPasswordLink({ ctx, email: user.email, baseUrl: options.baseUrl, log: options.log });
  } catch (err) {
    // The account exists; the reset email can be sent again from the customer's page.
    options.log.error({ err, userId: user.userId }, 'reset email of a created customer failed');
  }
  return user;
}

/** PUT /users/admin/{id}: the form's fields; returns the user before and after (the audit diff). */
export async function updateCustomer({ actor, db, userId, input }: { actor: Actor; db: Db; userId: number; input: CustomerForm }) {
  customerRules.authorize(actor, 'edit', null);
  const [before] = await db.select().from(users).where(eq(users.userId, userId)).limit(1);
  if (!before) throw notFound();
  await assertEmailFree(db, input.email, userId);
  const [after] = await db
    .update(users)
    .set({ ...formFields(input), updatedAt: new Date() })
    .where(eq(users.userId, userId))
    .returning();
  invalidateUser(userId);
  return { before, after };
}

/** DELETE /users/admin/{id}: never the caller's own account (DELETE /users is for that), never the last admin. */
export async function deleteCustomer({ ctx, actor, userId, log }: { ctx: AppContext; actor: Actor; userId: number; log: Pick<Log, 'warn'> }) {
  customerRules.authorize(actor, 'delete', null);
  if (userId === actor.user.userId) throw new AppError(409, ErrorIds.conflict, 'cannot_delete_self');
  const [user] = await ctx.db.select({ userId: users.userId }).from(users).where(eq(users.userId, userId)).limit(1);
  if (!user) throw notFound();
  await deleteAccount({ ctx, userId, log, lastAdminMessage: 'last_admin_staff' });
}

/**
 * "Log in as the user": a 5-minute one-time sign-in token that opens a session recording the admin
 * (sessions.impersonated_by, auth/service.ts exchangeSignInToken). Never for a staff member: that would
 * hand one staff member another's rights.
 */
export async function issueImpersonation({ ctx, actor, userId }: { ctx: AppContext; actor: Actor; userId: number }): Promise<string> {
  customerRules.authorize(actor, 'impersonate', null);
  const [target] = await ctx.db
    .select({ userId: users.userId, staffId: staff.staffId })
    .from(users)
    .leftJoin(staff, eq(staff.userId, users.userId))
    .where(eq(users.userId, userId))
    .limit(1);
  if (!target) throw notFound();
  if (target.staffId != null) throw new AppError(403, ErrorIds.forbidden, 'impersonate_staff_forbidden');
  return createSignInToken(ctx, target.userId, actor.user.userId);
}
