// A missed webhook must not leave a paid customer without access (issue 10 item 3): every few minutes,
// pending Stripe purchases older than RECONCILE_AFTER_MS (and younger than RECONCILE_WITHIN_MS) are read
// again from Stripe and applied through the same exactly-once path as the webhook (fulfil.ts: the
// purchase's row lock, activation only from pending, invoices and credits keyed by their source). Each is
// read from the Stripe account its product is sold with (the operator's, or its organization's).
import { and, gt, like, lt, or, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { products, purchases } from '../../db/schema';
import { retryPlanSwitchCancels, runEffects, type Effect, type EffectsLog } from '../purchase-lifecycle';
import { applyPaymentIntent, applySubscription } from './fulfil';
import { stripeClient, type StripeScope } from './stripe-client';
import { every } from '../../platform/jobs/every';

export const RECONCILE_AFTER_MS = 5 * 60_000;
export const RECONCILE_WITHIN_MS = 3 * 86_400_000;
export const RECONCILE_INTERVAL_MS = 2 * 60_000;
const BATCH = 100;

/** Re-reads the pending purchases of the window from Stripe; returns how many changed. */
export async function reconcilePendingPurchases(ctx: AppContext, log: EffectsLog, options: { now?: Date; afterMs?: number } = {}): Promise<number> {
  const now = options.now ?? new Date();
  const candidates = await ctx.db
    .select({
      purchaseId: purchases.purchaseId,
      paymentProcessorId: purchases.paymentProcessorId,
      subscriptionId: purchases.subscriptionId,
      scope: products.organizationId,
    })
    .from(purchases)
    .leftJoin(products, eq(products.productId, purchases.productId))
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
  // One client per Stripe account; an account without a key is skipped (nothing can be read there).
  const clients = new Map<StripeScope, Awaited<ReturnType<typeof stripeClient>>>();
  for (const candidate of candidates) {
    try {
      const scope = candidate.scope ?? null;
      if (!clients.has(scope)) clients.set(scope, await stripeClient(ctx, scope));
      const stripe = clients.get(scope);
      if (!stripe) continue;
      let effects: Effect[] = [];
      if (candidate.subscriptionId) {
        const subscription = await stripe.subscriptions.retrieve(candidate.subscriptionId, { expand: ['latest_invoice'] });
        effects = await ctx.db.transaction((tx) => applySubscription(tx, subscription, null, scope));
      } else if (candidate.paymentProcessorId) {
        const intent = await stripe.paymentIntents.retrieve(candidate.paymentProcessorId);
        effects = await ctx.db.transaction((tx) => applyPaymentIntent(tx, intent, scope));
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
