// Applies one lifecycle event to a purchase whose row the caller locked (lock.ts), in the caller's
// transaction: looks the move up in machine.ts, runs its effects in the database (limits, words, the
// discount, the failure reason, the plan switch) and returns what must happen after the commit (effects.ts:
// the receipt and webhook, a refund, provider cancels). A refused move changes nothing and returns no effect.
import type { Tx } from '../../db/client';
import { purchases } from '../../db/schema';
import { eq } from 'drizzle-orm';
import { fulfilOnce } from './grant';
import { OVER_LIMIT, transitionFor, type LifecycleEvent, type PurchaseState, type TransitionEffect } from './machine';
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
