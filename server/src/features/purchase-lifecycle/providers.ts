// What the lifecycle asks of a payment provider after a commit (cancel a switched-away plan, refund a payment
// that arrived over a limit). The adapters register themselves when their routes start (features/payments
// for Stripe, features/paypal for PayPal), so this folder imports neither and no import cycle runs between
// the providers and the lifecycle (issue 28 item 1). Kept per app context (docs/testing.md: no module state
// keyed by ids).
import type { AppContext } from '../../context';
import type { PaymentProvider } from './types';

export interface PaymentProviderPort {
  /** Cancels the subscription now (already cancelled is done); throws when the provider failed. */
  cancelSubscription(ctx: AppContext, subscriptionId: string): Promise<void>;
  /** Refunds the whole payment (idempotent per payment id); throws when the provider failed. */
  refundPayment(ctx: AppContext, payment: RefundablePayment): Promise<void>;
}

export interface RefundablePayment {
  /** Stripe's PaymentIntent or invoice id; PayPal's capture or (subscription) sale id. */
  paymentId: string;
  purchaseId: number;
  /** The purchase's organization: its own Stripe account (spec part 2 §3). */
  organizationId: number | null;
  /** A subscription's payment (Stripe invoice, PayPal sale) rather than a one-time one. */
  subscription: boolean;
}

const ports = new WeakMap<AppContext, Map<PaymentProvider, PaymentProviderPort>>();

export function registerPaymentProvider(ctx: AppContext, provider: PaymentProvider, port: PaymentProviderPort): void {
  let byProvider = ports.get(ctx);
  if (!byProvider) ports.set(ctx, (byProvider = new Map()));
  byProvider.set(provider, port);
}

/** The provider's port; throws when it never registered (its routes are not mounted). */
export function paymentProvider(ctx: AppContext, provider: PaymentProvider): PaymentProviderPort {
  const port = ports.get(ctx)?.get(provider);
  if (!port) throw new Error(`payment provider ${provider} is not registered`);
  return port;
}
