// The three ways a purchase is paid (spec part 1 §7 POST /checkout/attempt, POST /checkout), each
// resolving with the purchase id for /thankyou/{purchase_id}. Stripe.js confirms with
// `redirect: 'if_required'`: cards stay on this page (3-D Secure opens over it); a method that must
// leave the page comes back to the thank-you page through `return_url`.
import type { Stripe, StripeElements } from '@stripe/stripe-js';
import { attemptCheckout, checkoutWithSavedCard, type CheckoutAttemptResponse } from './checkout-api';
import { StripeConfirmError } from './checkout-errors';

export const thankYouUrl = (purchaseId: number) => `${window.location.origin}/thankyou/${purchaseId}`;

async function confirmAttempt(stripe: Stripe, elements: StripeElements | null, attempt: CheckoutAttemptResponse): Promise<number> {
  if (attempt.kind === 'none' || !attempt.clientSecret) return attempt.purchase_id;
  const clientSecret = attempt.clientSecret;
  let result: { error?: { message?: string; type?: string; code?: string } };
  if (!elements) {
    // A saved card: the server already confirmed it; the bank asked for 3-D Secure.
    result = await stripe.handleNextAction({ clientSecret });
  } else {
    const confirmParams = { return_url: thankYouUrl(attempt.purchase_id) };
    result =
      attempt.kind === 'setup'
        ? await stripe.confirmSetup({ elements, clientSecret, confirmParams, redirect: 'if_required' })
        : await stripe.confirmPayment({ elements, clientSecret, confirmParams, redirect: 'if_required' });
  }
  if (result.error) throw new StripeConfirmError(result.error);
  return attempt.purchase_id;
}

/** A new card in the Payment Element: check the form, create the purchase, confirm it with Stripe. */
export async function payWithNewCard(options: { stripe: Stripe; elements: StripeElements; productId: number; discountCode?: string }): Promise<number> {
  const { stripe, elements, productId, discountCode } = options;
  // Stripe's deferred-intent flow: the form is checked (and wallets collected) before the intent exists.
  const submitted = await elements.submit();
  if (submitted.error) throw new StripeConfirmError(submitted.error);
  const attempt = await attemptCheckout(productId, discountCode);
  return confirmAttempt(stripe, elements, attempt);
}

/** A saved card: the server charges it; 3-D Secure, when asked for, runs here. */
export async function payWithSavedCard(options: { stripe: Stripe | null; productId: number; paymentSourceId: string; discountCode?: string }): Promise<number> {
  const attempt = await checkoutWithSavedCard(options.productId, options.paymentSourceId, options.discountCode);
  if (attempt.kind === 'none' || !attempt.clientSecret) return attempt.purchase_id;
  if (!options.stripe) throw new Error('Stripe.js is not loaded');
  return confirmAttempt(options.stripe, null, attempt);
}

/** Nothing to pay (a one-time product fully discounted): the server completes the purchase at once. */
export async function payNothing(productId: number, discountCode?: string): Promise<number> {
  const attempt = await attemptCheckout(productId, discountCode);
  if (attempt.kind !== 'none') throw new Error('A payment is needed after all');
  return attempt.purchase_id;
}
