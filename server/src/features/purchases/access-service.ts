// Staff grant and revoke access (spec part 1 §4): activating gives access and the package credits at once;
// revoking ends access immediately.
import type { GiveAccessRequest } from '@pluma/common/purchases';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { products, purchases, users } from '../../db/schema';
import { invalidateUser } from '../../platform/auth/invalidation';
import { notFound } from '../../platform/http/errors';
import { grantWords } from '../credits';

export async function giveAccess(options: { ctx: AppContext; input: GiveAccessRequest }) {
  const { ctx, input } = options;
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
    // word_amount null means unlimited (spec part 1 §3).
    await grantWords(tx, {
      userId: user.userId,
      sourceType: 'purchase',
      sourceId: String(purchase.purchaseId),
      words: product.wordAmount == null ? 'unlimited' : product.wordAmount,
    });
    // GET /api/users shows has_access and the purchase (platform/auth/invalidation.ts).
    invalidateUser(user.userId);
    return purchase;
  });
}

/** Revokes the purchase; returns it with the status it had, for the audit trail. */
export async function revokeAccess(options: { ctx: AppContext; purchaseId: number }) {
  const { purchase, previousStatus } = await options.ctx.db.transaction(async (tx) => {
    const [before] = await tx.select({ status: purchases.status }).from(purchases).where(eq(purchases.purchaseId, options.purchaseId)).for('update');
    if (!before) throw notFound();
    const [row] = await tx
      .update(purchases)
      .set({ status: 'revoked', updatedAt: new Date() })
      .where(and(eq(purchases.purchaseId, options.purchaseId)))
      .returning();
    return { purchase: row, previousStatus: before.status };
  });
  invalidateUser(purchase.userId);
  return { purchase, previousStatus };
}
