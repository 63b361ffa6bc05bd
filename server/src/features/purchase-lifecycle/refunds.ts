// Refunds of payments that arrived over a limit (machine.ts OVER_LIMIT), made sure of the way plan-switch
// cancels are: the fulfilling transaction writes a "refund due" marker row in payment_events (provider +
// pluma:refund:<payment id>, processed_at null); after the commit the provider is asked (effects.ts) and the
// marker marked processed; a call that failed (the provider down, the process stopped) leaves it due, and
// the lifecycle's sweep (abandoned-attempts.ts) retries it until the provider has refunded it.
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { paymentEvents } from '../../db/schema';
import type { EffectsLog } from './effects';
import { paymentProvider, type RefundablePayment } from './providers';
import type { PaymentProvider } from './types';

/** payment_events.type of a marker: this payment must be refunded at its provider. */
export const REFUND_DUE = 'pluma.refund_due';
export const REFUND_RETRY_AFTER_MS = 60_000;
const RETRY_WITHIN_MS = 30 * 86_400_000;
const BATCH = 100;

const markerId = (paymentId: string) => `pluma:refund:${paymentId}`;

/** Records, in the caller's transaction, that the payment must be refunded. */
export async function markRefundDue(tx: Tx, provider: PaymentProvider, payment: RefundablePayment): Promise<void> {
  await tx
    .insert(paymentEvents)
    .values({ provider, eventId: markerId(payment.paymentId), type: REFUND_DUE, payload: { ...payment } })
    .onConflictDoNothing({ target: [paymentEvents.provider, paymentEvents.eventId] });
}

/** Refunds the payment at its provider and marks its marker processed; throws when the provider failed. */
export async function refundAtProvider(ctx: AppContext, provider: PaymentProvider, payment: RefundablePayment): Promise<void> {
  await paymentProvider(ctx, provider).refundPayment(ctx, payment);
  await ctx.db
    .update(paymentEvents)
    .set({ processedAt: new Date() })
    .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, markerId(payment.paymentId)), isNull(paymentEvents.processedAt)));
}

/** The sweep's part: refunds still due a minute after they were written are tried again; returns how many went through. */
export async function retryDueRefunds(ctx: AppContext, log: EffectsLog, options: { now?: Date; afterMs?: number } = {}): Promise<number> {
  const now = options.now ?? new Date();
  const due = await ctx.db
    .select({ provider: paymentEvents.provider, payload: paymentEvents.payload })
    .from(paymentEvents)
    .where(
      and(
        isNull(paymentEvents.processedAt),
        eq(paymentEvents.type, REFUND_DUE),
        lt(paymentEvents.receivedAt, new Date(now.getTime() - (options.afterMs ?? REFUND_RETRY_AFTER_MS))),
        gt(paymentEvents.receivedAt, new Date(now.getTime() - RETRY_WITHIN_MS)),
      ),
    )
    .orderBy(paymentEvents.receivedAt)
    .limit(BATCH);
  let done = 0;
  for (const { provider, payload } of due) {
    const payment = payload as unknown as RefundablePayment;
    if (typeof payment?.paymentId !== 'string' || (provider !== 'stripe' && provider !== 'paypal')) continue;
    try {
      await refundAtProvider(ctx, provider, payment);
      done++;
    } catch (err) {
      log.warn({ err, payment: payment.paymentId, purchase_id: payment.purchaseId }, 'refunding a payment over a limit failed again');
    }
  }
  return done;
}
