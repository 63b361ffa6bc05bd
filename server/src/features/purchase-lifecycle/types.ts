// The rows and the after-commit effects every part of the lifecycle (and its provider adapters) speaks.
import type { products, purchases } from '../../db/schema';

export type PurchaseRow = typeof purchases.$inferSelect;
export type ProductRow = typeof products.$inferSelect;

/** Something to do once the transaction has committed (effects.ts runs them). */
export interface Effect {
  /**
   * activated, renewed: a payment (receipt, lead connector); changed: only the status moved; superseded: a
   * plan switched away from (its Stripe or PayPal subscription is cancelled); card_update: a renewal the
   * card did not pay; refund: a payment that arrived over a limit goes back (machine.ts OVER_LIMIT).
   */
  kind: 'activated' | 'renewed' | 'changed' | 'superseded' | 'card_update' | 'refund';
  purchase: PurchaseRow;
  product: ProductRow | null;
  /** Dollars paid (activated, renewed: the receipt; refund: what goes back) or due (card_update). */
  amount: number;
  /** The provider's payment: Stripe's PaymentIntent or invoice id, PayPal's capture or sale id. */
  orderId: string | null;
  /** superseded: the provider's subscription to cancel (Stripe sub_…, PayPal I-…). */
  subscriptionId?: string;
  /** refund: who took the payment. */
  provider?: PaymentProvider;
}

export type PaymentProvider = 'stripe' | 'paypal';
