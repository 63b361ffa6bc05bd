// Subscriptions (`/v1/billing/subscriptions`, the SDK's SubscriptionsController): create, get, list,
// cancel, suspend, activate, transactions. The buyer's approval and the renewals happen outside the
// API (approve page, control routes) through `approveSubscription` and `renewSubscription`.
//
// Lifecycle: APPROVAL_PENDING → (buyer approves) ACTIVE, billing the first cycle at once (a free
// trial cycle bills nothing) → each renewal bills the next cycle (PAYMENT.SALE.COMPLETED) or fails
// (BILLING.SUBSCRIPTION.PAYMENT.FAILED; after the plan's `payment_failure_threshold` failures, when
// it is above 0, the subscription is SUSPENDED) → CANCELLED (immediately, as PayPal does) or EXPIRED
// once a finite regular cycle count is used up. Emulated time: each renewal starts where the last
// period ended, whatever the wall clock says.
import { BodyCheck, invalidRequest, notFound, unprocessable } from './errors';
import { plan as getPlan } from './catalog';
import { buyer, type PayerInput } from './orders';
import { cents, feeBreakdown, fromCents, isoTime, link, paginate, ppId, snapshot, type Ctx, type Json, type Money, type Route, type SubscriptionRecord } from './store';

const SUBSCRIPTION = { resourceType: 'subscription', resourceVersion: '2.0' };

function subscription(ctx: Ctx, id: string): SubscriptionRecord {
  const found = ctx.state.subscriptions.get(id);
  if (!found) throw notFound('subscriptions/v1', 'The specified resource ID does not exist.');
  return found;
}

function links(ctx: Ctx, record: SubscriptionRecord) {
  const { id, status } = record.wire;
  const self = `${ctx.origin}/v1/billing/subscriptions/${id}`;
  if (status === 'APPROVAL_PENDING') return [link(`${ctx.origin}/webapps/billing/subscriptions?ba_token=${record.baToken}`, 'approve'), link(self, 'edit', 'PATCH'), link(self, 'self')];
  if (status === 'ACTIVE') return [link(self, 'self'), link(self, 'edit', 'PATCH'), link(`${self}/suspend`, 'suspend', 'POST'), link(`${self}/cancel`, 'cancel', 'POST'), link(`${self}/capture`, 'capture', 'POST')];
  if (status === 'SUSPENDED') return [link(self, 'self'), link(self, 'edit', 'PATCH'), link(`${self}/activate`, 'activate', 'POST'), link(`${self}/cancel`, 'cancel', 'POST')];
  return [link(self, 'self')];
}

export function renderSubscription(ctx: Ctx, record: SubscriptionRecord): Json {
  return snapshot({ ...record.wire, links: links(ctx, record) });
}

function setStatus(record: SubscriptionRecord, status: string, note?: string) {
  const now = isoTime();
  record.wire.status = status;
  record.wire.status_update_time = now;
  record.wire.update_time = now;
  if (note !== undefined) record.wire.status_change_note = note;
}

function createSubscription(ctx: Ctx, body: Json) {
  const check = new BodyCheck('subscriptions/v1');
  const planId = check.text(body, 'plan_id', '', { required: true, max: 50 });
  const customId = check.text(body, 'custom_id', '', { max: 127 });
  const startTime = check.text(body, 'start_time', '');
  if (startTime && Number.isNaN(Date.parse(startTime))) check.invalid('/start_time', startTime, 'INVALID_PARAMETER_SYNTAX');
  const quantity = check.text(body, 'quantity', '') ?? '1';
  const context = (body.application_context as Json | undefined) ?? undefined;
  const returnUrl = context ? check.text(context, 'return_url', '/application_context', { required: true }) : undefined;
  const cancelUrl = context ? check.text(context, 'cancel_url', '/application_context', { required: true }) : undefined;
  check.done();
  const plan = ctx.state.plans.get(planId!);
  if (!plan) throw unprocessable('RESOURCE_NOT_FOUND', `The plan_id ${planId} does not exist.`, 'subscriptions/v1');
  if (plan.status !== 'ACTIVE') throw unprocessable('PLAN_STATUS_INVALID', 'Invalid plan status for subscription creation; plan status should be active.', 'subscriptions/v1');
  const now = isoTime();
  const currency = ((plan.billing_cycles.find((c) => c.pricing_scheme)?.pricing_scheme as Json | undefined)?.fixed_price as Money | undefined)?.currency_code ?? 'USD';
  const record: SubscriptionRecord = {
    wire: {
      id: `I-${ppId(12)}`,
      plan_id: plan.id,
      status: 'APPROVAL_PENDING',
      status_update_time: now,
      start_time: startTime ?? now,
      quantity,
      shipping_amount: { currency_code: currency, value: '0.0' },
      ...(body.subscriber ? { subscriber: snapshot(body.subscriber) } : {}),
      ...(customId ? { custom_id: customId } : {}),
      plan_overridden: false,
      create_time: now,
      update_time: now,
    },
    baToken: `BA-${ppId(17)}`,
    returnUrl,
    cancelUrl,
    nextBillingAt: Date.now(),
    transactions: [],
  };
  ctx.state.subscriptions.set(record.wire.id, record);
  const rendered = renderSubscription(ctx, record);
  ctx.emit('BILLING.SUBSCRIPTION.CREATED', rendered, { ...SUBSCRIPTION, summary: 'Subscription created' });
  return { status: 201, body: rendered };
}

