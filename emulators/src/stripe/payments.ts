// Customers and PaymentMethods (cards); customer sessions are in customer-sessions.ts. PaymentIntents and SetupIntents live in
// intents.ts; both use `resolvePaymentMethod` to turn `pm_card_visa` shortcuts into stored cards.
import { cardFor, shortcutNumber } from './cards';
import type { Ctx, Route } from './context';
import { cardError, invalidRequest, missingParam, noSuch } from './errors';
import { int, metadata, obj, str, type Params } from './form';
import { newId, type StoredObject } from './store';

export interface CustomerRecord extends StoredObject {
  object: 'customer';
  email: string | null;
  name: string | null;
  phone: string | null;
  description: string | null;
  metadata: Record<string, string>;
  invoice_settings: { default_payment_method: string | null; custom_fields: null; footer: null; rendering_options: null };
  default_source: null;
  balance: number;
  currency: string | null;
  delinquent: boolean;
  address: null;
  shipping: null;
  preferred_locales: string[];
  tax_exempt: 'none';
  invoice_prefix: string;
  next_invoice_sequence: number;
  _deleted?: boolean;
}

export interface PaymentMethodRecord extends StoredObject {
  object: 'payment_method';
  type: 'card';
  customer: string | null;
  customer_account: null;
  allow_redisplay: string;
  metadata: Record<string, string>;
  billing_details: { address: null; email: string | null; name: string | null; phone: string | null; tax_id: null };
  card: {
    brand: string;
    display_brand: string;
    last4: string;
    exp_month: number;
    exp_year: number;
    funding: 'credit';
    country: 'US';
    fingerprint: string;
    checks: { cvc_check: 'pass'; address_line1_check: null; address_postal_code_check: null };
    networks: { available: string[]; preferred: null };
    three_d_secure_usage: { supported: true };
    generated_from: null;
    wallet: null;
    regulated_status: 'unregulated';
  };
  /** The full test number, which decides how charges behave. */
  _number: string;
  /** Authenticated for later off-session use (a SetupIntent or a PaymentIntent with setup_future_usage). */
  _setUp: boolean;
}

export function getCustomer(ctx: Ctx, id: string | undefined, param = 'customer'): CustomerRecord {
  const customer = ctx.store.get<CustomerRecord>('customer', id, param);
  if (customer._deleted) throw noSuch('customer', customer.id, param);
  return customer;
}

/** A stored card from a number; Stripe's card errors for bad numbers and past expiry dates. */
export function createCard(ctx: Ctx, card: Params, billing: Params = {}): PaymentMethodRecord {
  const number = str(card, 'number');
  if (!number) throw missingParam('card[number]');
  const test = cardFor(number);
  if (!test) throw cardError('incorrect_number', 'Your card number is incorrect.', { param: 'number' });
  const expMonth = int(card, 'exp_month') ?? 12;
  const rawYear = int(card, 'exp_year') ?? new Date().getUTCFullYear() + 3;
  const expYear = rawYear < 100 ? 2000 + rawYear : rawYear;
  if (expMonth < 1 || expMonth > 12) throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", { param: 'exp_month' });
  const now = new Date();
  if (expYear < now.getUTCFullYear() || (expYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1)) {
    throw cardError('invalid_expiry_year', "Your card's expiration year is in the past.", { param: 'exp_year' });
  }
  return ctx.store.put<PaymentMethodRecord>({
    id: newId('pm_'),
    object: 'payment_method',
    created: ctx.now(),
    livemode: false,
    type: 'card',
    customer: null,
    customer_account: null,
    allow_redisplay: str(billing, 'allow_redisplay') ?? 'unspecified',
    metadata: {},
    billing_details: { address: null, email: str(billing, 'email') ?? null, name: str(billing, 'name') ?? null, phone: str(billing, 'phone') ?? null, tax_id: null },
    card: {
      brand: test.brand,
      display_brand: test.brand,
      last4: test.number.slice(-4),
      exp_month: expMonth,
      exp_year: expYear,
      funding: 'credit',
      country: 'US',
      fingerprint: Buffer.from(test.number).toString('base64').slice(0, 16),
      checks: { cvc_check: 'pass', address_line1_check: null, address_postal_code_check: null },
      networks: { available: [test.brand], preferred: null },
      three_d_secure_usage: { supported: true },
      generated_from: null,
      wallet: null,
      regulated_status: 'unregulated',
    },
    _number: test.number,
    _setUp: false,
  });
}

/** A PaymentMethod id, or a `pm_card_*` / `tok_*` shortcut, which (as in Stripe) makes a new card each time. */
export function resolvePaymentMethod(ctx: Ctx, value: string, param = 'payment_method'): PaymentMethodRecord {
  const number = shortcutNumber(value);
  if (number) return createCard(ctx, { number });
  return ctx.store.get<PaymentMethodRecord>('payment_method', value, param);
}

