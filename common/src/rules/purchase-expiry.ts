// spec part 1 §4: purchase expiry date and access.
export type Period = 'day' | 'month' | 'year';

export interface PurchaseForExpiry {
  status: string;
  createdAt: Date;
  updatedAt: Date;
  expirationDays: number | null;
  subscriptionInterval: number | null;
  subscriptionPeriod: string | null;
  freeTrialLength: number | null;
  /** Set when the customer or staff cancelled (both require one, spec part 1 §4, §5). */
  cancelReason: string | null;
}

const DAY_MS = 86_400_000;

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/**
 * Adds `interval` periods in UTC calendar terms, keeping the time of day: a month ends on the same day of
 * the month, clamped to the month's last day (31 Jan + 1 month = 28 Feb, 29 Feb); a year is 12 months, so
 * 29 Feb + 1 year = 28 Feb (as Stripe and PostgreSQL's interval arithmetic do, which expiry-watch's SQL uses).
 * UTC has no daylight saving, so a day is always 24 hours.
 */
export function addPeriod(date: Date, interval: number, period: string | null): Date {
  const d = new Date(date.getTime());
  if (period === 'day') return addDays(d, interval);
  const months = period === 'year' ? 12 * interval : interval;
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d;
}

/**
 * The expiration_days that make access end at a provider's period end (Stripe's current_period_end,
 * PayPal's next_billing_time), counted from the purchase's creation: the nearest whole number of days,
 * at least 1. The purchase row is written when checkout starts and the provider's period starts when the
 * subscription is created or paid, seconds to minutes later, so the exact difference is a whole number of
 * days plus that delay: rounding it up (as fulfilment did) gave a monthly plan bought on 28 Nov access
 * until 29 Dec. Rounding to the nearest day keeps the period's end day for any delay under 12 hours.
 */
export function expirationDaysUntil(createdAt: Date, periodEnd: Date): number {
  return Math.max(1, Math.round((periodEnd.getTime() - createdAt.getTime()) / DAY_MS));
}

/**
 * Created date plus expiration_days if set; otherwise created date plus free trial days plus one
 * subscription interval; for a cancelled subscription the later of trial end and last update plus one interval.
 * "Last update" of a cancelled subscription is its last renewal or creation: cancelling records the cancel
 * (status, reason, cancelledAt) without moving updated_at, so a cancel never extends access
 * (docs/decisions.md "Cancelling a subscription").
 */
export function purchaseExpiryDate(p: PurchaseForExpiry): Date {
  if (p.expirationDays != null) return addDays(p.createdAt, p.expirationDays);
  const interval = p.subscriptionInterval ?? 1;
  const period = p.subscriptionPeriod ?? 'month';
  const trialEnd = addDays(p.createdAt, p.freeTrialLength ?? 0);
  if (p.status === 'cancelled') {
    const afterUpdate = addPeriod(p.updatedAt, interval, period);
    return trialEnd > afterUpdate ? trialEnd : afterUpdate;
  }
  return addPeriod(trialEnd, interval, period);
}

/**
 * Checkout's "valid purchases" (spec part 1 §4 Checkout): active or completed, the newest by createdAt —
 * the same-product and downgrade checks. Not the access rule: see ACCESS_PURCHASE_STATUSES.
 */
export const VALID_PURCHASE_STATUSES = ['active', 'completed'] as const;

/**
 * Statuses that may give access, each until its expiry date. A cancelled purchase gives access only when it
 * was cancelled with a reason — by the customer or by staff, the two cancellations of the spec, both of
 * which promise the benefits until the next invoice date / expiry (spec part 1 §4) and require a reason.
 * A subscription its provider ended (Stripe `canceled`: fulfilment records it cancelled, without a reason)
 * is over and gives none. Shared with the SQL filter of the candidates (server credits/access.ts
 * candidatePurchasesOf) so both always agree.
 */
export const ACCESS_PURCHASE_STATUSES = ['active', 'completed', 'cancelled'] as const;

/** Whether the purchase can give access at all (before looking at its expiry). */
export function mayGiveAccess(p: Pick<PurchaseForExpiry, 'status' | 'cancelReason'>): boolean {
  if (p.status === 'cancelled') return p.cancelReason != null;
  return (ACCESS_PURCHASE_STATUSES as readonly string[]).includes(p.status);
}

/**
 * A purchase gives access while it is active or completed, or cancelled with a reason, and not past its
 * expiry date.
 */
export function purchaseGivesAccess(p: PurchaseForExpiry, now: Date = new Date()): boolean {
  if (!mayGiveAccess(p)) return false;
  return purchaseExpiryDate(p) > now;
}

/** When the purchase's access ends, or null when it gives none (pending, revoked, ended by its provider). */
export function accessEndsAt(p: PurchaseForExpiry): Date | null {
  return mayGiveAccess(p) ? purchaseExpiryDate(p) : null;
}
