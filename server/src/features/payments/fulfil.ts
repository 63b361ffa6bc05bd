// Stripe's adapter to the purchase lifecycle (features/purchase-lifecycle, issue 28; docs/decisions.md "Stripe
// checkout and webhooks"): Stripe's objects as they are now (re-read by the caller) become lifecycle events
// (paid, subscribed, declined, ended, lapsed, restored, abandoned); the lifecycle's table decides the move and
// its effects. Every function here runs inside one transaction, with the purchase's row locked first, so
// deliveries in any order, repeated or concurrent, end in the same state:
// - a pending purchase is activated once (status, word credits through the ledger with the purchase as
//   source, the discount's redemption), whoever gets there first: the webhook or the reconciliation sweep;
// - each paid Stripe invoice or PaymentIntent is recorded once as an invoice row (order_id = its id);
// - renewals add the period's words once per Stripe invoice (ledger source purchase:invoice);
// - a new plan, once live, supersedes the customer's other live Stripe or PayPal subscription (cancelled
//   here, and at its provider after the commit: plan-switch.ts): never two live subscriptions billing the
//   same customer;
// - what staff decided stays: a purchase staff revoked, or one that was cancelled, is never brought back
//   by Stripe's state (docs/decisions.md "Saved cards, plan switching and the offline demo");
// - a failed renewal asks the customer to update their card, once per Stripe invoice;
// - a declined PaymentIntent fails the purchase with Stripe's decline code; a payment over the product's
//   limits or the code's one use fails it too (over_limit, discount_used_up) and is refunded.
// What must happen after the commit (mail, the product's webhook, Stripe calls, dropping cached actors) is returned.
import { centsToDollars } from '@pluma/common/rules/discounted-price';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Tx } from '../../db/client';
import { paymentEvents, purchases } from '../../db/schema';
import { grantWords } from '../credits';
import {
  applyLifecycleEvent,
  followProviderStatus,
  lockPurchaseById,
  markPlanSwitchCancelDue,
  productOf,
  recordInvoice,
  wordsOf,
  type Effect,
  type ProductRow,
  type PurchaseRow,
} from '../purchase-lifecycle';
import { scopeOfProduct, type StripeScope } from './stripe-client';
import { expirationDaysUntil } from '@pluma/common/rules/purchase-expiry';

/**
 * Purchase status for each Stripe subscription status (docs/decisions.md): trialing, active and past_due
 * (Stripe is still retrying the card) give access; incomplete is not paid yet; unpaid, paused and
 * incomplete_expired take access away (revoked: it does not count as bought); canceled ends it (cancelled
 * when it had been paid, revoked when it never was).
 */
export function purchaseStatusFor(status: Stripe.Subscription.Status, paid: boolean): 'active' | 'pending' | 'revoked' | 'cancelled' {
  switch (status) {
    case 'trialing':
    case 'active':
    case 'past_due':
      return 'active';
    case 'incomplete':
      return 'pending';
    case 'canceled':
      return paid ? 'cancelled' : 'revoked';
    case 'unpaid':
    case 'paused':
    case 'incomplete_expired':
    default:
      return 'revoked';
  }
}

export const idOf = (value: string | { id: string } | null | undefined): string | null => (value == null ? null : typeof value === 'string' ? value : value.id);

/**
 * Stripe's own revocations (unpaid, paused, incomplete_expired, canceled unpaid) carry the time access ended
 * in cancelled_at and no cancel reason; a revoked purchase without that mark was revoked by staff
 * (purchases/access-service.ts) and stays revoked whatever Stripe says later.
 */
export function revokedByStaff(purchase: Pick<PurchaseRow, 'status' | 'cancelledAt' | 'cancelReason'>): boolean {
  return purchase.status === 'revoked' && !(purchase.cancelledAt != null && purchase.cancelReason == null);
}

/** Statuses Stripe's state no longer changes: cancelled (by the customer, or a plan switched away from) and staff revocations. */
export function statusIsFinal(purchase: Pick<PurchaseRow, 'status' | 'cancelledAt' | 'cancelReason'>): boolean {
  return purchase.status === 'cancelled' || revokedByStaff(purchase);
}

