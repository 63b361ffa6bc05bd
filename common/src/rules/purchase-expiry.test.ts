import { describe, expect, it } from 'vitest';
import { accessEndsAt, addPeriod, expirationDaysUntil, purchaseExpiryDate, purchaseGivesAccess, VALID_PURCHASE_STATUSES, type PurchaseForExpiry } from './purchase-expiry';
import { ACCESS_RULE_CASES } from './purchase-expiry.cases';

const base: PurchaseForExpiry = {
  status: 'active',
  createdAt: new Date('2026-01-31T10:00:00Z'),
  updatedAt: new Date('2026-01-31T10:00:00Z'),
  expirationDays: null,
  subscriptionInterval: 1,
  subscriptionPeriod: 'month',
  freeTrialLength: null,
  cancelReason: null,
};

describe('purchaseExpiryDate', () => {
  it('uses expiration_days when set', () => {
    expect(purchaseExpiryDate({ ...base, expirationDays: 30 }).toISOString()).toBe('2026-03-02T10:00:00.000Z');
  });
  it('adds trial days then one interval', () => {
    const d = purchaseExpiryDate({ ...base, createdAt: new Date('2026-01-01T00:00:00Z'), freeTrialLength: 7 });
    expect(d.toISOString()).toBe('2026-02-08T00:00:00.000Z');
  });
  // Exactly one interval, in UTC calendar terms (issue 28 item 4): [from, interval, period, until].
  it.each([
    ['2026-11-28T10:00:00Z', 1, 'month', '2026-12-28T10:00:00Z'],
    ['2026-01-31T00:00:00Z', 1, 'month', '2026-02-28T00:00:00Z'],
    ['2028-01-31T23:59:59Z', 1, 'month', '2028-02-29T23:59:59Z'],
    ['2026-03-31T12:00:00Z', 1, 'month', '2026-04-30T12:00:00Z'],
    ['2026-12-31T12:00:00Z', 2, 'month', '2027-02-28T12:00:00Z'],
    ['2026-08-31T00:00:00Z', 6, 'month', '2027-02-28T00:00:00Z'],
    ['2026-01-31T00:00:00Z', 1, 'year', '2027-01-31T00:00:00Z'],
    ['2028-02-29T08:00:00Z', 1, 'year', '2029-02-28T08:00:00Z'],
    ['2028-02-29T08:00:00Z', 4, 'year', '2032-02-29T08:00:00Z'],
    ['2026-01-31T00:00:00Z', 3, 'day', '2026-02-03T00:00:00Z'],
    ['2028-02-28T00:00:00Z', 1, 'day', '2028-02-29T00:00:00Z'],
    // Europe's and the USA's DST changes do not move a UTC date: 24 hours a day.
    ['2026-03-28T01:30:00Z', 2, 'day', '2026-03-30T01:30:00Z'],
    ['2026-03-01T07:00:00Z', 1, 'month', '2026-04-01T07:00:00Z'],
  ] as const)('%s plus %i %s is %s', (from, interval, period, until) => {
    expect(addPeriod(new Date(from), interval, period).toISOString()).toBe(new Date(until).toISOString());
  });
  it('a monthly plan bought on 28 Nov gives access until 28 Dec, with or without a trial', () => {
    const bought = { ...base, createdAt: new Date('2026-11-28T10:00:00Z'), updatedAt: new Date('2026-11-28T10:00:00Z') };
    expect(purchaseExpiryDate(bought).toISOString()).toBe('2026-12-28T10:00:00.000Z');
    expect(purchaseExpiryDate({ ...bought, freeTrialLength: 3 }).toISOString()).toBe('2027-01-01T10:00:00.000Z');
    expect(purchaseExpiryDate({ ...bought, subscriptionPeriod: 'year' }).toISOString()).toBe('2027-11-28T10:00:00.000Z');
    expect(purchaseExpiryDate({ ...bought, subscriptionPeriod: 'day', subscriptionInterval: 30 }).toISOString()).toBe('2026-12-28T10:00:00.000Z');
    // One-time with expiration_days 30 (the sample Starter).
    expect(purchaseExpiryDate({ ...bought, expirationDays: 30, subscriptionPeriod: null }).toISOString()).toBe('2026-12-28T10:00:00.000Z');
  });
  it("expiration_days from a provider's period end: the nearest whole day, never one more for the checkout's delay", () => {
    const created = new Date('2026-11-28T10:00:00.000Z');
    // The subscription created 2.4 s after the purchase row: its period ends 28 Dec 10:00:02.
    const periodEnd = addPeriod(new Date('2026-11-28T10:00:02.400Z'), 1, 'month');
    const days = expirationDaysUntil(created, periodEnd);
    expect(days).toBe(30);
    expect(purchaseExpiryDate({ ...base, createdAt: created, expirationDays: days }).toISOString().slice(0, 10)).toBe('2026-12-28');
    // Paid an hour later (3-D Secure); a trial's end; a year (leap day inside); the minimum of one day.
    expect(expirationDaysUntil(created, addPeriod(new Date('2026-11-28T11:00:00Z'), 1, 'month'))).toBe(30);
    expect(expirationDaysUntil(created, new Date('2026-12-05T10:00:01Z'))).toBe(7);
    expect(expirationDaysUntil(new Date('2027-03-01T00:00:00Z'), new Date('2028-03-01T00:00:05Z'))).toBe(366);
    expect(expirationDaysUntil(created, new Date('2026-11-28T10:00:05Z'))).toBe(1);
  });
  it('shows the expiry on the same calendar day in a browser west or east of UTC (no end-of-day shift)', () => {
    const expiry = purchaseExpiryDate({ ...base, createdAt: new Date('2026-11-28T10:00:00Z'), updatedAt: new Date('2026-11-28T10:00:00Z') });
    const dayIn = (timeZone: string) => new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'short', day: 'numeric' }).format(expiry);
    expect(dayIn('UTC')).toBe('Dec 28, 2026');
    expect(dayIn('America/Mexico_City')).toBe('Dec 28, 2026');
    expect(dayIn('Europe/Madrid')).toBe('Dec 28, 2026');
  });
  it('cancelled: later of trial end and last update plus one interval', () => {
    const cancelled = {
      ...base,
      status: 'cancelled',
      createdAt: new Date('2026-01-01T00:00:00Z'),
      updatedAt: new Date('2026-03-10T00:00:00Z'),
      freeTrialLength: 14,
    };
    expect(purchaseExpiryDate(cancelled).toISOString()).toBe('2026-04-10T00:00:00.000Z');
    const longTrial = { ...cancelled, freeTrialLength: 200 };
    expect(purchaseExpiryDate(longTrial).toISOString()).toBe('2026-07-20T00:00:00.000Z');
  });
});

