import { describe, expect, it } from 'vitest';
import { addPeriod, purchaseExpiryDate, purchaseGivesAccess, type PurchaseForExpiry } from './purchase-expiry';

const base: PurchaseForExpiry = {
  status: 'active',
  createdAt: new Date('2026-01-31T10:00:00Z'),
  updatedAt: new Date('2026-01-31T10:00:00Z'),
  expirationDays: null,
  subscriptionInterval: 1,
  subscriptionPeriod: 'month',
  freeTrialLength: null,
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
    expect(purchaseGivesAccess({ ...base, status: 'cancelled', expirationDays: 30 }, now)).toBe(false);
  });
});
