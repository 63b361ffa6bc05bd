// Switching plans (issue 10 item 7: "Buying another subscription while one is active switches plans … the
// old subscription is cancelled at the provider and proration is left to it — never two live subscriptions
// billing the same user"), across providers: a Stripe or a PayPal plan that becomes live for the first time
// ends the customer's other live Stripe and PayPal plans.
// - In the activation's transaction (supersedeOtherPlans): under one per-user lock, whichever provider's
//   event activates, the other live plans are marked cancelled (no reason: a switch, not the customer's
//   cancel; access from them ends now), and a "cancel due" marker row per old subscription is written to
//   payment_events (provider + pluma:plan_switch_cancel:<subscription id>, processed_at null).
// - After the commit (effects.ts, 'superseded'): each old subscription is cancelled at its provider
//   (cancelSwitchedAwaySubscription, idempotent) and its marker marked processed.
// - A provider call that failed leaves the marker unprocessed; the reconciliation sweep retries it
//   (retryPlanSwitchCancels) until the provider says it is cancelled.
import { and, eq, gt, isNotNull, isNull, like, lt, ne, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { paymentEvents, purchases } from '../../db/schema';
import { DAY_MS } from './grant';
import type { EffectsLog } from './effects';
import { paymentProvider } from './providers';
import type { Effect, PurchaseRow } from './types';

/** payment_events.type of a marker: this subscription must be cancelled at its provider (a plan switched away from). */
export const PLAN_SWITCH_CANCEL = 'pluma.plan_switch_cancel';
/** The reason given to the provider when a switched-away plan is cancelled. */
export const SWITCH_REASON = 'Switched to another plan';

/** Who bills a subscription, from its id: Stripe's sub_…, PayPal's I-…; null for anything else. */
export function billingProviderOf(subscriptionId: string | null): 'stripe' | 'paypal' | null {
  if (subscriptionId?.startsWith('sub_')) return 'stripe';
  if (subscriptionId?.startsWith('I-')) return 'paypal';
  return null;
}

const markerId = (subscriptionId: string) => `pluma:plan_switch_cancel:${subscriptionId}`;

/**
 * Records (in the caller's transaction) that `subscriptionId` must be cancelled at its provider. Written
 * again for a plan that turned out still billing, so the sweep keeps trying.
 */
export async function markPlanSwitchCancelDue(tx: Tx, purchase: PurchaseRow, subscriptionId: string): Promise<void> {
  const provider = billingProviderOf(subscriptionId);
  if (!provider) return;
  await tx
    .insert(paymentEvents)
    .values({ provider, eventId: markerId(subscriptionId), type: PLAN_SWITCH_CANCEL, payload: { subscription_id: subscriptionId, purchase_id: purchase.purchaseId } })
    .onConflictDoUpdate({ target: [paymentEvents.provider, paymentEvents.eventId], set: { processedAt: null, receivedAt: new Date() } });
}

/**
 * `current` has just become live (Stripe's or PayPal's fulfilment, in the event's transaction), so the
 * customer's other live Stripe and PayPal subscriptions end: their purchases cancelled now with access
 * ending now (expiration_days up to today: the new plan gives access from here), each with a cancel-due
 * marker; the provider cancels come after the commit (the returned 'superseded' effects). One per-user
 * advisory lock, taken by both providers' activations, orders concurrent ones: the last plan to become live
 * is the one left. A plan staff gave (no provider) is left alone: nobody bills it.
 */
export async function supersedeOtherPlans(tx: Tx, current: PurchaseRow): Promise<Effect[]> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`pluma:live-plan:${current.userId}`}))`);
  const others = await tx
    .select()
    .from(purchases)
    .where(
      and(
        eq(purchases.userId, current.userId),
        // Plans of the same context only: an organization's plan (paid into its Stripe account, chosen from its
        // pricing list) and the operator's never switch each other (docs/decisions.md "Organization products").
        current.organizationId === null ? isNull(purchases.organizationId) : eq(purchases.organizationId, current.organizationId),
        eq(purchases.status, 'active'),
        ne(purchases.purchaseId, current.purchaseId),
        isNotNull(purchases.subscriptionId),
        or(like(purchases.subscriptionId, 'sub\\_%'), like(purchases.subscriptionId, 'I-%')),
      ),
    )
    .for('update');
  const now = new Date();
  const effects: Effect[] = [];
  for (const other of others) {
    const [cancelled] = await tx
      .update(purchases)
      .set({ status: 'cancelled', cancelledAt: now, expirationDays: Math.max(0, Math.floor((now.getTime() - other.createdAt.getTime()) / DAY_MS)), updatedAt: now })
      .where(eq(purchases.purchaseId, other.purchaseId))
      .returning();
    await markPlanSwitchCancelDue(tx, cancelled, other.subscriptionId!);
    effects.push({ kind: 'superseded', purchase: cancelled, product: null, amount: 0, orderId: null, subscriptionId: other.subscriptionId! });
  }
  return effects;
}

/**
 * Cancels a switched-away subscription at its provider now (proration left to it), through the provider's
 * adapter (providers.ts: already cancelled is done). Throws when the provider failed or is not configured:
 * the marker stays due.
 */
export async function cancelSwitchedAwaySubscription(ctx: AppContext, subscriptionId: string): Promise<void> {
  const provider = billingProviderOf(subscriptionId);
  if (!provider) return;
  await paymentProvider(ctx, provider).cancelSubscription(ctx, subscriptionId);
  // By provider and event id: the unique index's columns.
  await ctx.db
    .update(paymentEvents)
    .set({ processedAt: new Date() })
    .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, markerId(subscriptionId)), isNull(paymentEvents.processedAt)));
}

export const RETRY_AFTER_MS = 60_000;
const RETRY_WITHIN_MS = 30 * 86_400_000;
const BATCH = 100;

/**
 * The sweep's part (reconcile.ts): markers still due a minute after they were written (the provider call
 * after the commit failed, or the process stopped before it) are tried again; returns how many succeeded.
 * The partial index on unprocessed payment_events keeps this cheap.
 */
export async function retryPlanSwitchCancels(ctx: AppContext, log: EffectsLog, options: { now?: Date; afterMs?: number } = {}): Promise<number> {
  const now = options.now ?? new Date();
  const due = await ctx.db
    .select({ payload: paymentEvents.payload })
    .from(paymentEvents)
    .where(
      and(
        isNull(paymentEvents.processedAt),
        eq(paymentEvents.type, PLAN_SWITCH_CANCEL),
        lt(paymentEvents.receivedAt, new Date(now.getTime() - (options.afterMs ?? RETRY_AFTER_MS))),
        gt(paymentEvents.receivedAt, new Date(now.getTime() - RETRY_WITHIN_MS)),
      ),
    )
    .orderBy(paymentEvents.receivedAt)
    .limit(BATCH);
  let done = 0;
  for (const { payload } of due) {
    const subscriptionId = (payload as { subscription_id?: unknown }).subscription_id;
    if (typeof subscriptionId !== 'string') continue;
    try {
      await cancelSwitchedAwaySubscription(ctx, subscriptionId);
      done++;
    } catch (err) {
      log.warn({ err, subscription_id: subscriptionId }, 'cancelling a switched-away subscription failed again');
    }
  }
  return done;
}
