// The ways a purchase is paid (spec part 1 §7 POST /checkout/attempt), each resolving with the purchase
// id for /thankyou/{purchase_id}. The card — a new one, or a saved one the Payment Element redisplays
// through the customer session — is chosen in Stripe's Payment Element, and Stripe.js confirms with
// `redirect: 'if_required'`: cards stay on this page (3-D Secure opens over it); a method that must
// leave the page comes back to the thank-you page through `return_url`.
import type { Stripe, StripeElements } from '@stripe/stripe-js';
import { attemptCheckout } from './checkout-api';
import { StripeConfirmError } from './checkout-errors';

export const thankYouUrl = (purchaseId: number) => `${window.location.origin}/thankyou/${purchaseId}`;

/** The Payment Element's card: check the form, create the purchase, confirm it with Stripe. */
export async function payWithPaymentElement(options: { stripe: Stripe; elements: StripeElements; productId: number; discountCode?: string }): Promise<number> {
  const { stripe, elements, productId, discountCode } = options;
  // Stripe's deferred-intent flow: the form is checked (and wallets collected) before the intent exists.
  const submitted = await elements.submit();
  if (submitted.error) throw new StripeConfirmError(submitted.error);
  const attempt = await attemptCheckout(productId, discountCode);
  if (attempt.kind === 'none' || !attempt.clientSecret) return attempt.purchase_id;
  const clientSecret = attempt.clientSecret;
  const confirmParams = { return_url: thankYouUrl(attempt.purchase_id) };
  const result =
    attempt.kind === 'setup'
      ? await stripe.confirmSetup({ elements, clientSecret, confirmParams, redirect: 'if_required' })
      : await stripe.confirmPayment({ elements, clientSecret, confirmParams, redirect: 'if_required' });
  if (result.error) throw new StripeConfirmError(result.error);
  return attempt.purchase_id;
}

/** Nothing to pay (a one-time product fully discounted): the server completes the purchase at once. */
export async function payNothing(productId: number, discountCode?: string): Promise<number> {
  const attempt = await attemptCheckout(productId, discountCode);
  if (attempt.kind !== 'none') throw new Error('A payment is needed after all');
  return attempt.purchase_id;
}
