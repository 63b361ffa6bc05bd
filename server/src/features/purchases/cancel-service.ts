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
import { getOwnPurchase } from './own-service';
import { CancelErrorIds, cancelAtProvider, isSubscription } from './provider-cancel';

export const notCancellable = () => new AppError(409, CancelErrorIds.notCancellable, 'purchase_not_cancellable');

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