async function lockPurchaseBySubscription(tx: Tx, subscriptionId: string): Promise<PurchaseRow | undefined> {
  const [row] = await tx.select().from(purchases).where(eq(purchases.subscriptionId, subscriptionId)).orderBy(purchases.purchaseId).limit(1).for('update');
  return row;
}

/**
 * Whether a purchase belongs to the Stripe account the state was read from (`scope`; undefined: not checked,
 * the caller chose the account from the purchase itself). An account's state never changes a purchase paid
 * into another account: an organization's webhook cannot touch the operator's purchases, nor the reverse.
 */
const ofScope = (product: ProductRow | null, scope: StripeScope | undefined) => scope === undefined || scopeOfProduct(product) === scope;

/**
 * A one-time purchase's PaymentIntent as Stripe has it now: succeeded (for the amount we asked) is 'paid'
 * (completed once, with its invoice; over a limit: failed and refunded, no invoice); a decline Stripe kept on
 * it (requires_payment_method with last_payment_error) is 'declined' with its code; canceled is 'abandoned'.
 * Anything else (processing, requires_action) changes nothing.
 */
export async function applyPaymentIntent(tx: Tx, intent: Stripe.PaymentIntent, scope?: StripeScope): Promise<Effect[]> {
  const purchaseId = Number(intent.metadata?.purchase_id);
  if (!Number.isInteger(purchaseId) || purchaseId <= 0) return [];
  const purchase = await lockPurchaseById(tx, purchaseId);
  // The intent must be the one checkout made for this purchase (metadata alone could be anyone's).
  if (!purchase || purchase.paymentProcessorId !== intent.id) return [];
  const product = await productOf(tx, purchase);
  if (!ofScope(product, scope)) return [];
  if (intent.status === 'requires_payment_method' && intent.last_payment_error) {
    const error = intent.last_payment_error;
    const reason = (error.decline_code ?? error.code ?? 'declined').slice(0, 100);
    return (await applyLifecycleEvent(tx, purchase, 'declined', { product, failureReason: reason })).effects;
  }
  if (intent.status === 'canceled') return (await applyLifecycleEvent(tx, purchase, 'abandoned', { product })).effects;
  if (intent.status !== 'succeeded') return [];
  const expected = Math.round(purchase.totalPayment * 100);
  const received = intent.amount_received ?? intent.amount;
  if (received < expected) return [];
  const amount = centsToDollars(received);
  const applied = await applyLifecycleEvent(tx, purchase, 'paid', { product, payment: { provider: 'stripe', id: intent.id, amount } });
  // A payment refunded over a limit is no income; any other (even of a purchase staff ended since) is recorded once.
  if (applied.purchase.status !== 'failed') await recordInvoice(tx, applied.purchase, { orderId: intent.id, amount, status: 'completed', expirationDate: null });
  return applied.effects;
}

/** The subscription's current period end (API 2026: on its item). */
function periodEndOf(subscription: Stripe.Subscription): Date | null {
  const end = subscription.items?.data?.[0]?.current_period_end;
  return typeof end === 'number' ? new Date(end * 1000) : null;
}

/**
 * A subscription as Stripe has it now, with its latest invoice (expanded or its id) and, when the event was
 * about an invoice, that invoice. Sets the purchase's status from the subscription's (purchaseStatusFor),
 * activates it once when it first becomes paid (a live status, or a paid latest invoice), keeps access up
 * to the paid period's end (expiration_days), records paid invoices once and adds a renewal's words once.
 */
