// PayPal's adapter to the purchase lifecycle (features/purchase-lifecycle, issue 28; docs/decisions.md "PayPal
// checkout"), the same contract as Stripe's (payments/fulfil.ts): PayPal's objects as they are now (re-read
// by the caller) become lifecycle events; every function runs inside one transaction and locks the
// purchase's row first, so captures and webhook deliveries in any order, repeated or concurrent, end in the
// same state:
// - a pending purchase is activated once: status, word credits through the ledger (source purchase/id,
//   at most once ever), the discount's redemption;
// - each PayPal capture or subscription sale is recorded once as an invoice row (order_id = its id);
// - a renewal sale adds the period's words once (ledger source purchase/<id>:<sale id>);
// - a subscription first ACTIVE switches plans: the customer's other live Stripe or PayPal plan ends
//   (the lifecycle's supersede effect, the same per-user lock as Stripe's activations);
// - a DECLINED capture fails the purchase with PayPal's reason; a payment over the product's limits or the
//   code's one use fails it too and is refunded (the lifecycle's OVER_LIMIT).
// The follow-ups (receipt mail, the product's webhook_url, refunds, dropped cached actors) are the lifecycle's runEffects.
import { toCents } from '@pluma/common/rules/discounted-price';
import type { Order, Subscription } from '@paypal/paypal-server-sdk';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { invoices, purchases } from '../../db/schema';
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
  type PurchaseRow,
} from '../purchase-lifecycle';
import { expirationDaysUntil } from '@pluma/common/rules/purchase-expiry';

type PurchaseStatus = 'active' | 'pending' | 'revoked' | 'cancelled';

/**
 * Purchase status for each PayPal subscription status (docs/decisions.md): ACTIVE gives access;
 * APPROVAL_PENDING and APPROVED are not paid yet; SUSPENDED (PayPal gave up on failed payments, or the
 * merchant suspended it) takes access away; CANCELLED and EXPIRED end it (cancelled when it had been
 * paid, so access lasts to the paid period's end; revoked when it never was).
 */
export function purchaseStatusForPayPal(status: string | undefined, paid: boolean): PurchaseStatus {
  switch (status) {
    case 'ACTIVE':
      return 'active';
    case 'APPROVAL_PENDING':
    case 'APPROVED':
      return 'pending';
    case 'CANCELLED':
    case 'EXPIRED':
      return paid ? 'cancelled' : 'revoked';
    case 'SUSPENDED':
    default:
      return 'revoked';
  }
}

/**
 * A one-time purchase's order as PayPal has it now: a COMPLETED capture in USD for at least the amount we
 * asked is 'paid' (completed once, with its invoice; over a limit: failed and refunded, no invoice); a
 * DECLINED or FAILED capture is 'declined' with PayPal's reason. Anything else (not approved, PENDING
 * review) changes nothing: the pending purchase waits for the capture's webhook or a new attempt.
 */
export async function applyOrder(tx: Tx, order: Order): Promise<Effect[]> {
  const unit = order.purchaseUnits?.[0];
  const purchaseId = Number(unit?.customId);
  if (!unit || !Number.isInteger(purchaseId) || purchaseId <= 0) return [];
  const purchase = await lockPurchaseById(tx, purchaseId);
  // The order must be the one checkout made for this purchase (custom_id alone could be anyone's).
  if (!purchase || purchase.paymentProcessorId !== order.id) return [];
  const captures = unit.payments?.captures ?? [];
  const capture = captures.find((c) => c.status === 'COMPLETED');
  if (!capture) {
    const declined = captures.find((c) => c.status === 'DECLINED' || c.status === 'FAILED');
    if (!declined) return [];
    const reason = (declined.statusDetails?.reason ?? declined.status ?? 'DECLINED').slice(0, 100);
    return (await applyLifecycleEvent(tx, purchase, 'declined', { product: await productOf(tx, purchase), failureReason: reason })).effects;
  }
  if (!capture.id || capture.amount?.currencyCode !== 'USD') return [];
  const paidCents = toCents(Number(capture.amount.value));
  if (!(paidCents >= toCents(purchase.totalPayment))) return [];
  const product = await productOf(tx, purchase);
  const applied = await applyLifecycleEvent(tx, purchase, 'paid', { product, payment: { provider: 'paypal', id: capture.id, amount: paidCents / 100 } });
  // A payment refunded over a limit is no income; any other is recorded once.
  if (applied.purchase.status !== 'failed') await recordInvoice(tx, applied.purchase, { orderId: capture.id, amount: paidCents / 100, status: 'completed', expirationDate: null });
  return applied.effects;
}

/** A capture PayPal refused outright (INSTRUMENT_DECLINED at capture): the order's purchase fails with that reason. */
export async function declineOrder(tx: Tx, purchaseId: number, orderId: string, reason: string): Promise<Effect[]> {
  const purchase = await lockPurchaseById(tx, purchaseId);
  if (!purchase || purchase.paymentProcessorId !== orderId) return [];
  return (await applyLifecycleEvent(tx, purchase, 'declined', { product: await productOf(tx, purchase), failureReason: reason.slice(0, 100) })).effects;
}

