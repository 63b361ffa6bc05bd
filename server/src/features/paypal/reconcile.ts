// A missed webhook, or a buyer who closed the page between PayPal's approval and our capture call, must
// not leave a paying customer without access (issue 10 item 3, as payments/reconcile.ts does for
// Stripe): every few minutes, pending PayPal purchases older than RECONCILE_AFTER_MS (and younger than
// RECONCILE_WITHIN_MS) are read again from PayPal. An order the buyer APPROVED is captured (with the
// same PayPal-Request-Id as POST /checkout/capture, so it is never captured twice); a subscription is
// applied as it is now. Both go through the same exactly-once path as the webhook (fulfil.ts).
import { and, desc, eq, gt, isNotNull, lt, or } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { paymentMethods, purchases } from '../../db/schema';
import { runEffects, type Effect, type EffectsLog } from '../purchase-lifecycle';
import { applyOrder, applyPayPalSubscription } from './fulfil';
import { payPalClient, payPalIssue } from './paypal-client';
import { every } from '../../platform/jobs/every';

export const RECONCILE_AFTER_MS = 5 * 60_000;
export const RECONCILE_WITHIN_MS = 3 * 86_400_000;
export const RECONCILE_INTERVAL_MS = 2 * 60_000;
const BATCH = 100;

/** Re-reads the window's pending PayPal purchases; returns how many changed. */
export async function reconcilePayPalPurchases(ctx: AppContext, log: EffectsLog, options: { now?: Date; afterMs?: number } = {}): Promise<number> {
  const paypal = await payPalClient(ctx);
  if (!paypal) return 0;
  const now = options.now ?? new Date();
  const [method] = await ctx.db.select({ id: paymentMethods.paymentMethodId }).from(paymentMethods).where(eq(paymentMethods.name, 'paypal')).limit(1);
  if (!method) return 0;
  const candidates = await ctx.db
    .select({ purchaseId: purchases.purchaseId, orderId: purchases.paymentProcessorId, subscriptionId: purchases.subscriptionId })
    .from(purchases)
    .where(
      and(
        eq(purchases.status, 'pending'),
        eq(purchases.paymentMethodId, method.id),
        lt(purchases.createdAt, new Date(now.getTime() - (options.afterMs ?? RECONCILE_AFTER_MS))),
        gt(purchases.createdAt, new Date(now.getTime() - RECONCILE_WITHIN_MS)),
        or(isNotNull(purchases.subscriptionId), isNotNull(purchases.paymentProcessorId)),
      ),
    )
    // Newest first: a pile of abandoned checkouts never holds back a purchase just paid.
    .orderBy(desc(purchases.createdAt))
    .limit(BATCH);
  let changed = 0;
  for (const candidate of candidates) {
    try {
      let effects: Effect[] = [];
      if (candidate.subscriptionId) {
        const { result: subscription } = await paypal.subscriptions.getSubscription({ id: candidate.subscriptionId });
        effects = await ctx.db.transaction((tx) => applyPayPalSubscription(tx, subscription, null));
      } else if (candidate.orderId) {
        let { result: order } = await paypal.orders.getOrder({ id: candidate.orderId });
        if (order.status === 'APPROVED') {
          await paypal.orders.captureOrder({ id: candidate.orderId, paypalRequestId: `pluma-purchase-${candidate.purchaseId}-capture` }).catch((err: unknown) => {
            if (payPalIssue(err)?.issue !== 'ORDER_ALREADY_CAPTURED') throw err;
          });
          ({ result: order } = await paypal.orders.getOrder({ id: candidate.orderId }));
        }
        effects = await ctx.db.transaction((tx) => applyOrder(tx, order));
      }
      if (effects.length) {
        changed++;
        await runEffects(ctx, log, effects);
      }
    } catch (err) {
      log.warn({ err, purchase_id: candidate.purchaseId }, 'reconciling a pending PayPal purchase failed');
    }
  }
  return changed;
}

/** Runs the reconciliation every RECONCILE_INTERVAL_MS; returns a stop function. */
export function startPayPalReconciliation(ctx: AppContext, log: EffectsLog, intervalMs = RECONCILE_INTERVAL_MS): () => void {
  return every(intervalMs, () => reconcilePayPalPurchases(ctx, log), (err) => log.error({ err }, 'reconciling pending PayPal purchases failed'));
}
