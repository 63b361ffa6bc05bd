// Access that ends without a visit (issue 10 item 7): a purchase's access ends at its expiry date
// (rules/purchase-expiry.ts) whether or not anyone calls the API then. Every ACCESS_EXPIRY_INTERVAL_MS this
// watch finds the purchases whose access ended since its last run and announces invalidateUser for their
// users, so cached actors, GET /api/users and the sockets' session re-check (platform/auth/invalidation.ts)
// all see the end at once. It only announces: has_access is always computed by the rule itself.
//
// The SQL expiry below only narrows the rows read (with ACCESS_EXPIRY_SLACK_MS either side, which covers
// the database's own calendar and time zone); which purchases ended is decided by purchaseExpiryDate.
import { ACCESS_PURCHASE_STATUSES, purchaseExpiryDate } from '@pluma/common/rules/purchase-expiry';
import { and, inArray, isNotNull, lte, ne, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { purchases } from '../../db/schema';
import { invalidateUser } from '../../platform/auth/invalidation';
import { purchaseTermsColumns } from '../credits';

export const ACCESS_EXPIRY_INTERVAL_MS = 30_000;
/** How far back the first run looks (a restart, a paused process). Extra announcements are harmless. */
export const ACCESS_EXPIRY_FIRST_LOOKBACK_MS = 60 * 60_000;
const ACCESS_EXPIRY_SLACK_MS = 4 * 86_400_000;

export interface ExpiryWatchLog {
  error(obj: unknown, msg?: string): void;
}

const periodInterval = sql`(CASE ${purchases.subscriptionPeriod}
  WHEN 'day' THEN make_interval(days => coalesce(${purchases.subscriptionInterval}, 1))
  WHEN 'year' THEN make_interval(years => coalesce(${purchases.subscriptionInterval}, 1))
  ELSE make_interval(months => coalesce(${purchases.subscriptionInterval}, 1)) END)`;
const trialEnd = sql`(${purchases.createdAt} + make_interval(days => coalesce(${purchases.freeTrialLength}, 0)))`;

/** purchaseExpiryDate in SQL, approximately (see the header): for narrowing only. */
const approximateExpiry = sql<Date>`(CASE
  WHEN ${purchases.expirationDays} IS NOT NULL THEN ${purchases.createdAt} + make_interval(days => ${purchases.expirationDays})
  WHEN ${purchases.status} = 'cancelled' THEN greatest(${trialEnd}, ${purchases.updatedAt} + ${periodInterval})
  ELSE ${trialEnd} + ${periodInterval} END)`;

/** The users whose access from some purchase ended in (since, until]; each is announced once. */
export async function announceEndedAccess(ctx: AppContext, window: { since: Date; until: Date }): Promise<number[]> {
  const { since, until } = window;
  if (until <= since) return [];
  const rows = await ctx.db
    .select({ userId: purchases.userId, ...purchaseTermsColumns })
    .from(purchases)
    .where(
      and(
        inArray(purchases.status, [...ACCESS_PURCHASE_STATUSES]),
        // As credits' candidatePurchasesOf: a cancelled purchase counts only with a reason (common mayGiveAccess).
        or(ne(purchases.status, 'cancelled'), isNotNull(purchases.cancelReason)),
        lte(purchases.createdAt, until),
        sql`${approximateExpiry} > ${new Date(since.getTime() - ACCESS_EXPIRY_SLACK_MS).toISOString()}::timestamptz`,
        sql`${approximateExpiry} <= ${new Date(until.getTime() + ACCESS_EXPIRY_SLACK_MS).toISOString()}::timestamptz`,
      ),
    );
  const ended = new Set<number>();
  for (const row of rows) {
    const expiry = purchaseExpiryDate(row);
    if (expiry > since && expiry <= until) ended.add(row.userId);
  }
  for (const userId of ended) invalidateUser(userId);
  return [...ended];
}

export interface ExpiryWatchOptions {
  intervalMs?: number;
  /** The clock (tests move it). */
  now?: () => Date;
}

/** A watch driven by `tick()`: each tick covers the time since the previous one. */
export function createAccessExpiryWatch(ctx: AppContext, log: ExpiryWatchLog, options: Pick<ExpiryWatchOptions, 'now'> = {}) {
  const now = options.now ?? (() => new Date());
  let last = new Date(now().getTime() - ACCESS_EXPIRY_FIRST_LOOKBACK_MS);
  let running: Promise<number[]> | null = null;
  return {
    /** Announces the access that ended since the last tick; a tick while one runs waits for it. */
    tick(): Promise<number[]> {
      if (running) return running;
      const until = now();
      running = announceEndedAccess(ctx, { since: last, until })
        .then((users) => {
          last = until;
          return users;
        })
        .catch((err: unknown) => {
          log.error({ err }, 'announcing ended access failed');
          return [];
        })
        .finally(() => {
          running = null;
        });
      return running;
    },
  };
}

/** Runs the watch every ACCESS_EXPIRY_INTERVAL_MS; returns a stop function. */
export function startAccessExpiryWatch(ctx: AppContext, log: ExpiryWatchLog, options: ExpiryWatchOptions = {}): () => void {
  const watch = createAccessExpiryWatch(ctx, log, options);
  const timer = setInterval(() => void watch.tick(), options.intervalMs ?? ACCESS_EXPIRY_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
