// Subscriptions: create (trials, coupons, payment_behavior), retrieve, list, update
// (cancel_at_period_end, trial_end=now, default_payment_method), cancel; and the lifecycle the
// control API drives: trial end, renewal, failed renewal.
//
// Pinned-API shapes: the billing period lives on the subscription item (`items.data[0].
// current_period_start/end`), not on the subscription; discounts are `discounts[]` (ids, expandable
// to Discount objects whose `source.coupon` is the coupon); the top-level `coupon` parameter no
// longer exists and is refused as an unknown parameter, as the real API does.
//
// Which card pays: the subscription's `default_payment_method`, else the customer's
// `invoice_settings.default_payment_method`. A card confirmed on the first invoice or on the
// pending SetupIntent becomes the subscription's default only with
// `payment_settings[save_default_payment_method]=on_subscription` — as in Stripe, so a checkout
// that forgets it fails its renewals here too.
import { redeemCoupon, type CouponRecord, type PriceRecord } from './catalog';
import { listRoute, type Ctx, type Route } from './context';
import { invalidRequest, missingParam, unexpectedState } from './errors';
import { bool, int, list, metadata, obj, str, type Params } from './form';
import { createPendingSetupIntent, type PaymentIntentRecord, type SetupIntentRecord } from './intents';
import { chargeInvoice, createInvoice, registerInvoiceIncludables, type DiscountRecord, type InvoicePlan, type InvoiceRecord } from './invoices';
import { changedFields, getCustomer, resolvePaymentMethod, type CustomerRecord } from './payments';
import { newId, type StoredObject } from './store';

interface SubscriptionItem {
  id: string;
  object: 'subscription_item';
  billing_thresholds: null;
  created: number;
  current_period_start: number;
  current_period_end: number;
  current_trial: null;
  discounts: string[];
  metadata: Record<string, string>;
  plan: Record<string, unknown>;
  price: Record<string, unknown>;
  quantity: number;
  subscription: string;
  tax_rates: [];
}

export interface SubscriptionRecord extends StoredObject {
  object: 'subscription';
  status: 'incomplete' | 'incomplete_expired' | 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid' | 'paused';
  customer: string;
  currency: string;
  items: { object: 'list'; data: SubscriptionItem[]; has_more: false; total_count: number; url: string };
  latest_invoice: string | null;
  pending_setup_intent: string | null;
  default_payment_method: string | null;
  discounts: string[];
  metadata: Record<string, string>;
  description: string | null;
  trial_start: number | null;
  trial_end: number | null;
  trial_settings: { end_behavior: { missing_payment_method: 'cancel' | 'create_invoice' | 'pause' } };
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  ended_at: number | null;
  cancellation_details: { comment: string | null; feedback: string | null; reason: string | null };
  payment_settings: { payment_method_options: null; payment_method_types: null; save_default_payment_method: 'off' | 'on_subscription' };
  start_date: number;
  billing_cycle_anchor: number;
  collection_method: 'charge_automatically';
  [other: string]: unknown;
  /** Set while `create` runs, so its first payment does not also send `customer.subscription.updated`. */
  _creating?: boolean;
}

const DAY = 86_400;

/** Adds whole intervals the way Stripe anchors billing: same day of month, clamped to the month's end. */
export function addInterval(at: number, interval: string, count: number): number {
  if (interval === 'day') return at + count * DAY;
  if (interval === 'week') return at + count * 7 * DAY;
  const date = new Date(at * 1000);
  const day = date.getUTCDate();
  const months = interval === 'year' ? 12 * count : count;
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return Math.floor(date.getTime() / 1000);
}

const item = (sub: SubscriptionRecord) => sub.items.data[0];
const priceOf = (ctx: Ctx, sub: SubscriptionRecord) => ctx.store.get<PriceRecord>('price', String(item(sub).price.id));

function planFor(price: PriceRecord) {
  return {
    id: price.id, object: 'plan', active: price.active, amount: price.unit_amount, amount_decimal: price.unit_amount_decimal, billing_scheme: 'per_unit',
    created: price.created, currency: price.currency, interval: price.recurring!.interval, interval_count: price.recurring!.interval_count, livemode: false,
    metadata: price.metadata, meter: null, nickname: price.nickname, product: price.product, tiers_mode: null, transform_usage: null, trial_period_days: null, usage_type: 'licensed',
  };
}

