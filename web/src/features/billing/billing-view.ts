// What the /billing tables show, as pure functions (each rule unit-tested): status badges, which purchase
// can be cancelled, and until when a cancelled subscription keeps access (common's expiry rule, spec part 1 §4).
import type { OwnInvoiceRecord, OwnPurchaseRecord, PaymentSourceRecord } from '@pluma/common/checkout';
import { accessEndsAt } from '@pluma/common/rules/purchase-expiry';

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
};

/** The badge of a purchase or invoice status; an unknown status is shown as sent, in grey. */
export function statusBadge(status: string): StatusBadge | null {
  return BADGES[status] ?? null;
}

export const isSubscription = (p: Pick<OwnPurchaseRecord, 'subscription_id' | 'subscription_period'>) => p.subscription_id != null || p.subscription_period != null;

/** spec part 1 §4: a user can cancel their own active subscription. */
export const canCancel = (p: Pick<OwnPurchaseRecord, 'status' | 'subscription_id' | 'subscription_period'>) => p.status === 'active' && isSubscription(p);

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
  return new Intl.DateTimeFormat(lang === 'es' ? 'es' : 'en-US', { year: 'numeric', month: 'short', day: 'numeric' }).format(typeof iso === 'string' ? new Date(iso) : iso);
}

/** Dollars with two decimals (spec part 1 §5). */
export const formatMoney = (amount: number) => `$${amount.toFixed(2)}`;

/** spec part 1 §3 Payment source: card_type is visa, mastercard or other; the key of its brand name. */
export const cardBrandKey = (cardType: PaymentSourceRecord['card_type']) => `cards.brands.${cardType}`;

/** "•••• 4242": only the last digits are known (card data never reaches us). */
export const maskedCardNumber = (lastDigits: string) => `•••• ${lastDigits}`;

/** MM/YY, or null when Stripe gave no expiry. */
export function cardExpiry(card: Pick<PaymentSourceRecord, 'exp_month' | 'exp_year'>): string | null {
  if (!card.exp_month || !card.exp_year) return null;
  return `${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year % 100).padStart(2, '0')}`;
}
