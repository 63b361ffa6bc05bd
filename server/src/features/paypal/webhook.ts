// PayPal webhooks (DESIGN.md §6; docs/decisions.md "PayPal checkout"), the way Stripe's are handled
// (payments/webhook.ts):
// 1. The delivery is verified by PayPal's own verify-webhook-signature call: the transmission headers,
//    our webhook id and the raw body spliced in unchanged (never re-serialised, so nothing PayPal
//    signed is altered). Anything but verification_status SUCCESS changes nothing and answers 400, so
//    PayPal delivers it again; missing headers → 400; no webhook id or credentials configured → 500.
// 2. The event's object is read again from PayPal (the order, the subscription), so order does not matter.
// 3. One transaction inserts the event into payment_events (unique provider + event id, on conflict do
//    nothing) and, only when this delivery inserted it, applies PayPal's state (fulfil.ts) and marks it
//    processed. A duplicate, even 20 at once, waits for the first one's commit and then does nothing.
import { PaymentErrorIds } from '@pluma/common/checkout';
import type { Order, Subscription } from '@paypal/paypal-server-sdk';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { paymentEvents } from '../../db/schema';
import { AppError } from '../../platform/http/errors';
import { runEffects, type Effect, type EffectsLog } from '../purchase-lifecycle';
import { applyOrder, applyPayPalSubscription, type PayPalSale } from './fulfil';
import { payPalClient, payPalIssue, type PayPal } from './paypal-client';

export const webhookSignatureInvalid = () => new AppError(400, PaymentErrorIds.webhookSignature, 'payments_webhook_signature_invalid');
export const webhookNotConfigured = () => new AppError(500, PaymentErrorIds.webhookNotConfigured, 'payments_webhook_not_configured');

/** A verified PayPal event: its envelope and the raw body it came in. */
export interface PayPalEvent {
  id: string;
  event_type: string;
  resource: Record<string, unknown>;
}

const TRANSMISSION_HEADERS = ['paypal-transmission-id', 'paypal-transmission-time', 'paypal-transmission-sig', 'paypal-cert-url', 'paypal-auth-algo'] as const;

/** Verifies the delivery with PayPal and returns its event; throws 400 (not SUCCESS) or 500 (not configured). */
export async function verifyPayPalEvent(ctx: AppContext, body: unknown, headers: Record<string, string | string[] | undefined>): Promise<PayPalEvent> {
  const values = TRANSMISSION_HEADERS.map((name) => headers[name]);
  if (values.some((v) => typeof v !== 'string' || v.length === 0 || v.length > 2048)) throw webhookSignatureInvalid();
  if (!Buffer.isBuffer(body) || body.length === 0) throw webhookSignatureInvalid();
  let event: PayPalEvent;
  try {
    event = JSON.parse(body.toString('utf8')) as PayPalEvent;
  } catch {
    throw webhookSignatureInvalid();
  }
  if (typeof event?.id !== 'string' || typeof event.event_type !== 'string') throw webhookSignatureInvalid();
  const paypal = await payPalClient(ctx);
  if (!paypal?.settings.webhookId) throw webhookNotConfigured();
  const [transmissionId, transmissionTime, transmissionSig, certUrl, authAlgo] = values as string[];
  const fields = { auth_algo: authAlgo, cert_url: certUrl, transmission_id: transmissionId, transmission_sig: transmissionSig, transmission_time: transmissionTime, webhook_id: paypal.settings.webhookId };
  // The raw body goes in as webhook_event unchanged: PayPal checks it against what it sent.
  const request = `${JSON.stringify(fields).slice(0, -1)},"webhook_event":${body.toString('utf8')}}`;
  let answer: { verification_status?: string };
  try {
    answer = await paypal.rest<{ verification_status?: string }>('POST', '/v1/notifications/verify-webhook-signature', request);
  } catch (err) {
    // PayPal refused the request itself (400: a malformed field): not verified.
    if (payPalIssue(err)?.status === 400) throw webhookSignatureInvalid();
    throw err;
  }
  if (answer.verification_status !== 'SUCCESS') throw webhookSignatureInvalid();
  return event;
}

