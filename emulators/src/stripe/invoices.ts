// Subscription invoices: built, finalized and paid (or not) by subscriptions.ts; read and paid
// through the API. Shapes follow the pinned API version (see server.ts): an invoice has no
// `payment_intent` field any more. Its PaymentIntent is reached through `confirmation_secret`
// (the client_secret, for Stripe.js) and `payments` (InvoicePayment objects pointing at the
// PaymentIntent); both are returned only when expanded, as in Stripe.
//
// Periods, as in Stripe: `invoice.period_start/period_end` describe the period *before* the invoice
// (equal to `created` for the first invoice); the billed service period is on the line item.
import { listRoute, type Ctx, type Route } from './context';
import { invalidRequest } from './errors';
import { bool, str, strings } from './form';
import { attempt, createPaymentIntent, type PaymentIntentRecord } from './intents';
import type { CouponRecord, PriceRecord, ProductRecord } from './catalog';
import { resolvePaymentMethod, type CustomerRecord } from './payments';
import { newId, type StoredObject } from './store';

export interface DiscountRecord extends StoredObject {
  object: 'discount';
  source: { coupon: unknown; type: 'coupon' };
  checkout_session: null;
  customer: string;
  customer_account: null;
  end: number | null;
  invoice: null;
  invoice_item: null;
  promotion_code: null;
  start: number;
  subscription: string;
  subscription_item: null;
  _coupon: CouponRecord;
}

interface LineItem {
  id: string;
  object: 'line_item';
  amount: number;
  currency: string;
  description: string;
  discount_amounts: { amount: number; discount: string }[];
  discountable: true;
  discounts: string[];
  invoice: string;
  livemode: false;
  metadata: Record<string, string>;
  parent: { type: 'subscription_item_details'; invoice_item_details: null; subscription_item_details: { invoice_item: null; proration: false; proration_details: { credited_items: null }; subscription: string; subscription_item: string } };
  period: { start: number; end: number };
  pretax_credit_amounts: [];
  pricing: { type: 'price_details'; price_details: { price: string; product: string }; unit_amount_decimal: string };
  quantity: number;
  subscription: string;
  subtotal: number;
  taxes: [];
}

export interface InvoiceRecord extends StoredObject {
  object: 'invoice';
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  customer: string;
  customer_email: string | null;
  customer_name: string | null;
  currency: string;
  billing_reason: 'subscription_create' | 'subscription_cycle';
  collection_method: 'charge_automatically';
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  amount_overpaid: 0;
  amount_shipping: 0;
  subtotal: number;
  subtotal_excluding_tax: number;
  total: number;
  total_excluding_tax: number;
  total_discount_amounts: { amount: number; discount: string }[];
  discounts: string[];
  attempt_count: number;
  attempted: boolean;
  auto_advance: boolean;
  next_payment_attempt: number | null;
  number: string | null;
  period_start: number;
  period_end: number;
  lines: { object: 'list'; data: LineItem[]; has_more: false; total_count: number; url: string };
  parent: { type: 'subscription_details'; quote_details: null; subscription_details: { metadata: Record<string, string>; subscription: string } };
  status_transitions: { finalized_at: number | null; marked_uncollectible_at: null; paid_at: number | null; voided_at: null };
  metadata: Record<string, string>;
  description: null;
  default_payment_method: null;
  hosted_invoice_url: null;
  invoice_pdf: null;
  effective_at: number | null;
  webhooks_delivered_at: number | null;
  _paymentIntent?: string;
  _payment?: { id: string; created: number };
}

/** What an invoice bills: the subscription's item, period and active discounts. */
export interface InvoicePlan {
  subscription: { id: string; customer: string; metadata: Record<string, string>; itemId: string; quantity: number };
  price: PriceRecord;
  discounts: DiscountRecord[];
  periodStart: number;
  periodEnd: number;
  previousPeriod: { start: number; end: number } | null;
  billingReason: InvoiceRecord['billing_reason'];
  trial: boolean;
}

function money(amount: number, currency: string) {
  return `${currency === 'usd' ? '$' : ''}${(amount / 100).toFixed(2)}${currency === 'usd' ? '' : ` ${currency.toUpperCase()}`}`;
}

