// POST /api/checkout/customer_session (docs/decisions.md "Checkout screen (web)", saved cards): a Stripe
// CustomerSession for the caller's own Stripe customer, whose client secret the checkout page hands to
// Stripe's Elements (`customerSessionClientSecret`) so the Payment Element itself redisplays the saved
// cards and offers to save a new one. The session reads only the customer it names, and that customer
// is always the caller's (payment_customers by the signed-in user id; the request carries no id), so
// nobody gets a session for someone else's cards. Every call makes a new session: a client secret is
// never cached or shared between users, and each expires after Stripe's 30 minutes.
import type { CustomerSessionResponse } from '@pluma/common/checkout';
import type Stripe from 'stripe';
import type { AppContext } from '../../context';
import type { Actor } from '../../platform/auth/actor';
import { AppError } from '../../platform/http/errors';
import { ensureCustomer } from './checkout';
import type { EffectsLog } from '../purchase-lifecycle';
import { providerError, requireStripe } from './stripe-client';

/**
 * What the Payment Element may do with the customer's cards:
 * - redisplay the cards the customer agreed to keep (`allow_redisplay: 'always'`, Stripe's default filter);
 * - a "save my card" checkbox: ticked, Stripe.js sets `allow_redisplay: 'always'` and, on a one-time
 *   PaymentIntent, `setup_future_usage: 'off_session'` (payment_method_save_usage). So the server's
 *   PaymentIntent carries no setup_future_usage of its own (since API 2026-03-25.dahlia Stripe refuses
 *   both); subscriptions and trials save their card anyway (save_default_payment_method on_subscription),
 *   where the box only decides the redisplay;
 * - no removing: a saved card may back a live subscription's renewals, and removal stays with
 *   DELETE /api/payment_sources and its spec error (part 1 §8), not a click inside the card form.
 */
export const PAYMENT_ELEMENT_FEATURES: Stripe.CustomerSessionCreateParams.Components.PaymentElement.Features = {
  payment_method_redisplay: 'enabled',
  payment_method_allow_redisplay_filters: ['always'],
  payment_method_redisplay_limit: 3,
  payment_method_save: 'enabled',
  payment_method_save_usage: 'off_session',
  payment_method_remove: 'disabled',
};

/**
 * A new CustomerSession for the caller. A signed-in user without a Stripe customer gets one (once, as a
 * checkout would), so the save checkbox is offered on their first purchase too. Payments not configured
 * → 409 `payments_not_configured`; Stripe refusing or unreachable → 502.
 */
export async function createCheckoutCustomerSession(options: { ctx: AppContext; actor: Actor; log: EffectsLog }): Promise<CustomerSessionResponse> {
  const { ctx, actor, log } = options;
  // Inside an organization the checkout sells its products, paid into its Stripe account (stripe-client.ts):
  // the session must be of the customer there, for the Payment Element loaded with its publishable key.
  const scope = actor.organization?.organizationId ?? null;
  const stripe = await requireStripe(ctx, scope);
  try {
    const customer = await ensureCustomer(ctx, stripe, actor.user, scope);
    const session = await stripe.customerSessions.create({ customer, components: { payment_element: { enabled: true, features: PAYMENT_ELEMENT_FEATURES } } });
    return { customerSessionClientSecret: session.client_secret, expiresAt: new Date(session.expires_at * 1000).toISOString() };
  } catch (err) {
    if (err instanceof AppError) throw err;
    log.warn({ err, user_id: actor.user.userId }, 'creating a Stripe customer session failed');
    throw providerError(err);
  }
}
