// Saved cards (spec part 1 §3 Payment source, §7 GET/POST/DELETE /payment_sources) and the payment
// method list (§3 Payment method, §7 GET /payment_method). A saved card is a card PaymentMethod attached
// to the customer's own Stripe customer: listing reads Stripe (card data never touches our database),
// saving hands the page a SetupIntent to confirm with Stripe.js, and deleting detaches it — only a card
// of the caller's own customer (anyone else's is a 404, like every record of another user).
import type { PaymentSourceRecord } from '@pluma/common/checkout';
import { PaymentErrorIds } from '@pluma/common/checkout';
import { and, asc, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import type { AppContext } from '../../context';
import { paymentCustomers, paymentMethods } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError, notFound } from '../../platform/http/errors';
import { ensureCustomer } from './checkout';
import type { EffectsLog } from '../purchase-lifecycle';
import { providerError, requireStripe, stripeClient } from './stripe-client';

/** The spec's "Deleting a payment source fails" error (502: Stripe refused or could not be reached). */
export const paymentSourceDeleteFailed = (code: string) =>
  new AppError(502, PaymentErrorIds.sourceDeleteFailed, 'payment_source_delete_failed', {}, { provider: 'stripe', code });

/** 409: the card pays a subscription that will renew, so it stays (see subscriptionPaidBy). */
export const paymentSourceInUse = () => new AppError(409, PaymentErrorIds.sourceInUse, 'payment_source_in_use');

/** Subscription statuses Stripe will still charge (a paused one resumes, an unpaid one can be paid again). */
const RENEWING = new Set<Stripe.Subscription.Status>(['active', 'trialing', 'past_due', 'unpaid', 'paused']);

/**
 * The customer's subscription that this card pays and that will renew, if any: its own default payment
 * method, or the customer's invoice default when it has none. One cancelled at period end renews no more,
 * so its card may go. Detaching the card of a renewing one would leave Stripe nothing to charge.
 */
export async function subscriptionPaidBy(stripe: Stripe, customer: string, paymentSourceId: string): Promise<Stripe.Subscription | null> {
  const subscriptions = await stripe.subscriptions.list({ customer, limit: 100 });
  const renewing = subscriptions.data.filter((s) => RENEWING.has(s.status) && !s.cancel_at_period_end && s.cancel_at == null);
  if (renewing.length === 0) return null;
  const own = renewing.find((s) => idOfCard(s.default_payment_method) === paymentSourceId);
  if (own) return own;
  const withoutCard = renewing.filter((s) => s.default_payment_method == null);
  if (withoutCard.length === 0) return null;
  const owner = await stripe.customers.retrieve(customer);
  const fallback = 'deleted' in owner && owner.deleted ? null : idOfCard(owner.invoice_settings?.default_payment_method ?? null);
  return fallback === paymentSourceId ? withoutCard[0] : null;
}

const idOfCard = (pm: string | Stripe.PaymentMethod | null) => (typeof pm === 'string' ? pm : (pm?.id ?? null));

/** The user's Stripe customer id, or null when they never paid nor saved a card. */
export async function knownCustomer(ctx: AppContext, userId: number): Promise<string | null> {
  const [row] = await ctx.db
    .select({ customerId: paymentCustomers.customerId })
    .from(paymentCustomers)
    .where(and(eq(paymentCustomers.userId, userId), eq(paymentCustomers.provider, 'stripe')))
    .limit(1);
  return row?.customerId ?? null;
}

/** spec part 1 §3: card_type is mastercard, visa or other. */
export function cardTypeOf(brand: string | null | undefined): PaymentSourceRecord['card_type'] {
  if (brand === 'visa') return 'visa';
  if (brand === 'mastercard') return 'mastercard';
  return 'other';
}

export function presentPaymentSource(pm: Stripe.PaymentMethod): PaymentSourceRecord {
  return {
    payment_source_id: pm.id,
    card_type: cardTypeOf(pm.card?.brand),
    last_digits: pm.card?.last4 ?? '',
    exp_month: pm.card?.exp_month ?? null,
    exp_year: pm.card?.exp_year ?? null,
  };
}

const MAX_SOURCES = 100;

/** The caller's saved cards, newest first; none (or payments not configured) is []. */
export async function listPaymentSources(ctx: AppContext, actor: Actor, log: EffectsLog): Promise<PaymentSourceRecord[]> {
  const customer = await knownCustomer(ctx, actor.user.userId);
  if (!customer) return [];
  const stripe = await stripeClient(ctx);
  if (!stripe) return [];
  try {
    const list = await stripe.customers.listPaymentMethods(customer, { type: 'card', limit: MAX_SOURCES });
    return list.data.map(presentPaymentSource);
  } catch (err) {
    log.warn({ err, user_id: actor.user.userId }, 'listing saved cards failed');
    throw providerError(err);
  }
}

/**
 * A card the caller may use: a card PaymentMethod attached to their own Stripe customer. Another
 * customer's, a detached one or an unknown id is a 404 (never "it exists but is not yours").
 */
export async function requireOwnCard(stripe: Stripe, customer: string | null, paymentSourceId: string): Promise<Stripe.PaymentMethod> {
  if (!customer) throw notFound();
  let pm: Stripe.PaymentMethod;
  try {
    pm = await stripe.paymentMethods.retrieve(paymentSourceId);
  } catch (err) {
    if (err instanceof Stripe.errors.StripeInvalidRequestError && (err.code === 'resource_missing' || err.statusCode === 404)) throw notFound();
    throw providerError(err);
  }
  const owner = typeof pm.customer === 'string' ? pm.customer : (pm.customer?.id ?? null);
  if (owner !== customer || pm.type !== 'card') throw notFound();
  return pm;
}

