// PayPal's side of the purchase lifecycle's provider port (purchase-lifecycle/providers.ts), registered when
// the PayPal routes start: cancel a switched-away (or over-limit) subscription, refund a payment that arrived
// over a limit (issue 28 item 3): a capture through /v2/payments/captures/{id}/refund, a subscription's sale
// through /v1/payments/sale/{id}/refund, each with a PayPal-Request-Id per payment (idempotent).
import { SWITCH_REASON, type PaymentProviderPort } from '../purchase-lifecycle';
import { payPalIssue, requirePayPal } from './paypal-client';
import { cancelPayPalSubscription } from './subscriptions';

export const payPalProviderPort: PaymentProviderPort = {
  cancelSubscription: (ctx, subscriptionId) => cancelPayPalSubscription(ctx, subscriptionId, SWITCH_REASON),
  async refundPayment(ctx, payment) {
    const paypal = await requirePayPal(ctx);
    const id = encodeURIComponent(payment.paymentId);
    // A subscription's payment is the sale PAYMENT.SALE.COMPLETED named; a one-time one is its order's capture.
    const path = payment.subscription ? `/v1/payments/sale/${id}/refund` : `/v2/payments/captures/${id}/refund`;
    try {
      await paypal.rest('POST', path, {}, { 'PayPal-Request-Id': `pluma-refund-${payment.paymentId}` });
    } catch (err) {
      // Refunded already (by staff at PayPal, or an earlier attempt that lost its answer): done.
      if (payPalIssue(err)?.issue !== 'CAPTURE_FULLY_REFUNDED') throw err;
    }
  },
};
