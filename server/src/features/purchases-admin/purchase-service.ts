// Staff create and edit purchases (spec part 1 §4 admin edit rules, §7 POST/PUT /purchases/admin):
// - a purchase already cancelled or revoked can only be set to cancelled or revoked (else 409);
// - cancelled needs a reason (the schema) and, for a live subscription, cancels it at its provider
//   (purchases/cancel-service.ts cancelAtProvider: Stripe at period end, PayPal at once);
// - revoked ends access at once (a revoked purchase gives none: rules/purchase-expiry.ts mayGiveAccess);
// - active or completed gives access and the package's words at once, through the ledger with the
//   source 'purchase'/id — the one a paid checkout uses — so the words are granted once ever, whatever
//   the concurrent requests or an earlier payment.
// Which status may follow which, and what each does, is the lifecycle's staff table (purchase-lifecycle/machine.ts STAFF_MOVES).
import type { AdminCreatePurchaseRequest, AdminUpdatePurchaseRequest } from '@pluma/common/admin-purchases';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { products, purchases, users } from '../../db/schema';
import { invalidateUser } from '../../platform/auth/invalidation';
import { AppError, notFound } from '../../platform/http/errors';
import { applyStaffMove, staffMoveAllowed } from '../purchase-lifecycle';
import type { Actor } from '../../platform/auth/actor';
import { adminRecordRules } from './policy';
import { cancelAtProvider, subscriptionProviderOf } from '../purchases';

export const statusFinal = () => new AppError(409, 'purchase_status_final', 'purchase_status_final');

export async function createPurchaseAsAdmin({ ctx, actor, input, now = new Date() }: { ctx: AppContext; actor: Actor; input: AdminCreatePurchaseRequest; now?: Date }) {
  adminRecordRules.authorize(actor, 'edit', null);
  const purchase = await ctx.db.transaction(async (tx) => {
    const [user] = await tx.select({ userId: users.userId }).from(users).where(eq(users.userId, input.user_id)).limit(1);
    const [product] = await tx.select().from(products).where(eq(products.productId, input.product_id)).limit(1);
    if (!user || !product) throw notFound();
    const price = input.is_gift ? 0 : (product.salePrice ?? product.price);
    const [row] = await tx
      .insert(purchases)
      .values({
        userId: user.userId,
        productId: product.productId,
        status: input.status,
        amount: input.amount ?? price,
        totalPayment: input.is_gift ? 0 : (input.total_payment ?? input.amount ?? price),
        isGift: input.is_gift,
        expirationDays: input.expiration_days === undefined ? product.expirationDays : input.expiration_days,
        // spec part 1 §4: a gift hides (and records no) payment method.
        paymentMethodId: input.is_gift ? null : (input.payment_method_id ?? null),
        cancelReason: input.status === 'cancelled' ? (input.cancel_reason ?? null) : null,
        cancelledAt: input.status === 'cancelled' ? now : null,
        subscriptionInterval: product.subscriptionInterval,
        subscriptionPeriod: product.subscriptionPeriod,
        freeTrialLength: product.freeTrialLength,
        organizationId: product.organizationId,
      })
      .returning();
    await applyStaffMove(tx, row);
    return row;
  });
  // GET /api/users (has_access, the purchase) and cached actors read purchases.
  invalidateUser(purchase.userId);
  return purchase;
}

/** Applies an admin's edit; returns the purchase as it was and as it is now, for the audit trail. */
export async function updatePurchaseAsAdmin({ ctx, actor, input, now = new Date() }: { ctx: AppContext; actor: Actor; input: AdminUpdatePurchaseRequest; now?: Date }) {
  adminRecordRules.authorize(actor, 'edit', null);
  const [current] = await ctx.db.select().from(purchases).where(eq(purchases.purchaseId, input.purchase_id)).limit(1);
  if (!current) throw notFound();
  const next = input.status ?? current.status;
  if (input.status && !staffMoveAllowed(current.status, input.status)) throw statusFinal();

  // Ending a live subscription stops its billing first (as the customer's own cancel does): if the
  // provider refuses, nothing changes here. No row lock is held over the network.
  const ending = (next === 'cancelled' || next === 'revoked') && current.status === 'active';
  if (ending && subscriptionProviderOf(current) !== null) {
    await cancelAtProvider(ctx, current, input.cancel_reason ?? current.cancelReason ?? 'Cancelled by staff');
  }

  const { before, after } = await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(purchases).where(eq(purchases.purchaseId, input.purchase_id)).for('update');
    if (!before) throw notFound();
    // Checked again under the lock: a concurrent edit may have made it final meanwhile.
    if (input.status && !staffMoveAllowed(before.status, input.status)) throw statusFinal();
    const status = input.status ?? before.status;
    const becomesCancelled = status === 'cancelled' && before.status !== 'cancelled';
    const [row] = await tx
      .update(purchases)
      .set({
        status,
        ...(input.amount !== undefined ? { amount: input.amount } : {}),
        ...(input.total_payment !== undefined ? { totalPayment: input.total_payment } : {}),
        ...(input.is_gift !== undefined ? { isGift: input.is_gift } : {}),
        ...(input.expiration_days !== undefined ? { expirationDays: input.expiration_days } : {}),
        ...(input.payment_method_id !== undefined ? { paymentMethodId: input.payment_method_id } : {}),
        ...(status === 'cancelled' && input.cancel_reason ? { cancelReason: input.cancel_reason } : {}),
        ...(becomesCancelled ? { cancelledAt: now } : {}),
        // A cancelled subscription's expiry counts from its last update (rules/purchase-expiry.ts), so an
        // edit that leaves it cancelled keeps updated_at (docs/decisions.md "Last update of a cancelled subscription").
        ...(status === 'cancelled' ? {} : { updatedAt: now }),
      })
      .where(eq(purchases.purchaseId, before.purchaseId))
      .returning();
    await applyStaffMove(tx, row);
    return { before, after: row };
  });
  invalidateUser(after.userId);
  return { before, after };
}