/** A card from `payment_method_data` (what Stripe.js sends with the typed card). */
export function paymentMethodFromData(ctx: Ctx, data: Params): PaymentMethodRecord {
  if ((str(data, 'type') ?? 'card') !== 'card') throw invalidRequest('The emulator only supports card payment methods.', 'payment_method_data[type]');
  const card = obj(data, 'card');
  const token = str(card, 'token');
  if (token) return resolvePaymentMethod(ctx, token, 'payment_method_data[card][token]');
  return createCard(ctx, card, { ...obj(data, 'billing_details'), allow_redisplay: str(data, 'allow_redisplay') ?? '' });
}

const REDISPLAY = ['always', 'limited', 'unspecified'];

/**
 * POST /v1/payment_methods/:id: what a saved card may change — allow_redisplay (whether Elements may show it
 * again, e.g. after the customer agreed to keep it), billing details, expiry and metadata. As in Stripe, only
 * a PaymentMethod attached to a customer can be updated.
 */
function updatePaymentMethod(ctx: Ctx, id: string, params: Params): PaymentMethodRecord {
  const pm = ctx.store.get<PaymentMethodRecord>('payment_method', id, 'payment_method');
  if (!pm.customer) throw invalidRequest('You must save this PaymentMethod to a customer before you can update it.', undefined, 'payment_method_unexpected_state');
  const redisplay = str(params, 'allow_redisplay');
  if (redisplay !== undefined && !REDISPLAY.includes(redisplay)) {
    throw invalidRequest(`Invalid allow_redisplay: must be one of ${REDISPLAY.join(', ')}`, 'allow_redisplay');
  }
  const before = ctx.store.render(pm);
  if (redisplay !== undefined) pm.allow_redisplay = redisplay;
  const billing = obj(params, 'billing_details');
  for (const field of ['email', 'name', 'phone'] as const) {
    const value = str(billing, field);
    if (value !== undefined) pm.billing_details[field] = value || null;
  }
  const card = obj(params, 'card');
  const expMonth = int(card, 'exp_month');
  const expYear = int(card, 'exp_year');
  if (expMonth !== undefined) {
    if (expMonth < 1 || expMonth > 12) throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", { param: 'card[exp_month]' });
    pm.card.exp_month = expMonth;
  }
  if (expYear !== undefined) pm.card.exp_year = expYear < 100 ? 2000 + expYear : expYear;
  if ('metadata' in params) pm.metadata = metadata(params, pm.metadata);
  const previous = changedFields(before, ctx.store.render(pm));
  if (Object.keys(previous).length) ctx.emit('payment_method.updated', pm, previous);
  return pm;
}

/** Attaches to a customer. Cards declined on attach (4000000000000002) refuse, as in Stripe. */
export function attach(ctx: Ctx, pm: PaymentMethodRecord, customer: CustomerRecord) {
  if (pm.customer === customer.id) return;
  if (pm.customer) throw invalidRequest('The payment method you provided has already been attached to a customer.', 'payment_method', 'payment_method_unexpected_state');
  if (cardFor(pm._number)?.declinesOnAttach) {
    throw cardError('card_declined', 'Your card was declined.', { decline_code: 'generic_decline', param: '' });
  }
  pm.customer = customer.id;
  ctx.emit('payment_method.attached', pm);
}

function createCustomer(ctx: Ctx, params: Params) {
  const settings = obj(params, 'invoice_settings');
  const customer = ctx.store.put<CustomerRecord>({
    id: newId('cus_', 14),
    object: 'customer',
    created: ctx.now(),
    livemode: false,
    email: str(params, 'email') ?? null,
    name: str(params, 'name') ?? null,
    phone: str(params, 'phone') ?? null,
    description: str(params, 'description') ?? null,
    metadata: metadata(params),
    invoice_settings: { default_payment_method: null, custom_fields: null, footer: null, rendering_options: null },
    default_source: null,
    balance: 0,
    currency: null,
    delinquent: false,
    address: null,
    shipping: null,
    preferred_locales: [],
    tax_exempt: 'none',
    invoice_prefix: newId('', 8).toUpperCase(),
    next_invoice_sequence: 1,
  });
  const pmId = str(params, 'payment_method');
  if (pmId) attach(ctx, resolvePaymentMethod(ctx, pmId), customer);
  const defaultPm = str(settings, 'default_payment_method');
  if (defaultPm) setDefaultPaymentMethod(ctx, customer, defaultPm);
  ctx.emit('customer.created', customer);
  return customer;
}

function setDefaultPaymentMethod(ctx: Ctx, customer: CustomerRecord, pmId: string) {
  const pm = ctx.store.get<PaymentMethodRecord>('payment_method', pmId, 'invoice_settings[default_payment_method]');
  if (pm.customer !== customer.id) {
    throw invalidRequest(`No such PaymentMethod: '${pmId}'; It's possible this PaymentMethod exists on one of your connected accounts, in which case you should retry this request on that connected account.`, 'invoice_settings[default_payment_method]', 'resource_missing');
  }
  customer.invoice_settings.default_payment_method = pm.id;
}

