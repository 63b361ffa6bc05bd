// One-time PayPal orders (spec part 1 §7: the wallet order create row, POST /checkout/capture).
// Create: a pending purchase at the server's price and a PayPal order for exactly that amount, with the
// purchase id as custom_id. Capture: the signed-in owner's order only (anyone else's is a 404), captured
// with a PayPal-Request-Id derived from the purchase, so a repeated or concurrent capture is the same
// capture; then the order is re-read and applied under the purchase's row lock: fulfilled exactly once,
// whoever gets there first (this call, a concurrent one, or the PAYMENT.CAPTURE.COMPLETED webhook).
import type { PayPalCaptureRequest, PayPalCaptureResponse, PayPalOrderRequest, PayPalOrderResponse } from '@pluma/common/paypal';
import { PayPalErrorIds } from '@pluma/common/paypal';
import type { CheckoutPaymentIntent } from '@paypal/paypal-server-sdk';
import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { purchases } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError, notFound } from '../../platform/http/errors';
import { completeFreePurchase, runEffects, type EffectsLog } from '../purchase-lifecycle';
import { applyOrder, declineOrder } from './fulfil';
import { payPalIssue, payPalProviderError, requirePayPal } from './paypal-client';
import { createPendingPurchase } from './pending-purchase';

const orderNotApproved = () => new AppError(409, PayPalErrorIds.notApproved, 'paypal_order_not_approved');

export async function createPayPalOrder(options: { ctx: AppContext; actor: Actor; input: PayPalOrderRequest; log: EffectsLog }): Promise<PayPalOrderResponse> {
  const { ctx, actor, input, log } = options;
  const paypal = await requirePayPal(ctx);
  const { purchase, product, chargeCents } = await createPendingPurchase(ctx, actor, input, 'one-time', log);

  if (chargeCents === 0) {
    const effects = await ctx.db.transaction((tx) => completeFreePurchase(tx, purchase.purchaseId));
    await runEffects(ctx, log, effects);
    return { order_id: null, purchase_id: purchase.purchaseId, total_payment: 0 };
  }

  try {
    const { result: order } = await paypal.orders.createOrder({
      paypalRequestId: `pluma-purchase-${purchase.purchaseId}-order`,
      body: {
        // The enum's value as a literal: the SDK is loaded on first use (paypal-client.ts).
        intent: 'CAPTURE' as CheckoutPaymentIntent,
        purchaseUnits: [
          {
            referenceId: `purchase-${purchase.purchaseId}`,
            customId: String(purchase.purchaseId),
            description: product.name.slice(0, 127),
            amount: { currencyCode: 'USD', value: (chargeCents / 100).toFixed(2) },
          },
        ],
      },
    });
    if (!order.id) throw new Error('PayPal returned an order without an id');
    await ctx.db.update(purchases).set({ paymentProcessorId: order.id, updatedAt: new Date() }).where(eq(purchases.purchaseId, purchase.purchaseId));
    return { order_id: order.id, purchase_id: purchase.purchaseId, total_payment: chargeCents / 100 };
  } catch (err) {
    // Nothing was charged: the pending purchase goes, so a retry starts clean (and counts nothing).
    await ctx.db.delete(purchases).where(and(eq(purchases.purchaseId, purchase.purchaseId), eq(purchases.status, 'pending'), isNull(purchases.paymentProcessorId)));
    log.warn({ err, purchase_id: purchase.purchaseId }, 'paypal order failed');
    throw payPalProviderError(err);
  }
}

export async function capturePayPalOrder(options: { ctx: AppContext; actor: Actor; input: PayPalCaptureRequest; log: EffectsLog }): Promise<PayPalCaptureResponse> {
  const { ctx, actor, input, log } = options;
  const paypal = await requirePayPal(ctx);
  const [purchase] = await ctx.db
    .select()
    .from(purchases)
    .where(and(eq(purchases.paymentProcessorId, input.order_id), eq(purchases.userId, actor.user.userId)))
    .limit(1);
  if (!purchase) throw notFound();
  // Only an attempt not paid yet is captured: open, declined (another funding source may pay it) or
  // replaced by a newer attempt (its approved order still pays; the limits are checked at fulfilment).
  if (!['pending', 'failed', 'expired'].includes(purchase.status)) return { purchase_id: purchase.purchaseId, status: purchase.status };

  try {
    await paypal.orders.captureOrder({ id: input.order_id, paypalRequestId: `pluma-purchase-${purchase.purchaseId}-capture` });
  } catch (err) {
    const issue = payPalIssue(err);
    if (issue?.issue === 'ORDER_NOT_APPROVED') throw orderNotApproved();
    if (issue?.issue === 'INSTRUMENT_DECLINED') {
      // The buyer's funding source was declined: the attempt fails with PayPal's reason (issue 28 item 2).
      const effects = await ctx.db.transaction((tx) => declineOrder(tx, purchase.purchaseId, input.order_id, issue.issue!));
      await runEffects(ctx, log, effects);
      throw new AppError(402, 'payments_provider_error', 'payments_provider_error', {}, { provider: 'paypal', code: 'INSTRUMENT_DECLINED' });
    }
    // Captured already (by a concurrent call, or an earlier attempt that lost its answer): read it below.
    if (issue?.issue !== 'ORDER_ALREADY_CAPTURED') {
      log.warn({ err, purchase_id: purchase.purchaseId }, 'paypal capture failed');
      throw payPalProviderError(err);
    }
  }

  let order;
  try {
    ({ result: order } = await paypal.orders.getOrder({ id: input.order_id }));
  } catch (err) {
    throw payPalProviderError(err);
  }
  const effects = await ctx.db.transaction((tx) => applyOrder(tx, order));
  await runEffects(ctx, log, effects);
  const [after] = await ctx.db.select({ status: purchases.status }).from(purchases).where(eq(purchases.purchaseId, purchase.purchaseId)).limit(1);
  const status = after?.status ?? purchase.status;
  // PayPal answered but the capture was declined: the customer is told, as for a card error.
  const declined = order.purchaseUnits?.[0]?.payments?.captures?.some((c) => c.status === 'DECLINED' || c.status === 'FAILED');
  if ((status === 'pending' || status === 'failed') && declined) throw new AppError(402, 'payments_provider_error', 'payments_provider_error', {}, { provider: 'paypal', code: 'CAPTURE_DECLINED' });
  return { purchase_id: purchase.purchaseId, status };
}
