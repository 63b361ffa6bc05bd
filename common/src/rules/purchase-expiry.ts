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
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}

/** Adds `interval` periods in UTC calendar terms (month ends clamp, as most billing systems do). */
export function addPeriod(date: Date, interval: number, period: string | null): Date {
  const d = new Date(date.getTime());
  if (period === 'day') return addDays(d, interval);
  if (period === 'year') {
    d.setUTCFullYear(d.getUTCFullYear() + interval);
    return d;
  }
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + interval);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d;
}

/**
 * Created date plus expiration_days if set; otherwise created date plus free trial days plus one
 * subscription interval; for a cancelled subscription the later of trial end and last update plus one interval.
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

export const VALID_PURCHASE_STATUSES = ['active', 'completed'] as const;

/** A purchase gives access while it is active or completed and not past its expiry date. */
export function purchaseGivesAccess(p: PurchaseForExpiry, now: Date = new Date()): boolean {
  if (!(VALID_PURCHASE_STATUSES as readonly string[]).includes(p.status)) return false;
  return purchaseExpiryDate(p) > now;
}