export function subscriptionByToken(ctx: Ctx, baToken: string): SubscriptionRecord | undefined {
  return [...ctx.state.subscriptions.values()].find((s) => s.baToken === baToken);
}

function addInterval(ms: number, frequency: { interval_unit: string; interval_count: number }): number {
  const date = new Date(ms);
  const n = frequency.interval_count;
  if (frequency.interval_unit === 'DAY') date.setUTCDate(date.getUTCDate() + n);
  if (frequency.interval_unit === 'WEEK') date.setUTCDate(date.getUTCDate() + 7 * n);
  const months = frequency.interval_unit === 'MONTH' ? n : frequency.interval_unit === 'YEAR' ? 12 * n : 0;
  if (months) {
    // Jan 31 + 1 month is the last day of February, not March 3.
    const day = date.getUTCDate();
    date.setUTCDate(1);
    date.setUTCMonth(date.getUTCMonth() + months);
    date.setUTCDate(Math.min(day, new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate()));
  }
  return date.getTime();
}

interface Execution {
  tenure_type: string;
  sequence: number;
  cycles_completed: number;
  cycles_remaining: number;
  current_pricing_scheme_version: number;
  total_cycles: number;
}

/**
 * Bills the next billing cycle: a payment (PAYMENT.SALE.COMPLETED) or, with `fail`, a failed one
 * (BILLING.SUBSCRIPTION.PAYMENT.FAILED, maybe SUSPENDED). Free trial cycles just pass. With no cycle
 * left the subscription EXPIRES. `beforeSale` runs once the state is updated, before the sale event.
 */