/** Discounts that still apply to an invoice for a period starting at `periodStart`. */
function activeDiscounts(ctx: Ctx, sub: SubscriptionRecord, periodStart: number): DiscountRecord[] {
  return sub.discounts.map((id) => ctx.store.get<DiscountRecord>('discount', id)).filter((d) => d.end === null || periodStart < d.end);
}

/** Creates the next invoice; spends `once` coupons on the first invoice that charges something. */
function invoiceFor(ctx: Ctx, sub: SubscriptionRecord, plan: Omit<InvoicePlan, 'subscription' | 'price' | 'discounts'>): InvoiceRecord {
  const it = item(sub);
  const discounts = activeDiscounts(ctx, sub, plan.periodStart);
  const invoice = createInvoice(ctx, {
    ...plan,
    subscription: { id: sub.id, customer: sub.customer, metadata: sub.metadata, itemId: it.id, quantity: it.quantity },
    price: priceOf(ctx, sub),
    discounts,
  });
  if (invoice.subtotal > 0) {
    for (const discount of discounts.filter((d) => d._coupon.duration === 'once')) {
      discount.end = ctx.now();
      sub.discounts = sub.discounts.filter((id) => id !== discount.id);
    }
  }
  sub.latest_invoice = invoice.id;
  return invoice;
}

function paymentMethodFor(ctx: Ctx, sub: SubscriptionRecord): string | null {
  return sub.default_payment_method ?? ctx.store.get<CustomerRecord>('customer', sub.customer).invoice_settings.default_payment_method;
}