describe('purchaseGivesAccess', () => {
  const now = new Date('2026-02-10T00:00:00Z');
  it('active within the period gives access', () => {
    expect(purchaseGivesAccess({ ...base, expirationDays: 30 }, now)).toBe(true);
  });
  it('expired, pending, revoked and cancelled-after-expiry do not', () => {
    expect(purchaseGivesAccess({ ...base, expirationDays: 5 }, now)).toBe(false);
    expect(purchaseGivesAccess({ ...base, status: 'pending', expirationDays: 30 }, now)).toBe(false);
    expect(purchaseGivesAccess({ ...base, status: 'revoked', expirationDays: 30 }, now)).toBe(false);
    expect(purchaseGivesAccess({ ...base, status: 'cancelled', cancelReason: 'Moving to another tool', expirationDays: 5 }, now)).toBe(false);
  });
  it('a cancelled subscription keeps access until its next invoice date (spec part 1 §4)', () => {
    const cancelled = { ...base, status: 'cancelled', cancelReason: 'Moving to another tool', expirationDays: 30 };
    expect(purchaseGivesAccess(cancelled, now)).toBe(true);
    expect(accessEndsAt(cancelled)?.toISOString()).toBe('2026-03-02T10:00:00.000Z');
    // Ended by the provider (no reason): no access.
    expect(purchaseGivesAccess({ ...cancelled, cancelReason: null }, now)).toBe(false);
    expect(accessEndsAt({ ...base, status: 'revoked', expirationDays: 30 })).toBeNull();
  });
  it("checkout's valid purchases stay active or completed", () => {
    expect([...VALID_PURCHASE_STATUSES]).toEqual(['active', 'completed']);
  });
  it.each(ACCESS_RULE_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(purchaseGivesAccess(c.purchase, c.now)).toBe(c.access);
  });
});