export async function applySubscription(tx: Tx, subscription: Stripe.Subscription, invoice: Stripe.Invoice | null, scope?: StripeScope): Promise<Effect[]> {
  const fromMetadata = Number(subscription.metadata?.purchase_id);
  let purchase = await lockPurchaseBySubscription(tx, subscription.id);
  if (!purchase && Number.isInteger(fromMetadata) && fromMetadata > 0) {
    const candidate = await lockPurchaseById(tx, fromMetadata);
    // Checkout saves the subscription id right after creating it; a webhook faster than that save finds it by metadata.
    if (candidate && candidate.subscriptionId == null && candidate.status === 'pending' && String(candidate.userId) === subscription.metadata?.user_id) {
      purchase = candidate;
    }
  }
  if (!purchase) return [];
  const product = await productOf(tx, purchase);
  if (!ofScope(product, scope)) return [];
  const latest = typeof subscription.latest_invoice === 'object' ? subscription.latest_invoice : null;
  const invoicePaid = (invoice?.status === 'paid' && invoice.id === idOf(subscription.latest_invoice)) || latest?.status === 'paid';
  // A trial starts once its card is taken (the pending SetupIntent confirmed): an abandoned checkout is no trial.
  const awaitingCard = subscription.status === 'trialing' && subscription.pending_setup_intent != null && purchase.status === 'pending';
  const live = !awaitingCard && (subscription.status === 'trialing' || subscription.status === 'active' || subscription.status === 'past_due');
  const paidOnce = purchase.status !== 'pending' || live || invoicePaid;
  let status: PurchaseRow['status'] = awaitingCard ? 'pending' : purchaseStatusFor(subscription.status, paidOnce);
  // A customer's cancellation (at the period's end) stays cancelled while Stripe still says active, a plan
  // switched away from stays cancelled, and a staff revocation stays revoked.
  const final = statusIsFinal(purchase);
  if (final) status = purchase.status;

  const now = new Date();
  const periodEnd = periodEndOf(subscription);
  const changes: Partial<typeof purchases.$inferInsert> = {};
  if (status !== purchase.status) {
    if (status === 'cancelled') changes.cancelledAt = subscription.canceled_at ? new Date(subscription.canceled_at * 1000) : now;
    // Stripe's revocation is marked (revokedByStaff), and the mark goes when Stripe gives access back.
    if (status === 'revoked') changes.cancelledAt = purchase.cancelledAt ?? now;
    if (status === 'active' && purchase.status === 'revoked') changes.cancelledAt = null;
  }
  if (purchase.subscriptionId == null) changes.subscriptionId = subscription.id;
  // Access lasts to the end of the paid (or trial) period: expiration_days from the purchase's creation
  // (never moved for a final status: a switched-away plan's access ended with the switch).
  if (periodEnd && !final && (status === 'active' || status === 'cancelled')) {
    // Whole days to the period's end, rounded (the row is written at checkout, the provider's period starts
    // seconds or minutes later: rounding up gave a monthly plan bought on 28 Nov access until 29 Dec).
    const days = expirationDaysUntil(purchase.createdAt, periodEnd);
    if (days !== purchase.expirationDays) changes.expirationDays = days;
  }
  const paidNow = invoice && invoice.status === 'paid' ? invoice : latest?.status === 'paid' ? latest : null;
  const payment = { provider: 'stripe' as const, id: paidNow?.id ?? subscription.id, amount: centsToDollars(paidNow?.amount_paid ?? 0) };
  const followed = await followProviderStatus(tx, purchase, status, { product, trial: subscription.status === 'trialing', payment, changes });
  const current = followed.purchase;
  const effects = followed.effects;
  status = followed.status;
  // Paid over a limit: failed, refunded and cancelled at Stripe (the lifecycle's effects); nothing more here.
  if (current.status === 'failed') return effects;

  // A plan switched away from (cancelled without a customer's reason) that Stripe still bills without an end
  // date — the cancel at Stripe after the switch failed: cancel it again.
  const billing = subscription.status === 'active' || subscription.status === 'trialing' || subscription.status === 'past_due';
  if (purchase.status === 'cancelled' && purchase.cancelReason == null && billing && !subscription.cancel_at_period_end && subscription.cancel_at == null) {
    await markPlanSwitchCancelDue(tx, current, subscription.id);
    effects.push({ kind: 'superseded', purchase: current, product, amount: 0, orderId: null, subscriptionId: subscription.id });
  }

  // Each paid invoice once; a renewal (not the subscription's first invoice) adds the period's words once.
  const paidInvoices = [invoice, latest].filter((i): i is Stripe.Invoice => !!i && i.status === 'paid' && !!i.id);
  const seen = new Set<string>();
  for (const paid of paidInvoices) {
    if (seen.has(paid.id!)) continue;
    seen.add(paid.id!);
    const lineEnd = paid.lines?.data?.[0]?.period?.end ?? paid.period_end;
    const recorded = await recordInvoice(tx, current, {
      orderId: paid.id!,
      amount: centsToDollars(paid.amount_paid),
      status: 'completed',
      expirationDate: typeof lineEnd === 'number' ? new Date(lineEnd * 1000) : null,
    });
    if (recorded && paid.billing_reason !== 'subscription_create' && status === 'active' && paid.amount_paid > 0) {
      await grantWords(tx, { userId: current.userId, sourceType: 'purchase', sourceId: `${current.purchaseId}:${paid.id}`, words: wordsOf(product, false) });
      effects.push({ kind: 'renewed', purchase: current, product, amount: centsToDollars(paid.amount_paid), orderId: paid.id! });
    }
  }
  return effects;
}