/**
 * Starts saving a card: a SetupIntent for off-session use on the caller's customer (created once), whose
 * client secret the page confirms with stripe.confirmSetup; the card is then listed by Stripe.
 */
export async function createPaymentSource(ctx: AppContext, actor: Actor, log: EffectsLog): Promise<{ clientSecret: string }> {
  const stripe = await requireStripe(ctx);
  try {
    const customer = await ensureCustomer(ctx, stripe, actor.user);
    const intent = await stripe.setupIntents.create({
      customer,
      usage: 'off_session',
      automatic_payment_methods: { enabled: true },
      metadata: { user_id: String(actor.user.userId), purpose: 'payment_source' },
    });
    if (!intent.client_secret) throw new Error('Stripe returned a SetupIntent without a client secret');
    return { clientSecret: intent.client_secret };
  } catch (err) {
    if (err instanceof AppError) throw err;
    log.warn({ err, user_id: actor.user.userId }, 'starting to save a card failed');
    throw providerError(err);
  }
}

/**
 * setup_intent.succeeded: a card saved on purpose through POST /payment_sources may be offered again. The
 * Payment Element redisplays only cards with allow_redisplay 'always' (customer-session.ts), and a card set
 * up by a SetupIntent is not marked so by Stripe; the customer asked for this one to be kept, so it is.
 * The SetupIntent is read again from Stripe, and only one of ours counts: purpose payment_source, succeeded,
 * its customer the one we keep for the user its metadata names, the card still attached to that customer.
 * Setting 'always' twice is harmless, so a redelivery changes nothing. Returns whether a card was marked.
 */
export async function keepCardSavedOnPurpose(ctx: AppContext, setupIntentId: string): Promise<boolean> {
  const stripe = await requireStripe(ctx);
  let intent: Stripe.SetupIntent;
  try {
    intent = await stripe.setupIntents.retrieve(setupIntentId, { expand: ['payment_method'] });
  } catch (err) {
    if (err instanceof Stripe.errors.StripeInvalidRequestError && (err.code === 'resource_missing' || err.statusCode === 404)) return false;
    throw err;
  }
  if (intent.status !== 'succeeded' || intent.metadata?.purpose !== 'payment_source') return false;
  const customer = typeof intent.customer === 'string' ? intent.customer : (intent.customer?.id ?? null);
  const userId = Number(intent.metadata.user_id);
  if (!customer || !Number.isSafeInteger(userId) || (await knownCustomer(ctx, userId)) !== customer) return false;
  const pm = typeof intent.payment_method === 'object' ? intent.payment_method : null;
  const owner = typeof pm?.customer === 'string' ? pm.customer : (pm?.customer?.id ?? null);
  if (!pm || pm.type !== 'card' || owner !== customer || pm.allow_redisplay === 'always') return false;
  await stripe.paymentMethods.update(pm.id, { allow_redisplay: 'always' });
  return true;
}

/**
 * Detaches one of the caller's cards; a Stripe failure is the spec's "Deleting a payment source fails".
 * A card paying a subscription that will renew is refused (409 payment_source_in_use): Stripe would let it
 * go and the next renewal would fail, ending the customer's access.
 */
export async function deletePaymentSource(ctx: AppContext, actor: Actor, paymentSourceId: string, log: EffectsLog): Promise<void> {
  const stripe = await requireStripe(ctx);
  const customer = await knownCustomer(ctx, actor.user.userId);
  let pm: Stripe.PaymentMethod;
  try {
    pm = await requireOwnCard(stripe, customer, paymentSourceId);
  } catch (err) {
    if (err instanceof AppError && err.status === 404) throw err;
    log.warn({ err, user_id: actor.user.userId }, 'reading a saved card failed');
    throw paymentSourceDeleteFailed(err instanceof Stripe.errors.StripeError ? (err.code ?? err.type) : 'unreachable');
  }
  let paying: Stripe.Subscription | null;
  try {
    paying = await subscriptionPaidBy(stripe, customer!, pm.id);
  } catch (err) {
    log.warn({ err, user_id: actor.user.userId }, 'reading the subscriptions of a saved card failed');
    throw paymentSourceDeleteFailed(err instanceof Stripe.errors.StripeError ? (err.code ?? err.type) : 'unreachable');
  }
  if (paying) throw paymentSourceInUse();
  try {
    await stripe.paymentMethods.detach(pm.id);
  } catch (err) {
    log.warn({ err, user_id: actor.user.userId, payment_source_id: pm.id }, 'deleting a saved card failed');
    throw paymentSourceDeleteFailed(err instanceof Stripe.errors.StripeError ? (err.code ?? err.type) : 'unreachable');
  }
}

/** GET /payment_method: spec part 1 §3 Payment method (payment_method_id, name), in id order. */
export async function listPaymentMethods(ctx: AppContext): Promise<{ payment_method_id: number; name: string }[]> {
  const rows = await ctx.db.select().from(paymentMethods).orderBy(asc(paymentMethods.paymentMethodId));
  return rows.map((row) => ({ payment_method_id: row.paymentMethodId, name: row.name }));
}
