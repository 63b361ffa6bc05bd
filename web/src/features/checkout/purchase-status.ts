// The thank-you page's status badge (spec part 1 §2: "from status and payment_processor_id") and when
// polling stops (spec part 1 §9: every 2 seconds until the purchase is final).
import type { OwnPurchaseRecord } from '@pluma/common/checkout';

export const PURCHASE_POLL_MS = 2000;

export type BadgeLook = { labelKey: string; color: string; status: string };

const LOOKS: Record<string, { key: string; color: string }> = {
  active: { key: 'active', color: 'green' },
  completed: { key: 'completed', color: 'green' },
  success: { key: 'completed', color: 'green' },
  succeeded: { key: 'completed', color: 'green' },
  cancelled: { key: 'cancelled', color: 'gray' },
  revoked: { key: 'revoked', color: 'red' },
  failed: { key: 'failed', color: 'red' },
};

export function purchaseBadge(purchase: Pick<OwnPurchaseRecord, 'status' | 'payment_processor_id' | 'subscription_id'>): BadgeLook {
  const look = LOOKS[purchase.status];
  if (look) return { labelKey: `thankyou.statuses.${look.key}`, color: look.color, status: purchase.status };
  if (purchase.status === 'pending') {
    // A pending purchase the provider already knows about (its payment, or its subscription — Stripe's or
    // PayPal's, whose purchases carry only subscription_id) is being paid; without one it awaits payment.
    return purchase.payment_processor_id || purchase.subscription_id
      ? { labelKey: 'thankyou.statuses.processing', color: 'blue', status: purchase.status }
      : { labelKey: 'thankyou.statuses.pending', color: 'yellow', status: purchase.status };
  }
  return { labelKey: 'thankyou.statuses.other', color: 'gray', status: purchase.status };
}

/** Still waiting for the provider: keep polling. */
export const isPurchasePending = (purchase: Pick<OwnPurchaseRecord, 'status'>) => purchase.status === 'pending' || purchase.status === 'processing';

export const isPurchaseFailed = (purchase: Pick<OwnPurchaseRecord, 'status'>) => ['cancelled', 'revoked', 'failed'].includes(purchase.status);
