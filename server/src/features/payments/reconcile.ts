// A missed webhook must not leave a paid customer without access (issue 10 item 3): every few minutes,
// pending Stripe purchases older than RECONCILE_AFTER_MS (and younger than RECONCILE_WITHIN_MS) are read
// again from Stripe and applied through the same exactly-once path as the webhook (fulfil.ts: the
// purchase's row lock, activation only from pending, invoices and credits keyed by their source).
import { and, gt, like, lt, or, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { purchases } from '../../db/schema';
import { runEffects, type EffectsLog } from './effects';
import { applyPaymentIntent, applySubscription, type Effect } from './fulfil';
import { retryPlanSwitchCancels } from './plan-switch';
import { stripeClient } from './stripe-client';
import { every } from '../../platform/jobs/every';

export const RECONCILE_AFTER_MS = 5 * 60_000;
export const RECONCILE_WITHIN_MS = 3 * 86_400_000;
export const RECONCILE_INTERVAL_MS = 2 * 60_000;
const BATCH = 100;

/** Re-reads the pending purchases of the window from Stripe; returns how many changed. */
export async function reconcilePendingPurchases(ctx: AppContext, log: EffectsLog, options: { now?: Date; afterMs?: number } = {}): Promise<number> {
  const stripe = await stripeClient(ctx);
  if (!stripe) return 0;
  const now = options.now ?? new Date();
  const candidates = await ctx.db
    .select({ purchaseId: purchases.purchaseId, paymentProcessorId: purchases.paymentProcessorId, subscriptionId: purchases.subscriptionId })
    .from(purchases)
    .where(
      and(
        eq(purchases.status, 'pending'),
        lt(purchases.createdAt, new Date(now.getTime() - (options.afterMs ?? RECONCILE_AFTER_MS))),
        gt(purchases.createdAt, new Date(now.getTime() - RECONCILE_WITHIN_MS)),
        // Stripe's own ids only: PayPal's pending purchases (I-… subscriptions, order ids) have their own
        // sweep (features/paypal/reconcile.ts), and would crowd Stripe's out of the batch.
        or(like(purchases.subscriptionId, 'sub\\_%'), like(purchases.paymentProcessorId, 'pi\\_%')),
      ),
    )
    .orderBy(purchases.createdAt)
    .limit(BATCH);
  let changed = 0;
  for (const candidate of candidates) {
    try {
      let effects: Effect[] = [];
      if (candidate.subscriptionId) {
        const subscription = await stripe.subscriptions.retrieve(candidate.subscriptionId, { expand: ['latest_invoice'] });
        effects = await ctx.db.transaction((tx) => applySubscription(tx, subscription, null));
      } else if (candidate.paymentProcessorId) {
        const intent = await stripe.paymentIntents.retrieve(candidate.paymentProcessorId);
        effects = await ctx.db.transaction((tx) => applyPaymentIntent(tx, intent));
      }
      if (effects.length) {
        changed++;
        await runEffects(ctx, log, effects);
      }
    } catch (err) {
      log.warn({ err, purchase_id: candidate.purchaseId }, 'reconciling a pending purchase failed');
    }
  }
  return changed;
}

/**
 * Runs the reconciliation every RECONCILE_INTERVAL_MS, then retries the provider cancels of plans switched
 * away from that did not go through (plan-switch.ts; Stripe's and PayPal's alike); returns a stop function.
 */
export function startReconciliation(ctx: AppContext, log: EffectsLog, intervalMs = RECONCILE_INTERVAL_MS): () => void {
  return every(
    intervalMs,
    async () => {
      await reconcilePendingPurchases(ctx, log).catch((err: unknown) => log.error({ err }, 'reconciling pending purchases failed'));
      await retryPlanSwitchCancels(ctx, log);
    },
    (err) => log.error({ err }, 'retrying the cancels of switched-away plans failed'),
  );
}
