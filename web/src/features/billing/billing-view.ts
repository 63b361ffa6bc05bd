// What the /billing tables show, as pure functions (each rule unit-tested): status badges, which purchase
// can be cancelled, and until when a cancelled subscription keeps access (common's expiry rule, spec part 1 §4).
import type { OwnInvoiceRecord, OwnPurchaseRecord, PaymentSourceRecord } from '@pluma/common/checkout';
import { accessEndsAt } from '@pluma/common/rules/purchase-expiry';
import { formatCurrency, formatDate as formatLocaleDate } from '../../i18n/format';

/** spec part 1 §9: after cancelling, the list is refreshed at once and again after 1.5 seconds. */
export const CANCEL_REFRESH_DELAY_MS = 1500;

export interface StatusBadge {
  /** Key in the billing namespace. */
  labelKey: string;
  color: string;
}

const BADGES: Record<string, StatusBadge> = {
  active: { labelKey: 'statuses.active', color: 'green' },
  completed: { labelKey: 'statuses.completed', color: 'green' },
  success: { labelKey: 'statuses.completed', color: 'green' },
  succeeded: { labelKey: 'statuses.succeeded', color: 'green' },
  pending: { labelKey: 'statuses.pending', color: 'yellow' },
  processing: { labelKey: 'statuses.pending', color: 'yellow' },
  cancelled: { labelKey: 'statuses.cancelled', color: 'gray' },
  revoked: { labelKey: 'statuses.revoked', color: 'red' },
  failed: { labelKey: 'statuses.failed', color: 'red' },
  'on-hold': { labelKey: 'statuses.pending', color: 'yellow' },
  expired: { labelKey: 'statuses.expired', color: 'gray' },
};

/** The badge of a purchase or invoice status; an unknown status is shown as sent, in grey. */
export function statusBadge(status: string): StatusBadge | null {
  return BADGES[status] ?? null;
}

export const isSubscription = (p: Pick<OwnPurchaseRecord, 'subscription_id' | 'subscription_period'>) => p.subscription_id != null || p.subscription_period != null;

/** spec part 1 §4: a user can cancel their own active subscription. */
export const canCancel = (p: Pick<OwnPurchaseRecord, 'status' | 'subscription_id' | 'subscription_period'>) => p.status === 'active' && isSubscription(p);

/**
 * A purchase as /billing reads it: `failure_reason` (the provider's reason a payment failed) comes with the
 * purchase lifecycle; optional until every server sends it.
 */
export type BillingPurchase = OwnPurchaseRecord & { failure_reason?: string | null };

/** A payment that did not go through: listed apart from the purchases, with its reason. */
export const isFailedPayment = (p: Pick<OwnPurchaseRecord, 'status'>) => p.status === 'failed';

/** What the Access column says of a purchase: a key of the billing namespace, with the date it names. */
export interface AccessLine {
  key: 'purchases.accessUntil' | 'purchases.accessEnded' | 'purchases.accessRenews' | 'purchases.accessPending' | 'purchases.accessNone';
  date: Date | null;
}

/**
 * The Access column (spec part 1 §4): a live subscription renews; a purchase that gives access (active,
 * completed, or cancelled with a reason: the common rule) lasts until its expiry date, or ended then; a
 * payment still pending gives it once paid; anything else (revoked, failed, expired, ended by its
 * provider) gives none — never an "Access until" date.
 */
export function accessLine(p: OwnPurchaseRecord, now: Date = new Date()): AccessLine {
  if (canCancel(p)) return { key: 'purchases.accessRenews', date: null };
  const end = accessEnd(p);
  if (end) return { key: end > now ? 'purchases.accessUntil' : 'purchases.accessEnded', date: end };
  if (statusBadge(p.status)?.labelKey === 'statuses.pending') return { key: 'purchases.accessPending', date: null };
  return { key: 'purchases.accessNone', date: null };
}

/** When the purchase's access ends (common rule), or null when it gives none. */
export function accessEnd(p: OwnPurchaseRecord): Date | null {
  return accessEndsAt({
    status: p.status,
    createdAt: new Date(p.createdAt),
    updatedAt: new Date(p.updatedAt),
    expirationDays: p.expiration_days,
    subscriptionInterval: p.subscription_interval,
    subscriptionPeriod: p.subscription_period,
    freeTrialLength: p.free_trial_length,
    cancelReason: p.cancel_reason,
  });
}

/** spec part 1 §5: a reason of at least 10 characters (spaces around it do not count, as on the server). */
/** spec part 1 §4: a reason of at least 10 characters (the cancel modals' one rule). */
export { cancelReasonLongEnough as cancelReasonValid } from '../../ui/CancelWithReasonModal';

export const invoiceFileName = (invoice: Pick<OwnInvoiceRecord, 'invoice_id'>) => `invoice-${invoice.invoice_id}.pdf`;

export function formatDate(iso: string | Date, lang: string): string {
  return formatLocaleDate(iso, lang, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** Dollars with two decimals (spec part 1 §5). */
export const formatMoney = (amount: number, lang?: string) => formatCurrency(amount, lang);

/** spec part 1 §3 Payment source: card_type is visa, mastercard or other; the key of its brand name. */
export const cardBrandKey = (cardType: PaymentSourceRecord['card_type']) => `cards.brands.${cardType}`;

/** "•••• 4242": only the last digits are known (card data never reaches us). */
export const maskedCardNumber = (lastDigits: string) => `•••• ${lastDigits}`;

/** MM/YY, or null when Stripe gave no expiry. */
export function cardExpiry(card: Pick<PaymentSourceRecord, 'exp_month' | 'exp_year'>): string | null {
  if (!card.exp_month || !card.exp_year) return null;
  return `${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year % 100).padStart(2, '0')}`;
}
