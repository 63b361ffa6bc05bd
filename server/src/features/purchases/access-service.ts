// Staff grant and revoke access (spec part 1 §4): activating gives access and the package credits at once;
// revoking ends access immediately.
import { ErrorIds } from '@pluma/common/errors';
import type { ExtendAccessRequest, GiveAccessRequest } from '@pluma/common/purchases';
import { addDays, mayGiveAccess, purchaseExpiryDate } from '@pluma/common/rules/purchase-expiry';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { products, purchases, users } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { invalidateUser } from '../../platform/auth/invalidation';
import { accessGrantRules } from './policy';
import { AppError, notFound } from '../../platform/http/errors';
import { applyStaffMove } from '../purchase-lifecycle';

export async function giveAccess(options: { ctx: AppContext; actor: Actor; input: GiveAccessRequest }) {
  const { ctx, input } = options;
  accessGrantRules.authorize(options.actor, 'give', null);
  return ctx.db.transaction(async (tx) => {
    const [user] = await tx.select({ userId: users.userId }).from(users).where(eq(users.userId, input.user_id)).limit(1);
    const [product] = await tx.select().from(products).where(eq(products.productId, input.product_id)).limit(1);
    if (!user || !product) throw notFound();
    const total = input.gift ? 0 : (input.total ?? product.salePrice ?? product.price);
    const [purchase] = await tx
      .insert(purchases)
      .values({
        userId: user.userId,
        productId: product.productId,
        status: product.isSubscription ? 'active' : 'completed',
        amount: total,
        totalPayment: total,
        isGift: input.gift,
        expirationDays: input.expiration_days === undefined ? product.expirationDays : input.expiration_days,
        paymentMethodId: input.gift ? null : (input.payment_method_id ?? null),
        subscriptionInterval: product.subscriptionInterval,
        subscriptionPeriod: product.subscriptionPeriod,
        freeTrialLength: product.freeTrialLength,
        organizationId: product.organizationId,
      })
      .returning();
    // Active or completed: the package's words once (word_amount null means unlimited, spec part 1 §3).
    await applyStaffMove(tx, purchase);
    // GET /api/users shows has_access and the purchase (platform/auth/invalidation.ts).
    invalidateUser(user.userId);
    return purchase;
  });
}

/** Revokes the purchase; returns it with the status it had, for the audit trail. */
export async function revokeAccess(options: { ctx: AppContext; actor: Actor; purchaseId: number }) {
  accessGrantRules.authorize(options.actor, 'revoke', null);
  const { purchase, previousStatus } = await options.ctx.db.transaction(async (tx) => {
    const [before] = await tx.select({ status: purchases.status }).from(purchases).where(eq(purchases.purchaseId, options.purchaseId)).for('update');
    if (!before) throw notFound();
    const [row] = await tx
      .update(purchases)
      .set({ status: 'revoked', updatedAt: new Date() })
      .where(and(eq(purchases.purchaseId, options.purchaseId)))
      .returning();
    // Revoked is a target every status allows (staffMoveAllowed); it grants nothing and ends access at once.
    await applyStaffMove(tx, row);
    return { purchase: row, previousStatus: before.status };
  });
  invalidateUser(purchase.userId);
  return { purchase, previousStatus };
}

const DAY_MS = 86_400_000;

/**
 * Extend access (spec part 1 §6): `expiration_days` more days of access on one of the customer's purchases,
 * counted from its expiry, or from now when that has passed. The purchase then ends on that day
 * (expiration_days is set to match, which the expiry rule reads first). Only a purchase that gives or gave
 * access (active, completed, cancelled with a reason) can be extended: 409 otherwise. Another customer's
 * purchase is a 404.
 */
export async function extendAccess(options: { ctx: AppContext; actor: Actor; input: ExtendAccessRequest; now?: Date }) {
  const { ctx, input } = options;
  accessGrantRules.authorize(options.actor, 'extend', null);
  const now = options.now ?? new Date();
  const result = await ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(purchases)
      .where(and(eq(purchases.purchaseId, input.purchase_id), eq(purchases.userId, input.user_id)))
      .for('update');
    if (!before) throw notFound();
    if (!mayGiveAccess(before)) throw new AppError(409, ErrorIds.conflict, 'purchase_not_extendable');
    const expiry = purchaseExpiryDate(before);
    const from = expiry > now ? expiry : now;
    const expirationDays = Math.ceil((addDays(from, input.expiration_days).getTime() - before.createdAt.getTime()) / DAY_MS);
    const [row] = await tx.update(purchases).set({ expirationDays }).where(eq(purchases.purchaseId, before.purchaseId)).returning();
    return { purchase: row, previousDays: before.expirationDays };
  });
  // has_access and the purchase's expiry in GET /api/users change.
  invalidateUser(result.purchase.userId);
  return result;
}