function billCycle(ctx: Ctx, record: SubscriptionRecord, fail: boolean, beforeSale: () => void = () => {}) {
  const plan = getPlan(ctx, record.wire.plan_id);
  const info = record.wire.billing_info as Json & { cycle_executions: Execution[]; failed_payments_count: number };
  const execution = info.cycle_executions.find((e) => e.total_cycles === 0 || e.cycles_completed < e.total_cycles);
  if (!execution) {
    setStatus(record, 'EXPIRED');
    delete info.next_billing_time;
    beforeSale();
    ctx.emit('BILLING.SUBSCRIPTION.EXPIRED', renderSubscription(ctx, record), { ...SUBSCRIPTION, summary: 'Subscription expired' });
    return;
  }
  const cycle = plan.billing_cycles.find((c) => c.sequence === execution.sequence)!;
  const price = (cycle.pricing_scheme as { fixed_price?: Money } | undefined)?.fixed_price;
  const amount = price && cents(price.value) > 0 ? { currency_code: price.currency_code, value: fromCents(cents(price.value) * Number(record.wire.quantity ?? 1)) } : null;
  const now = isoTime();
  const subscriber = (record.wire.subscriber ?? {}) as Json;
  const fee = amount ? feeBreakdown(amount) : null;
  const transaction = (status: string, id: string) => ({
    id,
    status,
    amount_with_breakdown: { gross_amount: fee!.gross, fee_amount: fee!.fee, net_amount: fee!.net },
    ...(subscriber.name ? { payer_name: subscriber.name } : {}),
    ...(subscriber.email_address ? { payer_email: subscriber.email_address } : {}),
    time: now,
  });

  if (amount && fail) {
    info.failed_payments_count += 1;
    info.outstanding_balance = { currency_code: amount.currency_code, value: fromCents(cents((info.outstanding_balance as Money).value) + cents(amount.value)) };
    info.last_failed_payment = { amount, time: now, reason_code: 'PAYMENT_DENIED', next_payment_retry_time: isoTime(Date.now() + 5 * 86_400_000) };
    record.transactions.push(transaction('DECLINED', ppId(17)));
    record.wire.update_time = now;
    beforeSale();
    ctx.emit('BILLING.SUBSCRIPTION.PAYMENT.FAILED', renderSubscription(ctx, record), { ...SUBSCRIPTION, summary: 'Subscription payment failed' });
    const threshold = Number((plan.payment_preferences as Json).payment_failure_threshold ?? 0);
    if (threshold > 0 && info.failed_payments_count >= threshold) {
      setStatus(record, 'SUSPENDED', 'Payment failure threshold reached');
      ctx.emit('BILLING.SUBSCRIPTION.SUSPENDED', renderSubscription(ctx, record), { ...SUBSCRIPTION, summary: 'Subscription suspended' });
    }
    return;
  }

  let sale: Json | null = null;
  if (amount) {
    const id = ppId(17);
    sale = {
      id,
      state: 'completed',
      amount: { total: amount.value, currency: amount.currency_code, details: { subtotal: amount.value } },
      payment_mode: 'INSTANT_TRANSFER',
      protection_eligibility: 'ELIGIBLE',
      protection_eligibility_type: 'ITEM_NOT_RECEIVED_ELIGIBLE,UNAUTHORIZED_PAYMENT_ELIGIBLE',
      transaction_fee: { value: fee!.fee.value, currency: amount.currency_code },
      billing_agreement_id: record.wire.id,
      custom: (record.wire.custom_id as string | undefined) ?? '',
      create_time: now,
      update_time: now,
      links: [link(`${ctx.origin}/v1/payments/sale/${id}`, 'self'), link(`${ctx.origin}/v1/payments/sale/${id}/refund`, 'refund', 'POST')],
    };
    info.last_payment = { amount, time: now };
    info.outstanding_balance = { currency_code: amount.currency_code, value: '0.0' };
    info.failed_payments_count = 0;
    delete info.last_failed_payment;
    record.transactions.push(transaction('COMPLETED', id));
  }
  execution.cycles_completed += 1;
  execution.cycles_remaining = execution.total_cycles ? execution.total_cycles - execution.cycles_completed : 0;
  record.nextBillingAt = addInterval(record.nextBillingAt, cycle.frequency as { interval_unit: string; interval_count: number });
  info.next_billing_time = isoTime(record.nextBillingAt);
  record.wire.update_time = now;
  beforeSale();
  if (sale) ctx.emit('PAYMENT.SALE.COMPLETED', sale, { resourceType: 'sale', summary: `Payment completed for $ ${amount!.value} ${amount!.currency_code}` });
}

/** The buyer approves on PayPal's page: the subscription becomes ACTIVE and its first cycle is billed. */
export function approveSubscription(ctx: Ctx, id: string, options: { payer?: PayerInput } = {}): Json {
  const record = subscription(ctx, id);
  if (record.wire.status !== 'APPROVAL_PENDING') throw unprocessable('SUBSCRIPTION_STATUS_INVALID', `The subscription is ${record.wire.status}, not APPROVAL_PENDING.`, 'subscriptions/v1');
  const plan = getPlan(ctx, record.wire.plan_id);
  const payer = buyer(options.payer ?? (record.wire.subscriber as PayerInput | undefined));
  const given = (record.wire.subscriber ?? {}) as Json;
  record.wire.subscriber = { ...given, email_address: (given.email_address as string | undefined) ?? payer.email_address, payer_id: payer.payer_id, name: (given.name as Json | undefined) ?? payer.name };
  const currency = (record.wire.shipping_amount as Money).currency_code;
  record.wire.billing_info = {
    outstanding_balance: { currency_code: currency, value: '0.0' },
    cycle_executions: plan.billing_cycles.map((c) => ({
      tenure_type: c.tenure_type,
      sequence: c.sequence,
      cycles_completed: 0,
      cycles_remaining: c.total_cycles,
      current_pricing_scheme_version: 1,
      total_cycles: c.total_cycles,
    })),
    failed_payments_count: 0,
  };
  setStatus(record, 'ACTIVE');
  record.nextBillingAt = Date.now();
  // ACTIVATED carries the first payment in billing_info, and comes before its PAYMENT.SALE.COMPLETED.
  billCycle(ctx, record, false, () => ctx.emit('BILLING.SUBSCRIPTION.ACTIVATED', renderSubscription(ctx, record), { ...SUBSCRIPTION, summary: 'Subscription activated' }));
  return renderSubscription(ctx, record);
}

/** The next billing date arrives: the next cycle is billed, or fails with `outcome: 'FAILED'`. */
export function renewSubscription(ctx: Ctx, id: string, outcome: 'COMPLETED' | 'FAILED' = 'COMPLETED'): Json {
  const record = subscription(ctx, id);
  if (record.wire.status !== 'ACTIVE') throw unprocessable('SUBSCRIPTION_STATUS_INVALID', `Only an ACTIVE subscription renews; this one is ${record.wire.status}.`, 'subscriptions/v1');
  billCycle(ctx, record, outcome === 'FAILED');
  return renderSubscription(ctx, record);
}

