// Stripe webhooks (DESIGN.md §6: verify the signature on the raw body, store the event id uniquely, re-read
// state from the provider, fulfil once; unknown events 2xx, failures 5xx so Stripe retries).
//
// 1. The Stripe-Signature header is checked on the exact bytes received (constructEvent, with the
//    configured secret and tolerance): missing, malformed, wrong or stale → 400 and nothing is written;
//    no secret configured → 500 (Stripe keeps retrying until an operator sets it).
// 2. The event's object is read again from Stripe, so the order of deliveries does not matter.
// 3. One transaction inserts the event into payment_events (unique provider + event_id, on conflict do
//    nothing) and, only when this delivery inserted it, applies Stripe's state (fulfil.ts) and marks it
//    processed. A duplicate — even 50 at once — waits for the first one's commit and then does nothing.
// An organization's account delivers to its own route, POST /stripe/webhook/organizations/{organization_id},
// verified with its stripe_webhook_secret (never the operator's), re-read with its key, and it changes only
// purchases of that organization's products (fulfil.ts, the scope check).
import { PaymentErrorIds } from '@pluma/common/checkout';
import { and, eq, isNotNull } from 'drizzle-orm';
import Stripe from 'stripe';
import type { AppContext } from '../../context';
import { paymentEvents } from '../../db/schema';
import { AppError } from '../../platform/http/errors';
import { runEffects, type Effect, type EffectsLog } from '../purchase-lifecycle';
import { applyFailedRenewal, applyFirstPaymentFailure, applyPaymentIntent, applySubscription, idOf } from './fulfil';
import { keepCardSavedOnPurpose } from './sources';
import { organizationStripeSettings, stripeClient, stripeSettings, type StripeScope } from './stripe-client';

export const webhookSignatureInvalid = () => new AppError(400, PaymentErrorIds.webhookSignature, 'payments_webhook_signature_invalid');
export const webhookNotConfigured = () => new AppError(500, PaymentErrorIds.webhookNotConfigured, 'payments_webhook_not_configured');

/** The event types that change purchases; every other event is stored and answered 200. */
export const HANDLED_EVENTS = new Set([
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.trial_will_end',
]);

const SIGNATURE_SHAPE = /(^|,)\s*t=\d+/;

/**
 * Verifies the delivery with the webhook secret of `scope` (the operator's, or that organization's) and
 * returns its event; throws 400 (bad signature), 404 (no such organization) or 500 (no secret).
 */
export async function verifyStripeEvent(ctx: AppContext, body: unknown, signature: string | string[] | undefined, scope: StripeScope = null): Promise<Stripe.Event> {
  // A request that is not even shaped like a Stripe delivery is refused before anything else.
  if (typeof signature !== 'string' || !SIGNATURE_SHAPE.test(signature) || !signature.includes('v1=')) throw webhookSignatureInvalid();
  if (!Buffer.isBuffer(body) || body.length === 0) throw webhookSignatureInvalid();
  const settings = scope === null ? await stripeSettings(ctx) : await organizationStripeSettings(ctx, scope);
  if (!settings.webhookSecret) throw webhookNotConfigured();
  try {
    return Stripe.webhooks.constructEvent(body, signature, settings.webhookSecret, settings.toleranceSeconds);
  } catch {
    throw webhookSignatureInvalid();
  }
}

/**
 * The event's id as stored: Stripe's own for the operator's webhook; prefixed with the organization for an
 * organization's, so one Stripe account registered at two endpoints (two organizations sharing keys) has each
 * delivery processed at its own endpoint, in its own scope, instead of the first one swallowing the other.
 */
export const storedEventId = (eventId: string, scope: StripeScope) => (scope === null ? eventId : `organization:${scope}:${eventId}`);

/** Stripe's current state of what the event is about (null: nothing of ours, or an unhandled type). */
type Current = { kind: 'intent'; intent: Stripe.PaymentIntent } | { kind: 'subscription'; subscription: Stripe.Subscription; invoice: Stripe.Invoice | null } | null;