/** The event types that change purchases; every other verified event is stored and answered 200. */
export const HANDLED_EVENTS = new Set([
  'PAYMENT.CAPTURE.COMPLETED',
  // A capture PayPal declined (PENDING, then DENIED): the order is re-read and the purchase fails (fulfil.ts).
  'PAYMENT.CAPTURE.DENIED',
  'PAYMENT.CAPTURE.DECLINED',
  'BILLING.SUBSCRIPTION.ACTIVATED',
  'BILLING.SUBSCRIPTION.UPDATED',
  'BILLING.SUBSCRIPTION.RE-ACTIVATED',
  'BILLING.SUBSCRIPTION.CANCELLED',
  'BILLING.SUBSCRIPTION.SUSPENDED',
  'BILLING.SUBSCRIPTION.EXPIRED',
  'BILLING.SUBSCRIPTION.PAYMENT.FAILED',
  'PAYMENT.SALE.COMPLETED',
]);

type Current = { kind: 'order'; order: Order } | { kind: 'subscription'; subscription: Subscription; sale: PayPalSale | null } | null;

const str = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 && value.length <= 128 ? value : null);

/** PayPal's current state of what the event is about (null: nothing of ours, or an unknown object). */
async function readCurrentState(paypal: PayPal, event: PayPalEvent): Promise<Current> {
  const resource = event.resource ?? {};
  try {
    if (event.event_type.startsWith('PAYMENT.CAPTURE.')) {
      const related = (resource.supplementary_data as { related_ids?: { order_id?: unknown } } | undefined)?.related_ids;
      const orderId = str(related?.order_id);
      if (!orderId) return null;
      return { kind: 'order', order: (await paypal.orders.getOrder({ id: orderId })).result };
    }
    if (event.event_type === 'PAYMENT.SALE.COMPLETED') {
      const subscriptionId = str(resource.billing_agreement_id);
      const saleId = str(resource.id);
      const total = Number((resource.amount as { total?: unknown } | undefined)?.total);
      if (!subscriptionId || !saleId || resource.state !== 'completed' || !Number.isFinite(total)) return null;
      const subscription = (await paypal.subscriptions.getSubscription({ id: subscriptionId })).result;
      // The sale itself cannot be read back (no sale API in use); its figures come from the verified event.
      return { kind: 'subscription', subscription, sale: { id: saleId, amount: total } };
    }
    if (event.event_type.startsWith('BILLING.SUBSCRIPTION.')) {
      const subscriptionId = str(resource.id);
      if (!subscriptionId) return null;
      return { kind: 'subscription', subscription: (await paypal.subscriptions.getSubscription({ id: subscriptionId })).result, sale: null };
    }
  } catch (err) {
    // An object PayPal does not know (another account's, deleted): nothing of ours to change.
    if (payPalIssue(err)?.status === 404) return null;
    throw err;
  }
  return null;
}

/**
 * Stores and processes one verified event; `duplicate` when it was processed before (or by a concurrent
 * delivery). Throws on failures (the caller answers 5xx and PayPal delivers it again).
 */
export async function processPayPalEvent(ctx: AppContext, log: EffectsLog, event: PayPalEvent): Promise<{ duplicate: boolean }> {
  const [done] = await ctx.db
    .select({ id: paymentEvents.paymentEventId })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.provider, 'paypal'), eq(paymentEvents.eventId, event.id), isNotNull(paymentEvents.processedAt)))
    .limit(1);
  if (done) return { duplicate: true };

  let current: Current = null;
  if (HANDLED_EVENTS.has(event.event_type)) {
    const paypal = await payPalClient(ctx);
    if (!paypal) throw webhookNotConfigured();
    current = await readCurrentState(paypal, event);
  }

  const outcome = await ctx.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(paymentEvents)
      .values({ provider: 'paypal', eventId: event.id, type: event.event_type, payload: event as unknown as Record<string, unknown> })
      .onConflictDoNothing({ target: [paymentEvents.provider, paymentEvents.eventId] })
      .returning({ id: paymentEvents.paymentEventId });
    if (inserted.length === 0) return { duplicate: true, effects: [] as Effect[] };
    let effects: Effect[] = [];
    if (current?.kind === 'order') effects = await applyOrder(tx, current.order);
    else if (current?.kind === 'subscription') effects = await applyPayPalSubscription(tx, current.subscription, current.sale);
    await tx.update(paymentEvents).set({ processedAt: new Date() }).where(eq(paymentEvents.paymentEventId, inserted[0].id));
    return { duplicate: false, effects };
  });
  if (outcome.effects.length) await runEffects(ctx, log, outcome.effects);
  return { duplicate: outcome.duplicate };
}