function reasonOf(body: Json, required: boolean): string | undefined {
  const check = new BodyCheck('subscriptions/v1');
  const reason = check.text(body, 'reason', '', { required, max: 128 });
  check.done();
  return reason;
}

function transition(ctx: Ctx, id: string, body: Json, action: 'cancel' | 'suspend' | 'activate') {
  const record = subscription(ctx, id);
  const reason = reasonOf(body, action !== 'activate');
  const from: Record<typeof action, string[]> = { cancel: ['ACTIVE', 'SUSPENDED', 'APPROVED'], suspend: ['ACTIVE'], activate: ['SUSPENDED'] };
  if (!from[action].includes(record.wire.status)) {
    throw unprocessable('SUBSCRIPTION_STATUS_INVALID', `Invalid subscription status for ${action} action; subscription status should be ${from[action].slice(0, 2).join(' or ').toLowerCase()}.`, 'subscriptions/v1');
  }
  const info = record.wire.billing_info as Json | undefined;
  if (action === 'cancel') {
    setStatus(record, 'CANCELLED', reason);
    if (info) delete info.next_billing_time;
    ctx.emit('BILLING.SUBSCRIPTION.CANCELLED', renderSubscription(ctx, record), { ...SUBSCRIPTION, summary: 'Subscription cancelled' });
  } else if (action === 'suspend') {
    setStatus(record, 'SUSPENDED', reason);
    ctx.emit('BILLING.SUBSCRIPTION.SUSPENDED', renderSubscription(ctx, record), { ...SUBSCRIPTION, summary: 'Subscription suspended' });
  } else {
    setStatus(record, 'ACTIVE', reason ?? 'Reactivating the subscription');
    ctx.emit('BILLING.SUBSCRIPTION.ACTIVATED', renderSubscription(ctx, record), { ...SUBSCRIPTION, summary: 'Subscription activated' });
  }
  return { status: 204 };
}

function listTransactions(ctx: Ctx, id: string, query: URLSearchParams) {
  const record = subscription(ctx, id);
  const details = ['start_time', 'end_time'].filter((k) => !query.get(k)).map((k) => ({ field: k, location: 'query' as const, issue: 'MISSING_REQUIRED_PARAMETER', description: 'A required field / parameter is missing.' }));
  if (details.length) throw invalidRequest(details, 'subscriptions/v1');
  const from = Date.parse(query.get('start_time')!);
  const to = Date.parse(query.get('end_time')!);
  const transactions = record.transactions.filter((t) => Date.parse(t.time as string) >= from && Date.parse(t.time as string) <= to);
  return { status: 200, body: snapshot({ transactions, total_items: transactions.length, total_pages: 1, links: [link(`${ctx.origin}/v1/billing/subscriptions/${id}/transactions`, 'self')] }) };
}

export const subscriptionRoutes: Route[] = [
  { method: 'POST', pattern: '/v1/billing/subscriptions', handle: (ctx, { body }) => createSubscription(ctx, body) },
  { method: 'GET', pattern: '/v1/billing/subscriptions/:id', handle: (ctx, { ids }) => ({ status: 200, body: renderSubscription(ctx, subscription(ctx, ids.id)) }) },
  {
    method: 'GET',
    pattern: '/v1/billing/subscriptions',
    handle: (ctx, { query }) => {
      const plans = query.get('plan_ids')?.split(',');
      const statuses = query.get('statuses')?.split(',');
      const items = [...ctx.state.subscriptions.values()]
        .filter((s) => (!plans || plans.includes(s.wire.plan_id)) && (!statuses || statuses.includes(s.wire.status)))
        .map((s) => renderSubscription(ctx, s));
      return { status: 200, body: paginate(items, query, 'subscriptions', 20, `${ctx.origin}/v1/billing/subscriptions`) };
    },
  },
  { method: 'POST', pattern: '/v1/billing/subscriptions/:id/cancel', handle: (ctx, { ids, body }) => transition(ctx, ids.id, body, 'cancel') },
  { method: 'POST', pattern: '/v1/billing/subscriptions/:id/suspend', handle: (ctx, { ids, body }) => transition(ctx, ids.id, body, 'suspend') },
  { method: 'POST', pattern: '/v1/billing/subscriptions/:id/activate', handle: (ctx, { ids, body }) => transition(ctx, ids.id, body, 'activate') },
  { method: 'GET', pattern: '/v1/billing/subscriptions/:id/transactions', handle: (ctx, { ids, query }) => listTransactions(ctx, ids.id, query) },
];
