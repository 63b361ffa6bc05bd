// POST /api/checkout (spec part 1 §7): pays a product with a saved card (a payment source). Same rules as
// POST /checkout/attempt (checkout.ts: the product the caller may buy, the usable discount, the price
// recomputed on the server, the buying limits, a pending purchase), then Stripe charges the card now:
// - one-time: a PaymentIntent confirmed on the server with the card, on-session (off_session false), so the
//   bank may still ask for 3-D Secure: `requires_action` answers kind 'payment' with the client secret and
//   the page runs the challenge with Stripe.js;
// - subscription: created with the card as default_payment_method; its first invoice is charged at once
//   (payment_behavior allow_incomplete), and a 3-D Secure request answers the invoice's client secret.
// A declined card is a 402 and leaves nothing behind. Fulfilment stays the webhook's (fulfil.ts).
import type { CheckoutAttemptResponse, CheckoutRequest } from '@pluma/common/checkout';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import type { AppContext } from '../../context';
import { purchases } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError } from '../../platform/http/errors';
import {
  completeFree,
  couponFor,
  dropPendingPurchase,
  ensurePrice,
  insertPendingPurchase,
  knownOrganizationCustomer,
  keyFor,
  metadataOf,
  priceCheckout,
  trialParams,
} from './checkout';
import type { EffectsLog } from '../purchase-lifecycle';
import { knownCustomer, requireOwnCard } from './sources';
import { providerError } from './stripe-client';

/** A decline Stripe reported on the intent (not thrown): the same 402 as a thrown card error. */
const declined = (code: string | null | undefined) =>
  providerError(new Stripe.errors.StripeCardError({ type: 'card_error', code: code ?? 'card_declined', message: 'Your card was declined.' }));

/** The PaymentIntent paying a subscription's invoice (expanded through invoice.payments). */
function invoiceIntent(invoice: Stripe.Invoice | null): Stripe.PaymentIntent | null {
  const payment = invoice?.payments?.data?.[0]?.payment;
  const intent = payment?.payment_intent;
  return intent && typeof intent === 'object' ? intent : null;
}

export async function payWithSavedCard(options: { ctx: AppContext; actor: Actor; input: CheckoutRequest; log: EffectsLog }): Promise<CheckoutAttemptResponse> {
  const { ctx, actor, input, log } = options;
  const priced = await priceCheckout(ctx, actor, input);
  const { product, stripe, scope, baseCents, chargeCents, trial } = priced;
  // Only a card of the caller's own Stripe customer (in the product's Stripe account): anyone else's is a
  // 404, before anything is written.
  const customer = scope === null ? await knownCustomer(ctx, actor.user.userId) : await knownOrganizationCustomer(stripe, actor.user, scope).catch(() => null);
  const card = await requireOwnCard(stripe, customer, input.payment_source_id);
  // Its own confirmed PaymentIntent: never the open attempt's (whose Payment Element may still pay it).
  const purchase = await insertPendingPurchase(ctx, actor, priced, log, { reuse: false });
  const metadata = metadataOf(purchase, actor);
  const key = keyFor(purchase);
  const answer = (kind: CheckoutAttemptResponse['kind'], clientSecret: string | null, total: number): CheckoutAttemptResponse => ({
    purchase_id: purchase.purchaseId,
    kind,
    clientSecret,
    total_payment: total,
  });

  if (!product.isSubscription && chargeCents === 0) return completeFree(ctx, log, purchase);

  let subscriptionId: string | null = null;
  try {
    if (!product.isSubscription) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: chargeCents,
          currency: 'usd',
          customer: customer!,
          payment_method: card.id,
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          confirm: true,
          off_session: false,
          description: product.name,
          metadata,
        },
        { idempotencyKey: key('saved-card-intent') },
      );
      await ctx.db.update(purchases).set({ paymentProcessorId: intent.id, updatedAt: new Date() }).where(eq(purchases.purchaseId, purchase.purchaseId));
      if (intent.status === 'requires_action') return answer('payment', intent.client_secret, chargeCents / 100);
      if (intent.status === 'requires_payment_method') {
        await ctx.db.update(purchases).set({ paymentProcessorId: null }).where(eq(purchases.purchaseId, purchase.purchaseId));
        throw declined(intent.last_payment_error?.code);
      }
      // succeeded (or processing): the webhook completes the purchase.
      return answer('none', null, chargeCents / 100);
    }

    const price = await ensurePrice(ctx, stripe, product, baseCents);
    const coupon = await couponFor(stripe, priced, purchase, metadata);
    const subscription = await stripe.subscriptions.create(
      {
        customer: customer!,
        items: [{ price }],
        default_payment_method: card.id,
        payment_behavior: 'allow_incomplete',
        off_session: false,
        payment_settings: { save_default_payment_method: 'on_subscription' },
        metadata,
        ...trialParams(trial),
        ...(coupon ? { discounts: [{ coupon }] } : {}),
        expand: ['latest_invoice.confirmation_secret', 'latest_invoice.payments.data.payment.payment_intent'],
      },
      { idempotencyKey: key('saved-card-subscription') },
    );
    subscriptionId = subscription.id;
    await ctx.db.update(purchases).set({ subscriptionId: subscription.id, updatedAt: new Date() }).where(eq(purchases.purchaseId, purchase.purchaseId));
    const total = trial.days ? 0 : chargeCents / 100;
    if (subscription.status !== 'incomplete') return answer('none', null, total);
    const invoice = typeof subscription.latest_invoice === 'object' ? subscription.latest_invoice : null;
    const intent = invoiceIntent(invoice);
    const secret = invoice?.confirmation_secret?.client_secret ?? intent?.client_secret ?? null;
    if (intent?.status === 'requires_action' && secret) return answer('payment', secret, total);
    throw declined(intent?.last_payment_error?.code);
  } catch (err) {
    // Nothing was charged: a subscription left incomplete is cancelled and the pending purchase goes.
    if (subscriptionId) await stripe.subscriptions.cancel(subscriptionId).catch((cancelErr: unknown) => log.warn({ err: cancelErr, subscription_id: subscriptionId }, 'cancelling a declined subscription failed'));
    await dropPendingPurchase(ctx, purchase.purchaseId);
    if (err instanceof AppError) throw err;
    log.warn({ err, purchase_id: purchase.purchaseId }, 'paying with a saved card failed');
    throw providerError(err);
  }
}