/** A subscription's sale (PAYMENT.SALE.COMPLETED): PayPal's sale id and the amount paid. */
export interface PayPalSale {
  id: string;
  amount: number;
}

async function lockPurchaseOfSubscription(tx: Tx, subscription: Subscription): Promise<PurchaseRow | undefined> {
  const [bySubscription] = await tx.select().from(purchases).where(eq(purchases.subscriptionId, subscription.id!)).orderBy(purchases.purchaseId).limit(1).for('update');
  if (bySubscription) return bySubscription;
  // Checkout saves the subscription id right after creating it; a webhook faster than that save finds it by custom_id.
  const fromCustomId = Number(subscription.customId);
  if (!Number.isInteger(fromCustomId) || fromCustomId <= 0) return undefined;
  const candidate = await lockPurchaseById(tx, fromCustomId);
  return candidate && candidate.subscriptionId == null && candidate.status === 'pending' ? candidate : undefined;
}

/**
 * A subscription as PayPal has it now, and the sale the event was about (if any). Sets the purchase's
 * status (purchaseStatusForPayPal), activates it once when it first becomes ACTIVE, keeps access up to
 * the next billing time (expiration_days), records each sale once and adds a renewal's words once.
 */
export async function applyPayPalSubscription(tx: Tx, subscription: Subscription, sale: PayPalSale | null): Promise<Effect[]> {
  if (!subscription.id) return [];
  const purchase = await lockPurchaseOfSubscription(tx, subscription);
  if (!purchase) return [];
  const product = await productOf(tx, purchase);
  const paidOnce = purchase.status !== 'pending' || subscription.status === 'ACTIVE' || sale != null;
  let status: string = purchaseStatusForPayPal(subscription.status, paidOnce);
  // A customer's own cancellation, or a plan switched away from, stays cancelled (PayPal ends the
  // subscription at once; a customer's cancel keeps access to the paid end).
  if (purchase.status === 'cancelled' && status === 'active') status = 'cancelled';

  const now = new Date();
  const changes: Partial<typeof purchases.$inferInsert> = {};
  const firstPayment = subscription.billingInfo?.lastPayment?.amount?.value;
  if (status !== purchase.status && status === 'cancelled') changes.cancelledAt = subscription.statusUpdateTime ? new Date(subscription.statusUpdateTime) : now;
  if (purchase.subscriptionId == null) changes.subscriptionId = subscription.id;
  // Access lasts to the next billing time: expiration_days from the purchase's creation. A cancelled
  // subscription has none any more (PayPal drops it), so the days already kept stand.
  const next = subscription.billingInfo?.nextBillingTime ? new Date(subscription.billingInfo.nextBillingTime) : null;
  if (next && !Number.isNaN(next.getTime()) && status === 'active') {
    // Whole days to the period's end, rounded (the row is written at checkout, the provider's period starts
    // seconds or minutes later: rounding up gave a monthly plan bought on 28 Nov access until 29 Dec).
    const days = expirationDaysUntil(purchase.createdAt, next);
    if (days !== purchase.expirationDays) changes.expirationDays = days;
  }
  // A product with a free trial starts on it: the trial's words; its first paid cycle is a renewal.
  const amount = sale ? sale.amount : firstPayment ? Number(firstPayment) : 0;
  const followed = await followProviderStatus(tx, purchase, status, {
    product,
    trial: purchase.freeTrialLength != null,
    payment: { provider: 'paypal', id: sale?.id ?? subscription.id, amount },
    changes,
  });
  const current = followed.purchase;
  const effects = followed.effects;
  status = followed.status;
  // Paid over a limit: failed, refunded and cancelled at PayPal (the lifecycle's effects); nothing more here.
  if (current.status === 'failed') return effects;

  // A plan switched away from (cancelled without a customer's reason) that PayPal still bills — the cancel
  // after the switch failed: cancel it again. The first time this plan is ACTIVE, the other live plan ends.
  if (purchase.status === 'cancelled' && purchase.cancelReason == null && subscription.status === 'ACTIVE') {
    await markPlanSwitchCancelDue(tx, current, subscription.id);
    effects.push({ kind: 'superseded', purchase: current, product, amount: 0, orderId: null, subscriptionId: subscription.id });
  }

  if (sale && (status === 'active' || status === 'cancelled')) {
    const [earlier] = await tx.select({ invoiceId: invoices.invoiceId }).from(invoices).where(eq(invoices.purchaseId, purchase.purchaseId)).limit(1);
    const recorded = await recordInvoice(tx, current, { orderId: sale.id, amount: sale.amount, status: 'completed', expirationDate: next && !Number.isNaN(next.getTime()) ? next : null });
    // A renewal: a sale after an earlier one, or the first paid cycle after a free trial.
    const renewal = recorded && (earlier != null || purchase.freeTrialLength != null) && sale.amount > 0 && status === 'active';
    if (renewal) {
      await grantWords(tx, { userId: current.userId, sourceType: 'purchase', sourceId: `${current.purchaseId}:${sale.id}`, words: wordsOf(product, false) });
      effects.push({ kind: 'renewed', purchase: current, product, amount: sale.amount, orderId: sale.id });
    }
  }
  return effects;
}