/**
 * invoice.payment_failed for a renewal (Stripe re-read: still unpaid): the "update your card" mail, once per
 * Stripe invoice however many attempts fail. The once is a marker row in payment_events (its unique
 * provider + event id), written in the event's own transaction.
 */
export async function applyFailedRenewal(tx: Tx, subscription: Stripe.Subscription, invoice: Stripe.Invoice | null, scope?: StripeScope): Promise<Effect[]> {
  if (!invoice?.id || invoice.status === 'paid' || invoice.status === 'void' || invoice.billing_reason !== 'subscription_cycle') return [];
  const [purchase] = await tx.select().from(purchases).where(eq(purchases.subscriptionId, subscription.id)).orderBy(purchases.purchaseId).limit(1);
  // Only a plan that still gives access: a cancelled or revoked one has nothing to keep.
  if (!purchase || purchase.status !== 'active') return [];
  const product = await productOf(tx, purchase);
  if (!ofScope(product, scope)) return [];
  const marker = await tx
    .insert(paymentEvents)
    .values({ provider: 'stripe', eventId: `pluma:card_update:${invoice.id}`, type: 'pluma.card_update_mail', payload: { invoice: invoice.id, purchase_id: purchase.purchaseId }, processedAt: new Date() })
    .onConflictDoNothing({ target: [paymentEvents.provider, paymentEvents.eventId] })
    .returning({ id: paymentEvents.paymentEventId });
  if (marker.length === 0) return [];
  return [{ kind: 'card_update', purchase, product, amount: centsToDollars(invoice.amount_due), orderId: invoice.id }];
}

/**
 * invoice.payment_failed for a subscription's first invoice (Stripe re-read: still open, the subscription
 * incomplete): the card was declined, so the attempt fails with the decline code of the invoice's
 * PaymentIntent (issue 28 item 2), instead of waiting as pending. Paid later on the same invoice (another
 * card), the subscription goes live and the lifecycle moves failed → active.
 */
export async function applyFirstPaymentFailure(tx: Tx, subscription: Stripe.Subscription, invoice: Stripe.Invoice | null, scope?: StripeScope): Promise<Effect[]> {
  if (!invoice?.id || invoice.status !== 'open' || invoice.billing_reason !== 'subscription_create' || subscription.status !== 'incomplete') return [];
  const purchase = await lockPurchaseBySubscription(tx, subscription.id);
  if (!purchase) return [];
  const product = await productOf(tx, purchase);
  if (!ofScope(product, scope)) return [];
  const intent = invoice.payments?.data?.map((p) => p.payment?.payment_intent).find((i): i is Stripe.PaymentIntent => typeof i === 'object' && i != null);
  const error = intent?.last_payment_error;
  const reason = (error?.decline_code ?? error?.code ?? 'card_declined').slice(0, 100);
  return (await applyLifecycleEvent(tx, purchase, 'declined', { product, failureReason: reason })).effects;
}