/** Builds and finalizes an invoice (status `open`, numbered); amount 0 is paid at once. */
export function createInvoice(ctx: Ctx, plan: InvoicePlan): InvoiceRecord {
  const customer = ctx.store.get<CustomerRecord>('customer', plan.subscription.customer);
  const product = ctx.store.get<ProductRecord>('product', plan.price.product);
  const { price } = plan;
  const id = newId('in_');
  const now = ctx.now();
  const subtotal = plan.trial ? 0 : price.unit_amount * plan.subscription.quantity;
  // Discounts apply in order to what is left; `once` coupons are spent by the first charged invoice.
  let remaining = subtotal;
  const discountAmounts = plan.discounts.map((discount) => {
    const coupon = discount._coupon;
    const off = coupon.percent_off !== null ? Math.round((remaining * coupon.percent_off) / 100) : Math.min(remaining, coupon.amount_off ?? 0);
    remaining -= off;
    return { amount: off, discount: discount.id };
  });
  const interval = price.recurring!;
  const every = interval.interval_count === 1 ? interval.interval : `${interval.interval_count} ${interval.interval}s`;
  const line: LineItem = {
    id: newId('il_'),
    object: 'line_item',
    amount: subtotal,
    currency: price.currency,
    description: plan.trial ? `Trial period for ${product.name}` : `${plan.subscription.quantity} × ${product.name} (at ${money(price.unit_amount, price.currency)} / ${every})`,
    discount_amounts: discountAmounts,
    discountable: true,
    discounts: [],
    invoice: id,
    livemode: false,
    metadata: {},
    parent: {
      type: 'subscription_item_details',
      invoice_item_details: null,
      subscription_item_details: { invoice_item: null, proration: false, proration_details: { credited_items: null }, subscription: plan.subscription.id, subscription_item: plan.subscription.itemId },
    },
    period: { start: plan.periodStart, end: plan.periodEnd },
    pretax_credit_amounts: [],
    pricing: { type: 'price_details', price_details: { price: price.id, product: product.id }, unit_amount_decimal: price.unit_amount_decimal },
    quantity: plan.subscription.quantity,
    subscription: plan.subscription.id,
    subtotal,
    taxes: [],
  };
  const invoice = ctx.store.put<InvoiceRecord>({
    id,
    object: 'invoice',
    created: now,
    livemode: false,
    status: 'draft',
    customer: customer.id,
    customer_email: customer.email,
    customer_name: customer.name,
    currency: price.currency,
    billing_reason: plan.billingReason,
    collection_method: 'charge_automatically',
    amount_due: remaining,
    amount_paid: 0,
    amount_remaining: remaining,
    amount_overpaid: 0,
    amount_shipping: 0,
    subtotal,
    subtotal_excluding_tax: subtotal,
    total: remaining,
    total_excluding_tax: remaining,
    total_discount_amounts: discountAmounts,
    discounts: plan.discounts.map((d) => d.id),
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    next_payment_attempt: null,
    number: null,
    period_start: plan.previousPeriod?.start ?? now,
    period_end: plan.previousPeriod?.end ?? now,
    lines: { object: 'list', data: [line], has_more: false, total_count: 1, url: `/v1/invoices/${id}/lines` },
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { metadata: { ...plan.subscription.metadata }, subscription: plan.subscription.id } },
    status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    metadata: {},
    description: null,
    default_payment_method: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    effective_at: null,
    webhooks_delivered_at: now,
  });
  ctx.emit('invoice.created', invoice);
  invoice.status = 'open';
  invoice.number = `${customer.invoice_prefix}-${String(customer.next_invoice_sequence++).padStart(4, '0')}`;
  invoice.status_transitions.finalized_at = now;
  invoice.effective_at = now;
  ctx.emit('invoice.finalized', invoice);
  if (invoice.amount_due === 0) {
    markPaid(ctx, invoice);
  } else {
    const pi = createPaymentIntent(
      ctx,
      { amount: String(invoice.amount_due), currency: invoice.currency, customer: customer.id, description: plan.billingReason === 'subscription_create' ? 'Subscription creation' : 'Subscription update' },
      // Subscription payments are saved for the off-session renewals that follow.
      { _invoice: invoice.id, setup_future_usage: 'off_session' },
    );
    invoice._paymentIntent = pi.id;
    invoice._payment = { id: newId('inpay_'), created: now };
  }
  return invoice;
}

export function markPaid(ctx: Ctx, invoice: InvoiceRecord) {
  invoice.status = 'paid';
  invoice.amount_paid = invoice.amount_due;
  invoice.amount_remaining = 0;
  invoice.next_payment_attempt = null;
  invoice.status_transitions.paid_at = ctx.now();
  ctx.emit('invoice.paid', invoice);
  ctx.emit('invoice.payment_succeeded', invoice);
}