function createSubscription(ctx: Ctx, params: Params): SubscriptionRecord {
  if (params.coupon !== undefined) throw invalidRequest('Received unknown parameter: coupon', 'coupon');
  if (!str(params, 'customer')) throw missingParam('customer');
  const customer = getCustomer(ctx, str(params, 'customer'));
  const items = list(params, 'items').filter((i): i is Params => typeof i === 'object' && !Array.isArray(i));
  if (items.length === 0) throw missingParam('items');
  if (items.length > 1) throw invalidRequest('The emulator supports one subscription item.', 'items');
  const price = ctx.store.get<PriceRecord>('price', str(items[0], 'price'), 'items[0][price]');
  if (!price.recurring) {
    throw invalidRequest('The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.', 'items[0][price]');
  }
  const quantity = int(items[0], 'quantity') ?? 1;
  let defaultPm: string | null = null;
  if (str(params, 'default_payment_method')) {
    const pm = resolvePaymentMethod(ctx, str(params, 'default_payment_method')!, 'default_payment_method');
    if (pm.customer !== customer.id) {
      throw invalidRequest(`The customer does not have a payment method with the ID ${pm.id}. The payment method must be attached to the customer.`, 'default_payment_method');
    }
    defaultPm = pm.id;
  }
  const now = ctx.now();
  const trialEndParam = params.trial_end;
  const days = int(params, 'trial_period_days');
  let trialEnd: number | null = null;
  if (trialEndParam !== undefined && trialEndParam !== 'now') trialEnd = int(params, 'trial_end')!;
  else if (days) trialEnd = now + days * DAY;
  if (trialEnd !== null && trialEnd <= now) throw invalidRequest('Invalid timestamp: must be an integer Unix timestamp in the future.', 'trial_end');
  const behavior = str(params, 'payment_behavior') ?? 'allow_incomplete';
  if (!trialEnd && behavior === 'error_if_incomplete' && !defaultPm && !customer.invoice_settings.default_payment_method) {
    throw invalidRequest('This customer has no attached payment source or default payment method. Please consider adding a default payment method.');
  }
  const id = newId('sub_');
  const periodEnd = trialEnd ?? addInterval(now, price.recurring.interval, price.recurring.interval_count);
  const save = str(obj(params, 'payment_settings'), 'save_default_payment_method') === 'on_subscription' ? 'on_subscription' : 'off';
  const endBehavior = str(obj(obj(params, 'trial_settings'), 'end_behavior'), 'missing_payment_method') ?? 'create_invoice';
  const renderedPrice = ctx.store.render(price);
  const sub = ctx.store.put<SubscriptionRecord>({
    id,
    object: 'subscription',
    created: now,
    livemode: false,
    status: trialEnd ? 'trialing' : 'incomplete',
    customer: customer.id,
    currency: price.currency,
    items: {
      object: 'list',
      data: [{
        id: newId('si_', 14), object: 'subscription_item', billing_thresholds: null, created: now, current_period_start: now, current_period_end: periodEnd,
        current_trial: null, discounts: [], metadata: {}, plan: planFor(price), price: renderedPrice, quantity, subscription: id, tax_rates: [],
      }],
      has_more: false,
      total_count: 1,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    latest_invoice: null,
    pending_setup_intent: null,
    default_payment_method: defaultPm,
    discounts: [],
    metadata: metadata(params),
    description: str(params, 'description') ?? null,
    trial_start: trialEnd ? now : null,
    trial_end: trialEnd,
    trial_settings: { end_behavior: { missing_payment_method: endBehavior as 'cancel' | 'create_invoice' | 'pause' } },
    cancel_at: null,
    cancel_at_period_end: bool(params, 'cancel_at_period_end') ?? false,
    canceled_at: null,
    ended_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: save },
    start_date: now,
    billing_cycle_anchor: periodEnd,
    collection_method: 'charge_automatically',
    application: null, application_fee_percent: null, automatic_tax: { disabled_reason: null, enabled: false, liability: null }, billing_cycle_anchor_config: null,
    billing_mode: { type: 'flexible', flexible: { proration_discounts: 'included' }, updated_at: now }, billing_schedules: [], billing_thresholds: null,
    customer_account: null, days_until_due: null, default_source: null, default_tax_rates: [], invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
    managed_payments: null, next_pending_invoice_item_invoice: null, on_behalf_of: null, pause_collection: null, pending_invoice_item_interval: null,
    pending_update: null, schedule: null, test_clock: null, transfer_data: null,
    _creating: true,
  });
  if (sub.cancel_at_period_end) sub.cancel_at = periodEnd;
  for (const [index, entry] of list(params, 'discounts').entries()) {
    if (typeof entry !== 'object' || Array.isArray(entry)) continue;
    if (!str(entry, 'coupon')) throw invalidRequest('The emulator supports discounts by coupon only.', `discounts[${index}]`);
    const coupon = redeemCoupon(ctx, str(entry, 'coupon')!, `discounts[${index}][coupon]`);
    sub.discounts.push(createDiscount(ctx, coupon, sub, now).id);
  }
  try {
    startBilling(ctx, sub, { behavior, trial: Boolean(trialEnd), periodEnd, offSession: bool(params, 'off_session') ?? false });
  } finally {
    delete sub._creating;
  }
  ctx.emit('customer.subscription.created', sub);
  if (trialEnd && trialEnd - now <= 3 * DAY) ctx.emit('customer.subscription.trial_will_end', sub);
  return sub;
}

function createDiscount(ctx: Ctx, coupon: CouponRecord, sub: SubscriptionRecord, now: number): DiscountRecord {
  return ctx.store.put<DiscountRecord>({
    id: newId('di_'), object: 'discount', created: now, livemode: false, source: { coupon: ctx.store.render(coupon), type: 'coupon' }, checkout_session: null,
    customer: sub.customer, customer_account: null, end: coupon.duration === 'repeating' ? addInterval(now, 'month', coupon.duration_in_months ?? 1) : null,
    invoice: null, invoice_item: null, promotion_code: null, start: now, subscription: sub.id, subscription_item: null, _coupon: coupon,
  });
}

