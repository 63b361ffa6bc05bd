// Applies one lifecycle event to a purchase whose row the caller locked (lock.ts), in the caller's
// transaction: looks the move up in machine.ts, runs its effects in the database (limits, words, the
// discount, the failure reason, the plan switch) and returns what must happen after the commit (effects.ts:
// the receipt and webhook, a refund, provider cancels). A refused move changes nothing and returns no effect.
import type { Tx } from '../../db/client';
import { purchases } from '../../db/schema';
import { eq } from 'drizzle-orm';
import { fulfilOnce, grantPackageOnce } from './grant';
import { eventForStatus, OVER_LIMIT, STAFF_MOVES, transitionFor, type LifecycleEvent, type PurchaseState, type TransitionEffect } from './machine';
import { supersedeOtherPlans } from './plan-switch';
import { markRefundDue } from './refunds';
import type { Effect, PaymentProvider, ProductRow, PurchaseRow } from './types';

export interface EventInput {
  product: ProductRow | null;
  /** A trial's start: its free_trial_words are granted instead of word_amount. */
  trial?: boolean;
  /** declined: the provider's reason (its decline code). */
  failureReason?: string;
  /** The payment that moved it (paid, subscribed): the receipt's amount, and what a refund sends back. */
  payment?: { provider: PaymentProvider; id: string; amount: number } | null;
  /** Other columns the adapter sets with the move (cancelled_at, expiration_days, subscription_id…). */
  changes?: Partial<typeof purchases.$inferInsert>;
}

export interface Applied {
  /** The row after the move (the same row when refused). */
  purchase: PurchaseRow;
  /** The state it moved to; null when the table refused the move. */
  to: PurchaseState | null;
  effects: Effect[];
}

export async function applyLifecycleEvent(tx: Tx, purchase: PurchaseRow, event: LifecycleEvent, input: EventInput): Promise<Applied> {
  const move = transitionFor(purchase, event);
  if (!move) return { purchase, to: null, effects: [] };
  const { product, payment } = input;
  let to: PurchaseState = move.to;
  let effects: readonly TransitionEffect[] = move.effects;
  let failureReason: string | null = input.failureReason ?? null;
  if (effects.includes('fulfil')) {
    const refused = await fulfilOnce(tx, purchase, product, input.trial ?? false);
    if (refused) {
      ({ to, effects } = OVER_LIMIT);
      failureReason = refused;
    }
  }
  const now = new Date();
  const [moved] = await tx
    .update(purchases)
    .set({ ...(to === move.to ? input.changes : {}), status: to, failureReason: effects.includes('record_failure') ? failureReason : null, updatedAt: now })
    .where(eq(purchases.purchaseId, purchase.purchaseId))
    .returning();

  const after: Effect[] = [];
  if (effects.includes('receipt')) after.push({ kind: 'activated', purchase: moved, product, amount: payment?.amount ?? 0, orderId: payment?.id ?? null });
  if (effects.includes('refund') && payment && payment.amount > 0) {
    await markRefundDue(tx, payment.provider, { paymentId: payment.id, purchaseId: moved.purchaseId, organizationId: moved.organizationId, subscription: moved.subscriptionId != null });
    after.push({ kind: 'refund', purchase: moved, product, amount: payment.amount, orderId: payment.id, provider: payment.provider });
  }
  // A subscription paid over a limit must not bill again either: it is cancelled at its provider.
  const subscriptionId = moved.subscriptionId ?? (typeof input.changes?.subscriptionId === 'string' ? input.changes.subscriptionId : null);
  if (effects.includes('refund') && subscriptionId) after.push({ kind: 'superseded', purchase: moved, product, amount: 0, orderId: null, subscriptionId });
  if (effects.includes('supersede')) after.push(...(await supersedeOtherPlans(tx, moved)));
  if (after.length === 0) after.push({ kind: 'changed', purchase: moved, product, amount: 0, orderId: null });
  return { purchase: moved, to, effects: after };
}

/**
 * A subscription as its provider has it now (Stripe's and PayPal's adapters): the move its status means, with
 * the columns that follow the provider (`changes`: expiration_days, subscription_id, cancelled_at…). Without a
 * move — none, or one the table refuses — only those columns change, status and cancelled_at aside. `status`
 * is what the adapter goes on with: the provider's when the purchase moved, else the purchase's own.
 */
export async function followProviderStatus(
  tx: Tx,
  purchase: PurchaseRow,
  providerStatus: string,
  input: EventInput & { changes: NonNullable<EventInput['changes']> },
): Promise<{ purchase: PurchaseRow; effects: Effect[]; status: string }> {
  const event = providerStatus === purchase.status ? null : eventForStatus(purchase.status, providerStatus);
  if (event) {
    const applied = await applyLifecycleEvent(tx, purchase, event, input);
    if (applied.to !== null) return { purchase: applied.purchase, effects: applied.effects, status: providerStatus };
  }
  const { cancelledAt: _notWithoutAMove, ...changes } = input.changes;
  if (Object.keys(changes).length === 0) return { purchase, effects: [], status: purchase.status };
  const [current] = await tx.update(purchases).set({ ...changes, updatedAt: new Date() }).where(eq(purchases.purchaseId, purchase.purchaseId)).returning();
  return { purchase: current, effects: [{ kind: 'changed', purchase: current, product: input.product, amount: 0, orderId: null }], status: current.status };
}

/** After staff wrote a purchase's new status (in the caller's transaction): that target's effects (STAFF_MOVES). */
export async function applyStaffMove(tx: Tx, purchase: PurchaseRow): Promise<void> {
  const effects = STAFF_MOVES[purchase.status as keyof typeof STAFF_MOVES] ?? [];
  if (effects.includes('grant')) await grantPackageOnce(tx, purchase);
}