function updateCustomer(ctx: Ctx, customer: CustomerRecord, params: Params) {
  const before = ctx.store.render(customer);
  for (const field of ['email', 'name', 'phone', 'description'] as const) {
    if (params[field] !== undefined) customer[field] = str(params, field) ?? null;
  }
  customer.metadata = metadata(params, customer.metadata);
  const settings = obj(params, 'invoice_settings');
  if (settings.default_payment_method === '') customer.invoice_settings.default_payment_method = null;
  else if (str(settings, 'default_payment_method')) setDefaultPaymentMethod(ctx, customer, str(settings, 'default_payment_method')!);
  ctx.emit('customer.updated', customer, changedFields(before, ctx.store.render(customer)));
  return customer;
}

/** `previous_attributes` of an update event: the old values of the top-level fields that changed. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  for (const key of Object.keys(after)) if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key] = before[key] ?? null;
  return previous;
}

function listPaymentMethods(ctx: Ctx, customerId: string | undefined, params: Params, url: string) {
  const customer = customerId ? getCustomer(ctx, customerId) : undefined;
  const type = str(params, 'type');
  if (type && type !== 'card') return ctx.store.page([], params, url);
  return ctx.store.page(
    ctx.store.all<PaymentMethodRecord>('payment_method', (pm) => !customer || pm.customer === customer.id),
    params,
    url,
  );
}

export const paymentRoutes: Route[] = [
  { method: 'POST', pattern: '/v1/customers', handle: (ctx, { params }) => ctx.store.present(createCustomer(ctx, params), params) },
  {
    method: 'GET',
    pattern: '/v1/customers/:id',
    handle: (ctx, { params, ids }) => {
      const customer = ctx.store.get<CustomerRecord>('customer', ids.id);
      return customer._deleted ? { id: customer.id, object: 'customer', deleted: true } : ctx.store.present(customer, params);
    },
  },
  { method: 'POST', pattern: '/v1/customers/:id', handle: (ctx, { params, ids }) => ctx.store.present(updateCustomer(ctx, getCustomer(ctx, ids.id, 'id'), params), params) },
  {
    method: 'DELETE',
    pattern: '/v1/customers/:id',
    handle: (ctx, { ids }) => {
      const customer = getCustomer(ctx, ids.id, 'id');
      customer._deleted = true;
      ctx.emit('customer.deleted', customer);
      return { id: customer.id, object: 'customer', deleted: true };
    },
  },
  {
    method: 'GET',
    pattern: '/v1/customers',
    handle: (ctx, { params, path }) => {
      const email = str(params, 'email');
      return ctx.store.page(ctx.store.all<CustomerRecord>('customer', (c) => !c._deleted && (!email || c.email === email)), params, path);
    },
  },
  { method: 'GET', pattern: '/v1/customers/:id/payment_methods', handle: (ctx, { params, ids, path }) => listPaymentMethods(ctx, ids.id, params, path) },
  {
    method: 'POST',
    pattern: '/v1/payment_methods',
    publishable: true,
    handle: (ctx, { params }) => {
      const type = str(params, 'type');
      if (!type) throw missingParam('type');
      const pm = paymentMethodFromData(ctx, params);
      pm.metadata = metadata(params);
      return ctx.store.present(pm, params);
    },
  },
  { method: 'GET', pattern: '/v1/payment_methods/:id', handle: (ctx, { params, ids }) => ctx.store.present(resolvePaymentMethod(ctx, ids.id, 'id'), params) },
  { method: 'POST', pattern: '/v1/payment_methods/:id', handle: (ctx, { params, ids }) => ctx.store.present(updatePaymentMethod(ctx, ids.id, params), params) },
  {
    method: 'POST',
    pattern: '/v1/payment_methods/:id/attach',
    handle: (ctx, { params, ids }) => {
      if (!str(params, 'customer')) throw missingParam('customer');
      const customer = getCustomer(ctx, str(params, 'customer'));
      const pm = resolvePaymentMethod(ctx, ids.id, 'payment_method');
      attach(ctx, pm, customer);
      return ctx.store.present(pm, params);
    },
  },
  {
    method: 'POST',
    pattern: '/v1/payment_methods/:id/detach',
    handle: (ctx, { params, ids }) => {
      const pm = ctx.store.get<PaymentMethodRecord>('payment_method', ids.id, 'payment_method');
      if (!pm.customer) throw invalidRequest('The payment method you provided is not attached to a customer so detachment is impossible.', undefined, 'payment_method_unexpected_state');
      const customer = ctx.store.find<CustomerRecord>('customer', pm.customer);
      if (customer?.invoice_settings.default_payment_method === pm.id) customer.invoice_settings.default_payment_method = null;
      pm.customer = null;
      ctx.emit('payment_method.detached', pm);
      return ctx.store.present(pm, params);
    },
  },
  {
    method: 'GET',
    pattern: '/v1/payment_methods',
    handle: (ctx, { params, path }) => listPaymentMethods(ctx, str(params, 'customer'), params, path),
  },
];
