// Cases of the access rule, shared by common's test of purchaseGivesAccess and the server's test of the
// SQL candidates (credits/access.test.ts), so the two are checked against the same table.
import type { PurchaseForExpiry } from './purchase-expiry';

const created = new Date('2026-01-31T10:00:00Z');
const terms: PurchaseForExpiry = {
  status: 'active',
  createdAt: created,
  updatedAt: created,
  expirationDays: null,
  subscriptionInterval: 1,
  subscriptionPeriod: 'month',
  freeTrialLength: null,
  cancelReason: null,
};

export interface AccessRuleCase {
  name: string;
  purchase: PurchaseForExpiry;
  now: Date;
  access: boolean;
}

const at = (iso: string) => new Date(iso);

export const ACCESS_RULE_CASES: AccessRuleCase[] = [
  { name: 'active, within expiration_days', purchase: { ...terms, expirationDays: 30 }, now: at('2026-02-10T00:00:00Z'), access: true },
  { name: 'active, past expiration_days', purchase: { ...terms, expirationDays: 5 }, now: at('2026-02-10T00:00:00Z'), access: false },
  { name: 'completed one-time, within expiration_days', purchase: { ...terms, status: 'completed', expirationDays: 30, subscriptionInterval: null, subscriptionPeriod: null }, now: at('2026-02-10T00:00:00Z'), access: true },
  { name: 'active subscription, within its month', purchase: terms, now: at('2026-02-27T00:00:00Z'), access: true },
  { name: 'active subscription, after its month (month end clamps to Feb 28)', purchase: terms, now: at('2026-02-28T10:00:01Z'), access: false },
  { name: 'pending', purchase: { ...terms, status: 'pending', expirationDays: 30 }, now: at('2026-02-10T00:00:00Z'), access: false },
  { name: 'revoked', purchase: { ...terms, status: 'revoked', expirationDays: 30 }, now: at('2026-02-10T00:00:00Z'), access: false },
  { name: 'cancelled, before the next invoice date (expiration_days)', purchase: { ...terms, status: 'cancelled', cancelReason: 'Too expensive for me', expirationDays: 30 }, now: at('2026-03-02T09:59:59Z'), access: true },
  { name: 'cancelled, at the next invoice date (expiration_days)', purchase: { ...terms, status: 'cancelled', cancelReason: 'Too expensive for me', expirationDays: 30 }, now: at('2026-03-02T10:00:00Z'), access: false },
  {
    name: 'cancelled subscription, within one interval of its last renewal',
    purchase: { ...terms, status: 'cancelled', cancelReason: 'Too expensive for me', updatedAt: at('2026-03-10T00:00:00Z') },
    now: at('2026-04-09T23:59:59Z'),
    access: true,
  },
  {
    name: 'cancelled subscription, one interval after its last renewal',
    purchase: { ...terms, status: 'cancelled', cancelReason: 'Too expensive for me', updatedAt: at('2026-03-10T00:00:00Z') },
    now: at('2026-04-10T00:00:00Z'),
    access: false,
  },
  {
    name: 'cancelled during a long trial: until the trial ends',
    purchase: { ...terms, status: 'cancelled', cancelReason: 'Too expensive for me', freeTrialLength: 90 },
    now: at('2026-04-30T00:00:00Z'),
    access: true,
  },
  {
    name: 'cancelled by its provider (no reason): over at once',
    purchase: { ...terms, status: 'cancelled', expirationDays: 30 },
    now: at('2026-02-10T00:00:00Z'),
    access: false,
  },
];