/** The first invoice: a paid $0 one for trials (plus a pending SetupIntent), else charge now or leave it to Stripe.js. */
function startBilling(ctx: Ctx, sub: SubscriptionRecord, options: { behavior: string; trial: boolean; periodEnd: number; offSession: boolean }) {
  const invoice = invoiceFor(ctx, sub, { periodStart: sub.start_date, periodEnd: options.periodEnd, previousPeriod: null, billingReason: 'subscription_create', trial: options.trial });
  const pmId = paymentMethodFor(ctx, sub);
  if (invoice.status === 'paid') {
    if (sub.status === 'incomplete') sub.status = 'active';
    if (options.behavior === 'default_incomplete' && !sub.default_payment_method) {
      sub.pending_setup_intent = createPendingSetupIntent(ctx, sub.customer, sub.id).id;
    }
    return;
  }
  const pi = ctx.store.get<PaymentIntentRecord>('payment_intent', invoice._paymentIntent!);
  if (options.behavior === 'default_incomplete') {
    // Stripe.js confirms later with the invoice's confirmation_secret; a known card is pre-filled.
    if (pmId) {
      pi.payment_method = pmId;
      pi.status = 'requires_confirmation';
    }
    return;
  }
  if (!pmId) return;
  const error = chargeInvoice(ctx, invoice, pmId, { offSession: options.offSession });
  if (error && options.behavior === 'error_if_incomplete') {
    for (const id of [sub.id, invoice.id]) ctx.store.delete(id);
    throw error;
  }
}

/** Hook: an invoice's PaymentIntent succeeded or failed an attempt. */
function onPaymentIntentSettled(ctx: Ctx, intentId: string) {
  const pi = ctx.store.get<PaymentIntentRecord>('payment_intent', intentId);
  const invoice = pi._invoice ? ctx.store.find<InvoiceRecord>('invoice', pi._invoice) : undefined;
  if (!invoice || invoice.status !== 'open') return;
  const sub = ctx.store.get<SubscriptionRecord>('subscription', invoice.parent.subscription_details.subscription);
  const before = ctx.store.render(sub);
  invoice.attempted = true;
  invoice.attempt_count++;
  if (pi.status === 'succeeded') {
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.next_payment_attempt = null;
    invoice.status_transitions.paid_at = ctx.now();
    ctx.emit('invoice.paid', invoice);
    ctx.emit('invoice.payment_succeeded', invoice);
    if (['incomplete', 'past_due', 'unpaid'].includes(sub.status)) sub.status = 'active';
    if (sub.payment_settings.save_default_payment_method === 'on_subscription') sub.default_payment_method = pi.payment_method;
  } else {
    invoice.next_payment_attempt = invoice.billing_reason === 'subscription_cycle' ? ctx.now() + 3 * DAY : null;
    ctx.emit('invoice.payment_failed', invoice);
    if (invoice.billing_reason === 'subscription_cycle' && (sub.status === 'active' || sub.status === 'trialing')) sub.status = 'past_due';
  }
  emitUpdated(ctx, sub, before);
}

/** Hook: the subscription's pending SetupIntent succeeded (a card collected during a trial). */
function onSetupIntentSucceeded(ctx: Ctx, intentId: string) {
  const si = ctx.store.get<SetupIntentRecord>('setup_intent', intentId);
  const sub = si._subscription ? ctx.store.find<SubscriptionRecord>('subscription', si._subscription) : undefined;
  if (!sub || sub.pending_setup_intent !== si.id) return;
  const before = ctx.store.render(sub);
  sub.pending_setup_intent = null;
  if (sub.payment_settings.save_default_payment_method === 'on_subscription') sub.default_payment_method = si.payment_method;
  emitUpdated(ctx, sub, before);
}

function emitUpdated(ctx: Ctx, sub: SubscriptionRecord, before: Record<string, unknown>) {
  if (sub._creating) return;
  const previous = changedFields(before, ctx.store.render(sub));
  if (Object.keys(previous).length) ctx.emit('customer.subscription.updated', sub, previous);
}

function cancelNow(ctx: Ctx, sub: SubscriptionRecord, at: number, details: Partial<SubscriptionRecord['cancellation_details']> = {}) {
  sub.status = 'canceled';
  sub.canceled_at = sub.canceled_at ?? at;
  sub.ended_at = at;
  sub.cancel_at_period_end = false;
  sub.cancellation_details = { ...sub.cancellation_details, reason: 'cancellation_requested', ...details };
  ctx.emit('customer.subscription.deleted', sub);
}