/** One charge of an open invoice with a card: off-session for renewals and `invoices.pay`. */
export function chargeInvoice(ctx: Ctx, invoice: InvoiceRecord, paymentMethodId: string, options: { offSession: boolean; force?: 'succeed' | 'fail' }) {
  const pi = ctx.store.get<PaymentIntentRecord>('payment_intent', invoice._paymentIntent!);
  pi.payment_method = paymentMethodId;
  pi.status = 'requires_confirmation';
  return attempt(ctx, pi, options);
}

function invoicePayments(ctx: Ctx, record: StoredObject) {
  const invoice = record as InvoiceRecord;
  const data = invoice._payment
    ? [
        {
          id: invoice._payment.id,
          object: 'invoice_payment',
          amount_paid: invoice.status === 'paid' ? invoice.amount_paid : null,
          amount_requested: invoice.amount_due,
          created: invoice._payment.created,
          currency: invoice.currency,
          invoice: invoice.id,
          is_default: true,
          livemode: false,
          payment: { type: 'payment_intent', payment_intent: invoice._paymentIntent },
          status: invoice.status === 'paid' ? 'paid' : 'open',
          status_transitions: { canceled_at: null, paid_at: invoice.status === 'paid' ? invoice.status_transitions.paid_at : null },
        },
      ]
    : [];
  return { object: 'list', data, has_more: false, url: `/v1/invoice_payments?invoice=${invoice.id}` };
}

/** `invoice.confirmation_secret` and `invoice.payments` exist only when expanded. */
export function registerInvoiceIncludables(ctx: Ctx) {
  ctx.store.registerIncludable('invoice', 'confirmation_secret', (record) => {
    const invoice = record as InvoiceRecord;
    const pi = invoice._paymentIntent ? ctx.store.find<PaymentIntentRecord>('payment_intent', invoice._paymentIntent) : undefined;
    return pi && invoice.status === 'open' ? { client_secret: pi.client_secret, type: 'payment_intent' } : null;
  });
  ctx.store.registerIncludable('invoice', 'payments', (record) => invoicePayments(ctx, record));
}

export const invoiceRoutes: Route[] = [
  { method: 'GET', pattern: '/v1/invoices/:id', handle: (ctx, { params, ids }) => ctx.store.present(ctx.store.get('invoice', ids.id), params) },
  listRoute<InvoiceRecord>('/v1/invoices', 'invoice', (params) => {
    const customer = str(params, 'customer');
    const subscription = str(params, 'subscription');
    const status = str(params, 'status');
    return (i) => (!customer || i.customer === customer) && (!subscription || i.parent.subscription_details.subscription === subscription) && (!status || i.status === status);
  }),
  {
    method: 'POST',
    pattern: '/v1/invoices/:id/pay',
    handle: (ctx, { params, ids }) => {
      const invoice = ctx.store.get<InvoiceRecord>('invoice', ids.id);
      if (invoice.status !== 'open') throw invalidRequest(`Invoice is already ${invoice.status}`, undefined, 'invoice_not_open');
      const customer = ctx.store.get<CustomerRecord>('customer', invoice.customer);
      const subscription = ctx.store.find<StoredObject & { default_payment_method: string | null }>('subscription', invoice.parent.subscription_details.subscription);
      const pmId = str(params, 'payment_method') ? resolvePaymentMethod(ctx, str(params, 'payment_method')!).id : (subscription?.default_payment_method ?? customer.invoice_settings.default_payment_method);
      if (!pmId) throw invalidRequest('This customer has no attached payment source or default payment method. Please consider adding a default payment method.');
      const error = chargeInvoice(ctx, invoice, pmId, { offSession: bool(params, 'off_session') ?? true });
      if (error) throw error;
      return ctx.store.present(invoice, params);
    },
  },
  {
    method: 'GET',
    pattern: '/v1/invoice_payments',
    handle: (ctx, { params, path }) => {
      const invoiceId = str(params, 'invoice');
      const lists = ctx.store.all<InvoiceRecord>('invoice', (i) => !invoiceId || i.id === invoiceId).flatMap((i) => invoicePayments(ctx, i).data);
      return ctx.store.expand({ object: 'list', data: lists, has_more: false, url: path }, strings(params, 'expand').map((p) => p.split('.')));
    },
  },
];
