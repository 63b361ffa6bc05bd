// A customer cancels their own subscription (spec part 1 §4, §7 POST /purchases/cancel/{id}): only an
// active subscription, only with a reason; access lasts until the next invoice date and no further charge
// is made (docs/decisions.md "Cancelling a subscription").
//
// Order of work: the provider first (Stripe: cancel_at_period_end, which is idempotent), then one
// conditional UPDATE ... WHERE status = 'active'. Of two concurrent cancels both may reach Stripe (the
// same harmless request twice), but only one UPDATE matches: the other gets 409. No row lock is held
// while Stripe is called. If the provider refuses, nothing changes here.
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { purchases } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { invalidateUser } from '../../platform/auth/invalidation';
import { AppError } from '../../platform/http/errors';
import { providerError, requireStripe } from '../payments';
import { getOwnPurchase } from './own-service';

export const CancelErrorIds = {
  /** 409: a one-time purchase, or a subscription that is not active (already cancelled, pending, revoked). */
  notCancellable: 'purchase_not_cancellable',
  /** 409: the subscription is billed by a provider this server cannot cancel with yet (PayPal). */
  unsupported: 'purchase_cancel_unsupported',
} as const;

export const notCancellable = () => new AppError(409, CancelErrorIds.notCancellable, 'purchase_not_cancellable');
const cancelUnsupported = () => new AppError(409, CancelErrorIds.unsupported, 'purchase_cancel_unsupported');

type PurchaseRow = typeof purchases.$inferSelect;

/** Who bills the subscription, from its id: Stripe's are sub_…, PayPal's I-…; none for a staff-given one. */
export function subscriptionProviderOf(purchase: Pick<PurchaseRow, 'subscriptionId'>): 'stripe' | 'paypal' | null {
  const id = purchase.subscriptionId;
  if (!id) return null;
  if (id.startsWith('sub_')) return 'stripe';
  return 'paypal';
}

/** A subscription: billed by a provider, or given by staff with a recurring period (spec part 1 §3). */
export function isSubscription(purchase: Pick<PurchaseRow, 'subscriptionId' | 'subscriptionPeriod'>): boolean {
  return purchase.subscriptionId != null || purchase.subscriptionPeriod != null;
}

async function cancelAtProvider(ctx: AppContext, purchase: PurchaseRow): Promise<void> {
  const provider = subscriptionProviderOf(purchase);
  if (provider === null) return;
  if (provider === 'paypal') {
    // PayPal subscriptions are billed by features/paypal, which has no cancel yet: refusing is safer than
    // marking it cancelled here while PayPal keeps charging.
    throw cancelUnsupported();
  }
  const stripe = await requireStripe(ctx);
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
  await cancelAtProvider(ctx, before);
  // updated_at is left as it was on purpose: a cancelled subscription's expiry counts from its last
  // renewal or creation (rules/purchase-expiry.ts), so cancelling never extends access.
  const [after] = await ctx.db
    .update(purchases)
    .set({ status: 'cancelled', cancelReason: reason, cancelledAt: now })
    .where(and(eq(purchases.purchaseId, before.purchaseId), eq(purchases.status, 'active')))
    .returning();
  if (!after) throw notCancellable();
  // GET /api/users (has_access, the purchase) and cached actors read purchases.
  invalidateUser(after.userId);
  return { before, after, productName };
}