export interface AdvanceOptions {
  /** Forces the renewal charge: `fail` declines whatever the card, `succeed` ignores the card's behaviour. */
  outcome?: 'succeed' | 'fail';
}

/**
 * Moves a subscription to its next period, as time passing would: a trial ends, a period renews
 * (new invoice charged off-session), a subscription set to cancel at period end ends, and an
 * incomplete one expires.
 */
export function advanceSubscription(ctx: Ctx, id: string, options: AdvanceOptions = {}): SubscriptionRecord {
  const sub = ctx.store.get<SubscriptionRecord>('subscription', id);
  const it = item(sub);
  if (sub.status === 'incomplete') {
    const before = ctx.store.render(sub);
    sub.status = 'incomplete_expired';
    sub.ended_at = ctx.now();
    emitUpdated(ctx, sub, before);
    return sub;
  }
  if (['canceled', 'incomplete_expired'].includes(sub.status)) throw unexpectedState(`This subscription is ${sub.status} and has no next period.`, 'subscription_unexpected_state');
  if (sub.cancel_at_period_end || (sub.cancel_at !== null && sub.cancel_at <= it.current_period_end)) {
    cancelNow(ctx, sub, it.current_period_end);
    return sub;
  }
  if (sub.status === 'trialing') return endTrial(ctx, sub, sub.trial_end ?? it.current_period_end, options);
  return renew(ctx, sub, it.current_period_end, 'renewal', options);
}

/** Ends the trial at `at` (now, for `trial_end=now`) and bills the first paid period. */
export function endTrial(ctx: Ctx, sub: SubscriptionRecord, at: number = ctx.now(), options: AdvanceOptions = {}): SubscriptionRecord {
  if (sub.status !== 'trialing') throw unexpectedState(`This subscription is not trialing (status ${sub.status}).`, 'subscription_unexpected_state');
  sub.trial_end = at;
  return renew(ctx, sub, at, 'trial-end', options);
}

function renew(ctx: Ctx, sub: SubscriptionRecord, start: number, why: 'renewal' | 'trial-end', options: AdvanceOptions): SubscriptionRecord {
  const before = ctx.store.render(sub);
  const it = item(sub);
  const price = priceOf(ctx, sub);
  const pmId = paymentMethodFor(ctx, sub);
  if (why === 'trial-end' && !pmId && sub.trial_settings.end_behavior.missing_payment_method !== 'create_invoice') {
    if (sub.trial_settings.end_behavior.missing_payment_method === 'cancel') cancelNow(ctx, sub, start);
    else {
      sub.status = 'paused';
      emitUpdated(ctx, sub, before);
    }
    return sub;
  }
  const previousPeriod = { start: it.current_period_start, end: it.current_period_end };
  it.current_period_start = start;
  it.current_period_end = addInterval(start, price.recurring!.interval, price.recurring!.interval_count);
  if (why === 'trial-end') sub.status = 'active';
  const invoice = invoiceFor(ctx, sub, { periodStart: start, periodEnd: it.current_period_end, previousPeriod, billingReason: 'subscription_cycle', trial: false });
  if (invoice.status === 'paid' && (sub.status === 'past_due' || sub.status === 'unpaid')) sub.status = 'active';
  // The period change is an update of its own, sent before the payment's outcome.
  emitUpdated(ctx, sub, before);
  if (invoice.status === 'paid') return sub;
  if (!pmId) {
    onPaymentIntentSettled(ctx, invoice._paymentIntent!);
    return sub;
  }
  chargeInvoice(ctx, invoice, pmId, { offSession: true, force: options.outcome });
  return sub;
}

