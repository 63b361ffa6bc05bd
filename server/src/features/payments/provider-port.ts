// Stripe's side of the purchase lifecycle's provider port (purchase-lifecycle/providers.ts), registered
// when the payments routes start: cancel a switched-away (or over-limit) subscription, refund a payment that
// arrived over a limit (issue 28 item 3). Each call is idempotent at Stripe (keys per object).
import Stripe from 'stripe';
import type { AppContext } from '../../context';
import { eq } from 'drizzle-orm';
import { products, purchases } from '../../db/schema';
import { SWITCH_REASON, type PaymentProviderPort } from '../purchase-lifecycle';
import { stripeClient, type StripeScope } from './stripe-client';

/** The Stripe account a subscription bills in: its purchase's product's organization's, else the operator's. */
export async function scopeOfSubscription(ctx: AppContext, subscriptionId: string): Promise<StripeScope> {
  const [row] = await ctx.db
    .select({ organizationId: products.organizationId })
    .from(purchases)
    .innerJoin(products, eq(products.productId, purchases.productId))
    .where(eq(purchases.subscriptionId, subscriptionId))
    .limit(1);
  return row?.organizationId ?? null;
}

async function requireClient(ctx: AppContext, scope: StripeScope): Promise<Stripe> {
  const stripe = await stripeClient(ctx, scope);
  if (!stripe) throw new Error('Stripe is not configured');
  return stripe;
}

/** The PaymentIntent that paid a payment id we keep: a PaymentIntent itself, or a subscription invoice's. */
async function intentOf(stripe: Stripe, paymentId: string): Promise<string | null> {
  if (paymentId.startsWith('pi_')) return paymentId;
  if (!paymentId.startsWith('in_')) return null;
  const invoice = await stripe.invoices.retrieve(paymentId, { expand: ['payments.data.payment.payment_intent'] });
  const intent = invoice.payments?.data?.find((p) => p.status === 'paid')?.payment?.payment_intent ?? null;
  return typeof intent === 'string' ? intent : (intent?.id ?? null);
}

export const stripeProviderPort: PaymentProviderPort = {
  async cancelSubscription(ctx, subscriptionId) {
    const stripe = await requireClient(ctx, await scopeOfSubscription(ctx, subscriptionId));
    try {
      await stripe.subscriptions.cancel(subscriptionId, { cancellation_details: { comment: SWITCH_REASON } }, { idempotencyKey: `pluma-supersede-${subscriptionId}` });
    } catch (err) {
      const done = err instanceof Stripe.errors.StripeInvalidRequestError && (err.code === 'subscription_unexpected_state' || err.code === 'resource_missing');
      if (!done) throw err;
    }
  },
  async refundPayment(ctx, payment) {
    const stripe = await requireClient(ctx, payment.organizationId);
    const intent = await intentOf(stripe, payment.paymentId);
    if (!intent) throw new Error(`no Stripe payment to refund for ${payment.paymentId}`);
    try {
      await stripe.refunds.create({ payment_intent: intent, reason: 'duplicate', metadata: { purchase_id: String(payment.purchaseId) } }, { idempotencyKey: `pluma-refund-${intent}` });
    } catch (err) {
      // Refunded already (by staff at Stripe, or an earlier attempt that lost its answer): done.
      if (!(err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'charge_already_refunded')) throw err;
    }
  },
};
