// Abandoned attempts end (issue 28 item 2): a purchase still pending ABANDONED_ATTEMPT_AFTER_MS after it was
// made (a declined card the customer walked away from, a closed tab, a 3-D Secure never finished) becomes
// expired through the lifecycle (machine.ts 'abandoned'), so it leaves the customer's /billing and the
// back-office's Pending tab. A checkout still open at the provider can be paid later: the payment is then
// honoured (expired → completed), within the limits.
import { and, eq, lt } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { purchases } from '../../db/schema';
import { every } from '../../platform/jobs/every';
import { applyLifecycleEvent } from './apply';
import { runEffects, type EffectsLog } from './effects';
import { productOf } from './grant';
import { lockPurchaseById } from './lock';
import { retryDueRefunds } from './refunds';

/** How long an attempt may stay unpaid: a day (Stripe's incomplete subscriptions expire after 23 hours too). */
export const ABANDONED_ATTEMPT_AFTER_MS = 24 * 3_600_000;
export const ABANDONED_SWEEP_INTERVAL_MS = 10 * 60_000;
const BATCH = 200;

/** Expires the attempts older than `afterMs` (default ABANDONED_ATTEMPT_AFTER_MS) at `now`; returns their ids. */
export async function expireAbandonedAttempts(ctx: AppContext, log: EffectsLog, options: { now?: Date; afterMs?: number } = {}): Promise<number[]> {
  const now = options.now ?? new Date();
  const before = new Date(now.getTime() - (options.afterMs ?? ABANDONED_ATTEMPT_AFTER_MS));
  // purchases_pending_created_idx: the oldest open attempts.
  const due = await ctx.db
    .select({ purchaseId: purchases.purchaseId })
    .from(purchases)
    .where(and(eq(purchases.status, 'pending'), lt(purchases.createdAt, before)))
    .orderBy(purchases.createdAt)
    .limit(BATCH);
  const expired: number[] = [];
  for (const { purchaseId } of due) {
    const effects = await ctx.db.transaction(async (tx) => {
      const purchase = await lockPurchaseById(tx, purchaseId);
      // Paid (or expired) meanwhile: the table refuses the move.
      if (!purchase || purchase.createdAt >= before) return [];
      const applied = await applyLifecycleEvent(tx, purchase, 'abandoned', { product: await productOf(tx, purchase) });
      if (applied.to) expired.push(purchaseId);
      return applied.effects;
    });
    await runEffects(ctx, log, effects);
  }
  return expired;
}

/** Runs the sweep (and the retry of refunds still due: refunds.ts) every ABANDONED_SWEEP_INTERVAL_MS; returns a stop function. */
export function startAbandonedAttemptsSweep(ctx: AppContext, log: EffectsLog, intervalMs = ABANDONED_SWEEP_INTERVAL_MS): () => void {
  return every(
    intervalMs,
    async () => {
      await expireAbandonedAttempts(ctx, log).catch((err: unknown) => log.error({ err }, 'expiring abandoned purchase attempts failed'));
      await retryDueRefunds(ctx, log);
    },
    (err) => log.error({ err }, 'retrying due refunds failed'),
  );
}