function updateSubscription(ctx: Ctx, sub: SubscriptionRecord, params: Params): SubscriptionRecord {
  if (params.coupon !== undefined) throw invalidRequest('Received unknown parameter: coupon', 'coupon');
  if (params.items !== undefined) throw invalidRequest('The emulator does not change subscription items; cancel and create a new subscription.', 'items');
  if (sub.status === 'canceled' && Object.keys(params).some((k) => !['metadata', 'cancellation_details', 'expand'].includes(k))) {
    throw invalidRequest('A canceled subscription can only update its cancellation_details and metadata.');
  }
  const before = ctx.store.render(sub);
  sub.metadata = metadata(params, sub.metadata);
  const details = obj(params, 'cancellation_details');
  if (params.cancellation_details !== undefined) {
    sub.cancellation_details = { ...sub.cancellation_details, comment: str(details, 'comment') ?? null, feedback: str(details, 'feedback') ?? null };
  }
  const atPeriodEnd = bool(params, 'cancel_at_period_end');
  if (atPeriodEnd !== undefined) {
    sub.cancel_at_period_end = atPeriodEnd;
    sub.cancel_at = atPeriodEnd ? item(sub).current_period_end : null;
    sub.canceled_at = atPeriodEnd ? ctx.now() : null;
    sub.cancellation_details.reason = atPeriodEnd ? 'cancellation_requested' : null;
  }
  if (params.default_payment_method !== undefined) {
    const pmId = str(params, 'default_payment_method');
    const pm = pmId ? resolvePaymentMethod(ctx, pmId, 'default_payment_method') : null;
    if (pm && pm.customer !== sub.customer) {
      throw invalidRequest(`The customer does not have a payment method with the ID ${pm.id}. The payment method must be attached to the customer.`, 'default_payment_method');
    }
    sub.default_payment_method = pm?.id ?? null;
  }
  if (params.description !== undefined) sub.description = str(params, 'description') ?? null;
  const save = str(obj(params, 'payment_settings'), 'save_default_payment_method');
  if (save) sub.payment_settings.save_default_payment_method = save === 'on_subscription' ? 'on_subscription' : 'off';
  emitUpdated(ctx, sub, before);
  if (params.trial_end === 'now') endTrial(ctx, sub, ctx.now());
  return sub;
}

export function registerSubscriptionHooks(ctx: Ctx) {
  registerInvoiceIncludables(ctx);
  ctx.hooks.paymentIntentSettled.push((id) => onPaymentIntentSettled(ctx, id));
  ctx.hooks.setupIntentSucceeded.push((id) => onSetupIntentSucceeded(ctx, id));
}

export const subscriptionRoutes: Route[] = [
  { method: 'POST', pattern: '/v1/subscriptions', handle: (ctx, { params }) => ctx.store.present(createSubscription(ctx, params), params) },
  { method: 'GET', pattern: '/v1/subscriptions/:id', handle: (ctx, { params, ids }) => ctx.store.present(ctx.store.get('subscription', ids.id), params) },
  {
    method: 'POST',
    pattern: '/v1/subscriptions/:id',
    handle: (ctx, { params, ids }) => ctx.store.present(updateSubscription(ctx, ctx.store.get('subscription', ids.id), params), params),
  },
  {
    method: 'DELETE',
    pattern: '/v1/subscriptions/:id',
    handle: (ctx, { params, ids }) => {
      const sub = ctx.store.get<SubscriptionRecord>('subscription', ids.id);
      if (sub.status === 'canceled') throw unexpectedState(`No such subscription: '${sub.id}' is already canceled.`, 'subscription_unexpected_state');
      const details = obj(params, 'cancellation_details');
      cancelNow(ctx, sub, ctx.now(), { comment: str(details, 'comment') ?? sub.cancellation_details.comment, feedback: str(details, 'feedback') ?? sub.cancellation_details.feedback });
      return ctx.store.present(sub, params);
    },
  },
  listRoute<SubscriptionRecord>('/v1/subscriptions', 'subscription', (params) => {
    const customer = str(params, 'customer');
    const price = str(params, 'price');
    const status = str(params, 'status');
    return (s) =>
      (!customer || s.customer === customer) &&
      (!price || item(s).price.id === price) &&
      (status === 'all' || (status ? s.status === status : s.status !== 'canceled' && s.status !== 'incomplete_expired'));
  }),
];
