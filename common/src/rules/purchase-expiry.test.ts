import { describe, expect, it } from 'vitest';
import { accessEndsAt, addPeriod, purchaseExpiryDate, purchaseGivesAccess, VALID_PURCHASE_STATUSES, type PurchaseForExpiry } from './purchase-expiry';
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
  it('clamps month ends', () => {
    expect(addPeriod(new Date('2026-01-31T00:00:00Z'), 1, 'month').toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(addPeriod(new Date('2026-01-31T00:00:00Z'), 1, 'year').toISOString()).toBe('2027-01-31T00:00:00.000Z');
    expect(addPeriod(new Date('2026-01-31T00:00:00Z'), 3, 'day').toISOString()).toBe('2026-02-03T00:00:00.000Z');
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
