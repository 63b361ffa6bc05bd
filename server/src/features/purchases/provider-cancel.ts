// Cancelling a subscription where it is billed: Stripe at period end, PayPal at once (docs/decisions.md
// "Cancelling a subscription"). Not an operation of its own: the customer's cancel (cancel-service.ts) and
// the staff editor (purchases-admin) call it after they have authorized the change.
import type { AppContext } from '../../context';
import { purchases } from '../../db/schema';
import { AppError } from '../../platform/http/errors';
import { providerError, requireStripe } from '../payments';
import { cancelPayPalSubscription } from '../paypal';

export const CancelErrorIds = {
  /** 409: a one-time purchase, or a subscription that is not active (already cancelled, pending, revoked). */
  notCancellable: 'purchase_not_cancellable',
  /** 409: the subscription id is of no provider this server can cancel with. */
  unsupported: 'purchase_cancel_unsupported',
} as const;

const cancelUnsupported = () => new AppError(409, CancelErrorIds.unsupported, 'purchase_cancel_unsupported');

type PurchaseRow = typeof purchases.$inferSelect;

/** Who bills the subscription, from its id: Stripe's are sub_…, PayPal's I-…; none for a staff-given one. */
export function subscriptionProviderOf(purchase: Pick<PurchaseRow, 'subscriptionId'>): 'stripe' | 'paypal' | 'unknown' | null {
  const id = purchase.subscriptionId;
  if (!id) return null;
  if (id.startsWith('sub_')) return 'stripe';
  if (id.startsWith('I-')) return 'paypal';
  return 'unknown';
}

/** A subscription: billed by a provider, or given by staff with a recurring period (spec part 1 §3). */
export function isSubscription(purchase: Pick<PurchaseRow, 'subscriptionId' | 'subscriptionPeriod'>): boolean {
  return purchase.subscriptionId != null || purchase.subscriptionPeriod != null;
}

/** Cancels at the subscription's provider (Stripe at period end, PayPal at once); the staff editor uses it too. */
export async function cancelAtProvider(ctx: AppContext, purchase: PurchaseRow, reason: string): Promise<void> {
  const provider = subscriptionProviderOf(purchase);
  if (provider === null) return;
  if (provider === 'paypal') {
    // PayPal ends a subscription at once (it has no "at period end"); access still runs to the paid end
    // (expiration_days, kept by features/paypal's fulfilment). Its errors are already ours (409, 502).
    await cancelPayPalSubscription(ctx, purchase.subscriptionId!, reason);
    return;
  }
  // A subscription id of no provider we know: refusing beats marking it cancelled while it keeps charging.
  if (provider === 'unknown') throw cancelUnsupported();
  // An organization's product was sold with its own Stripe account (payments/stripe-client.ts): cancel there.
  const stripe = await requireStripe(ctx, purchase.organizationId);
  try {
    await stripe.subscriptions.update(purchase.subscriptionId!, { cancel_at_period_end: true });
  } catch (err) {
    throw providerError(err);
  }
}