const isMissing = (err: unknown) => err instanceof Stripe.errors.StripeInvalidRequestError && (err.code === 'resource_missing' || err.statusCode === 404);

export async function readCurrentState(stripe: Stripe, type: string, objectId: string): Promise<Current> {
  try {
    if (type.startsWith('payment_intent.')) {
      return { kind: 'intent', intent: await stripe.paymentIntents.retrieve(objectId) };
    }
    if (type.startsWith('invoice.')) {
      // With its PaymentIntents: a first invoice's decline code (applyFirstPaymentFailure).
      const invoice = await stripe.invoices.retrieve(objectId, { expand: ['payments.data.payment.payment_intent'] });
      const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription ?? null);
      if (!subscriptionId) return null;
      const subscription = await stripe.subscriptions.retrieve(subscriptionId, { expand: ['latest_invoice'] });
      return { kind: 'subscription', subscription, invoice };
    }
    if (type.startsWith('customer.subscription.')) {
      return { kind: 'subscription', subscription: await stripe.subscriptions.retrieve(objectId, { expand: ['latest_invoice'] }), invoice: null };
    }
  } catch (err) {
    // An object Stripe does not know (another account's, deleted): nothing of ours to change.
    if (isMissing(err)) return null;
    throw err;
  }
  return null;
}

/**
 * Stores and processes one verified event; `duplicate` when this event was processed before (or by a
 * concurrent delivery). Throws on failures (the caller answers 5xx and Stripe delivers it again).
 */
export async function processStripeEvent(ctx: AppContext, log: EffectsLog, event: Stripe.Event, scope: StripeScope = null): Promise<{ duplicate: boolean }> {
  const eventId = storedEventId(event.id, scope);
  const [done] = await ctx.db
    .select({ id: paymentEvents.paymentEventId })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.provider, 'stripe'), eq(paymentEvents.eventId, eventId), isNotNull(paymentEvents.processedAt)))
    .limit(1);
  if (done) return { duplicate: true };

  // A card saved on purpose (POST /payment_sources, the operator's account) is marked to be offered again (sources.ts).
  const objectId = (event.data.object as { id?: unknown }).id;
  if (scope === null && event.type === 'setup_intent.succeeded' && typeof objectId === 'string') await keepCardSavedOnPurpose(ctx, objectId);

  let current: Current = null;
  if (HANDLED_EVENTS.has(event.type)) {
    const stripe = await stripeClient(ctx, scope);
    // Without a secret key nothing can be re-read: 5xx, so Stripe retries once payments are configured.
    if (!stripe) throw webhookNotConfigured();
    if (typeof objectId === 'string') current = await readCurrentState(stripe, event.type, objectId);
  }

  const outcome = await ctx.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(paymentEvents)
      .values({ provider: 'stripe', eventId, type: event.type, payload: event as unknown as Record<string, unknown> })
      .onConflictDoNothing({ target: [paymentEvents.provider, paymentEvents.eventId] })
      .returning({ id: paymentEvents.paymentEventId });
    if (inserted.length === 0) return { duplicate: true, effects: [] as Effect[] };
    let effects: Effect[] = [];
    if (current?.kind === 'intent') effects = await applyPaymentIntent(tx, current.intent, scope);
    else if (current?.kind === 'subscription') {
      effects = await applySubscription(tx, current.subscription, current.invoice, scope);
      if (event.type === 'invoice.payment_failed') {
        effects.push(...(await applyFailedRenewal(tx, current.subscription, current.invoice, scope)));
        effects.push(...(await applyFirstPaymentFailure(tx, current.subscription, current.invoice, scope)));
      }
    }
    await tx.update(paymentEvents).set({ processedAt: new Date() }).where(eq(paymentEvents.paymentEventId, inserted[0].id));
    return { duplicate: false, effects };
  });
  if (outcome.effects.length) await runEffects(ctx, log, outcome.effects);
  return { duplicate: outcome.duplicate };
}
