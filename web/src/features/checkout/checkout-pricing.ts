// What the card form must do for this product and price: Stripe's Payment Element is created before the
// server makes the intent ("deferred intent"), so its mode has to match what POST /checkout/attempt will
// answer (server/src/features/payments/checkout.ts): a PaymentIntent for one-time products, the first
// invoice of a subscription, or a SetupIntent when nothing is due now (a trial, or a 100 % discount).
import { basePriceCents } from '@pluma/common/rules/discounted-price';
import type { CheckoutProduct, DiscountLookup } from './checkout-api';

export type ElementsMode = 'payment' | 'subscription' | 'setup';

export const hasTrial = (product: Pick<CheckoutProduct, 'is_subscription' | 'free_trial_length'>) =>
  product.is_subscription && (product.free_trial_length ?? 0) > 0;

/** What will be charged, in cents: the discounted price the server confirmed, else the base price. */
export const chargeCents = (product: CheckoutProduct, discount: DiscountLookup | null) => (discount ? discount.discounted_price_cents : basePriceCents(product));

/** A one-time product that costs nothing after the discount: no card is needed (the server completes it). */
export const needsNoCard = (product: CheckoutProduct, discount: DiscountLookup | null) => !product.is_subscription && chargeCents(product, discount) === 0;

export function elementsMode(product: CheckoutProduct, discount: DiscountLookup | null): ElementsMode {
  if (!product.is_subscription) return 'payment';
  return hasTrial(product) || chargeCents(product, discount) === 0 ? 'setup' : 'subscription';
}
