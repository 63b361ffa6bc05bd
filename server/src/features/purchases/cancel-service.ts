// A customer cancels their own subscription (spec part 1 §4, §7 POST /purchases/cancel/{id}): only an
// active subscription, only with a reason; access lasts until the next invoice date and no further charge
// is made (docs/decisions.md "Cancelling a subscription").
//
// Order of work: the provider first (Stripe: cancel_at_period_end; PayPal: cancel — both harmless twice),
// then one conditional UPDATE ... WHERE status = 'active' (or just ended by the provider). Of two
// concurrent cancels both may reach the provider (the same harmless request twice), but only one UPDATE
// matches: the other gets 409. No row lock is held while the provider is called. If it refuses, nothing
// changes here.
import { and, eq, isNull, or } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { purchases } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { invalidateUser } from '../../platform/auth/invalidation';
import { AppError } from '../../platform/http/errors';
import { providerError, requireStripe } from '../payments';
import { cancelPayPalSubscription } from '../paypal';
import { getOwnPurchase } from './own-service';

export const CancelErrorIds = {
  /** 409: a one-time purchase, or a subscription that is not active (already cancelled, pending, revoked). */
  notCancellable: 'purchase_not_cancellable',
  /** 409: the subscription id is of no provider this server can cancel with. */
  unsupported: 'purchase_cancel_unsupported',
} as const;

export const notCancellable = () => new AppError(409, CancelErrorIds.notCancellable, 'purchase_not_cancellable');
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

export interface CancelOwnPurchaseInput {
  ctx: AppContext;
  actor: Actor;
  purchaseId: number;
  reason: string;
  now?: Date;
}

/** Cancels the actor's own active subscription; returns it as it was and as it is now. */
export async function cancelOwnSubscription({ ctx, actor, purchaseId, reason, now = new Date() }: CancelOwnPurchaseInput) {
  const { purchase: before, productName } = await getOwnPurchase({ db: ctx.db, actor, purchaseId });
  if (before.status !== 'active' || !isSubscription(before)) throw notCancellable();
  await cancelAtProvider(ctx, before, reason);
  // updated_at is left as it was on purpose: a cancelled subscription's expiry counts from its last
  // renewal or creation (rules/purchase-expiry.ts), so cancelling never extends access.
  const [after] = await ctx.db
    .update(purchases)
    .set({ status: 'cancelled', cancelReason: reason, cancelledAt: now })
    // Still active — or just ended by the provider's webhook (PayPal ends at once and may notify before
    // this runs), which records it cancelled without a reason: this cancel still gives it its reason.
    .where(and(eq(purchases.purchaseId, before.purchaseId), or(eq(purchases.status, 'active'), and(eq(purchases.status, 'cancelled'), isNull(purchases.cancelReason)))))
    .returning();
  if (!after) throw notCancellable();
  // GET /api/users (has_access, the purchase) and cached actors read purchases.
  invalidateUser(after.userId);
  return { before, after, productName };
}
