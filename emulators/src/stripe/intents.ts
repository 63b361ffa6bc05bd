// PaymentIntents and SetupIntents: create, retrieve, update, confirm (server-side with a secret key,
// or from Stripe.js with a publishable key and the client_secret), cancel, and the 3-D Secure step.
//
// Confirm outcomes follow the test card (cards.ts): success; `requires_action` with a `next_action`
// when the card asks for 3-D Secure on-session (off-session it fails with authentication_required);
// a 402 card_error for declines, leaving the intent in `requires_payment_method` with
// `last_payment_error`. The 3-D Secure challenge is completed or failed through the control API
// (`completeThreeDSecure`), which is what the Stripe.js stand-in's challenge buttons call.
import { cardFor } from './cards';
import { listRoute, type Ctx, type Route } from './context';
import { cardError, invalidRequest, missingParam, StripeApiError, unexpectedState } from './errors';
import { bool, int, metadata, obj, str, type Params } from './form';
import { getCustomer, paymentMethodFromData, resolvePaymentMethod, type PaymentMethodRecord } from './payments';
import { newId, type StoredObject } from './store';

type NextAction =
  | { type: 'use_stripe_sdk'; use_stripe_sdk: { type: 'three_d_secure_redirect'; stripe_js: string; source: string } }
  | { type: 'redirect_to_url'; redirect_to_url: { url: string; return_url: string } };

interface CardErrorInfo {
  type: 'card_error';
  code: string;
  decline_code?: string;
  message: string;
  doc_url: string;
  payment_method: unknown;
}

interface IntentBase extends StoredObject {
  client_secret: string;
  customer: string | null;
  description: string | null;
  metadata: Record<string, string>;
  payment_method: string | null;
  payment_method_types: string[];
  status: string;
  next_action: NextAction | null;
  cancellation_reason: string | null;
}

export interface PaymentIntentRecord extends IntentBase {
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  currency: string;
  capture_method: 'automatic_async';
  confirmation_method: 'automatic';
  canceled_at: number | null;
  last_payment_error: CardErrorInfo | null;
  latest_charge: string | null;
  receipt_email: string | null;
  setup_future_usage: string | null;
  automatic_payment_methods: { enabled: boolean; allow_redirects: 'always' } | null;
  payment_method_options: { card: { request_three_d_secure: 'automatic'; installments: null; mandate_options: null; network: null } };
  application: null;
  application_fee_amount: null;
  customer_account: null;
  on_behalf_of: null;
  processing: null;
  review: null;
  shipping: null;
  source: null;
  statement_descriptor: null;
  statement_descriptor_suffix: null;
  transfer_data: null;
  transfer_group: null;
  payment_record: null;
  /** The invoice this intent pays (subscriptions). */
  _invoice?: string;
}

export interface SetupIntentRecord extends IntentBase {
  object: 'setup_intent';
  usage: string;
  last_setup_error: CardErrorInfo | null;
  latest_attempt: string | null;
  automatic_payment_methods: { enabled: boolean; allow_redirects: 'always' } | null;
  payment_method_options: { card: { request_three_d_secure: 'automatic'; mandate_options: null; network: null } };
  application: null;
  flow_directions: null;
  mandate: null;
  on_behalf_of: null;
  single_use_mandate: null;
  /** The subscription whose `pending_setup_intent` this is. */
  _subscription?: string;
}

type Intent = PaymentIntentRecord | SetupIntentRecord;

const MINIMUM_AMOUNTS: Record<string, number> = { usd: 50, eur: 50, gbp: 30, mxn: 1000 };

export function createPaymentIntent(ctx: Ctx, params: Params, extra: Partial<PaymentIntentRecord> = {}): PaymentIntentRecord {
  const amount = int(params, 'amount');
  if (amount === undefined) throw missingParam('amount');
  const currency = str(params, 'currency')?.toLowerCase();
  if (!currency) throw missingParam('currency');
  const minimum = MINIMUM_AMOUNTS[currency] ?? 1;
  if (amount < minimum && !extra._invoice) {
    throw invalidRequest(`Amount must be at least ${(minimum / 100).toFixed(2)} ${currency}`, 'amount', 'amount_too_small');
  }
  const customer = str(params, 'customer') ? getCustomer(ctx, str(params, 'customer')) : null;
  const id = newId('pi_');
  const automatic = obj(params, 'automatic_payment_methods');
  const intent = ctx.store.put<PaymentIntentRecord>({
    id,
    object: 'payment_intent',
    created: ctx.now(),
    livemode: false,
    amount,
    amount_capturable: 0,
    amount_received: 0,
    currency,
    capture_method: 'automatic_async',
    confirmation_method: 'automatic',
    client_secret: `${id}_secret_${newId('', 25)}`,
    customer: customer?.id ?? null,
    description: str(params, 'description') ?? null,
    metadata: metadata(params),
    payment_method: null,
    payment_method_types: ['card'],
    status: 'requires_payment_method',
    next_action: null,
    cancellation_reason: null,
    canceled_at: null,
    last_payment_error: null,
    latest_charge: null,
    receipt_email: str(params, 'receipt_email') ?? null,
    setup_future_usage: str(params, 'setup_future_usage') ?? null,
    automatic_payment_methods: bool(automatic, 'enabled') === false || params.payment_method_types ? null : { enabled: true, allow_redirects: 'always' },
    payment_method_options: { card: { request_three_d_secure: 'automatic', installments: null, mandate_options: null, network: null } },
    application: null,
    application_fee_amount: null,
    customer_account: null,
    on_behalf_of: null,
    processing: null,
    review: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    transfer_data: null,
    transfer_group: null,
    payment_record: null,
    ...extra,
  });
  const pm = str(params, 'payment_method');
  if (pm) setPaymentMethod(intent, resolvePaymentMethod(ctx, pm));
  ctx.emit('payment_intent.created', intent);
  return intent;
}

function setPaymentMethod(intent: Intent, pm: PaymentMethodRecord) {
  if (pm.customer && intent.customer && pm.customer !== intent.customer) {
    throw invalidRequest('The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.', 'payment_method');
  }
  if (pm.customer && !intent.customer) {
    throw invalidRequest(`The provided PaymentMethod belongs to a Customer, but you did not provide a Customer. Please provide the Customer ID '${pm.customer}'.`, 'payment_method');
  }
  intent.payment_method = pm.id;
  if (intent.status === 'requires_payment_method') intent.status = 'requires_confirmation';
}

function createSetupIntent(ctx: Ctx, params: Params, extra: Partial<SetupIntentRecord> = {}): SetupIntentRecord {
  const customer = str(params, 'customer') ? getCustomer(ctx, str(params, 'customer')) : null;
  const id = newId('seti_');
  const automatic = obj(params, 'automatic_payment_methods');
  const intent = ctx.store.put<SetupIntentRecord>({
    id,
    object: 'setup_intent',
    created: ctx.now(),
    livemode: false,
    client_secret: `${id}_secret_${newId('', 25)}`,
    customer: customer?.id ?? null,
    description: str(params, 'description') ?? null,
    metadata: metadata(params),
    payment_method: null,
    payment_method_types: ['card'],
    status: 'requires_payment_method',
    next_action: null,
    cancellation_reason: null,
    usage: str(params, 'usage') ?? 'off_session',
    last_setup_error: null,
    latest_attempt: null,
    automatic_payment_methods: bool(automatic, 'enabled') === false || params.payment_method_types ? null : { enabled: true, allow_redirects: 'always' },
    payment_method_options: { card: { request_three_d_secure: 'automatic', mandate_options: null, network: null } },
    application: null,
    flow_directions: null,
    mandate: null,
    on_behalf_of: null,
    single_use_mandate: null,
    ...extra,
  });
  const pm = str(params, 'payment_method');
  if (pm) setPaymentMethod(intent, resolvePaymentMethod(ctx, pm));
  ctx.emit('setup_intent.created', intent);
  return intent;
}

/** A subscription's `pending_setup_intent`: collects a card (with 3-D Secure) for after the trial. */
export function createPendingSetupIntent(ctx: Ctx, customerId: string, subscriptionId: string): SetupIntentRecord {
  return createSetupIntent(ctx, { customer: customerId, usage: 'off_session' }, { _subscription: subscriptionId });
}

/** Stripe.js calls carry the intent's client_secret; a mismatch is refused. */
function checkClientSecret(intent: Intent, params: Params, publishable: boolean) {
  if (!publishable) return;
  const secret = str(params, 'client_secret');
  if (!secret) throw missingParam('client_secret');
  if (secret !== intent.client_secret) {
    throw invalidRequest(`The client_secret provided does not match the client_secret associated with the ${intent.object === 'payment_intent' ? 'PaymentIntent' : 'SetupIntent'}.`, 'client_secret');
  }
}

/** Applies confirm parameters (payment method, return_url, ...) then runs the attempt. */
function confirm(ctx: Ctx, intent: Intent, params: Params): StripeApiError | null {
  const label = intent.object === 'payment_intent' ? 'PaymentIntent' : 'SetupIntent';
  if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status)) {
    throw unexpectedState(
      `You cannot confirm this ${label} because it has a status of ${intent.status}.`,
      intent.object === 'payment_intent' ? 'payment_intent_unexpected_state' : 'setup_intent_unexpected_state',
    );
  }
  const data = obj(params, 'payment_method_data');
  if (str(params, 'payment_method')) setPaymentMethod(intent, resolvePaymentMethod(ctx, str(params, 'payment_method')!));
  else if (Object.keys(data).length) setPaymentMethod(intent, paymentMethodFromData(ctx, data));
  if (!intent.payment_method) {
    throw invalidRequest(
      `You cannot confirm this ${label} because it's missing a payment method. To confirm the ${label} with ${intent.customer ?? 'a customer'}, specify a payment method attached to this customer along with the customer ID.`,
      undefined,
      intent.object === 'payment_intent' ? 'payment_intent_unexpected_state' : 'setup_intent_unexpected_state',
    );
  }
  if (intent.object === 'payment_intent') {
    const sfu = str(params, 'setup_future_usage');
    if (sfu) intent.setup_future_usage = sfu;
  }
  const offSession = bool(params, 'off_session') ?? false;
  const returnUrl = str(params, 'return_url');
  const useSdk = bool(params, 'use_stripe_sdk') ?? !returnUrl;
  return attempt(ctx, intent, { offSession, returnUrl: useSdk ? undefined : returnUrl });
}

/**
 * One payment (or setup) attempt with the intent's card: the intent's new state, events, hooks.
 * Returns the card error an API caller must receive (402), or null.
 */
export function attempt(ctx: Ctx, intent: Intent, options: { offSession: boolean; returnUrl?: string; force?: 'succeed' | 'fail' }): StripeApiError | null {
  const pm = ctx.store.get<PaymentMethodRecord>('payment_method', intent.payment_method!, 'payment_method');
  // Forced outcomes (control API) stand for what the bank decides, whatever the test card says.
  if (options.force === 'fail') return fail(ctx, intent, pm, 'card_declined', 'Your card was declined.', 'generic_decline');
  if (options.force === 'succeed') return charge(ctx, intent, pm, true);
  const card = cardFor(pm._number)!;
  const needs3ds = card.threeDSecure === 'always' || (card.threeDSecure === 'until-setup' && !pm._setUp);
  if (needs3ds && options.offSession) {
    return fail(ctx, intent, pm, 'authentication_required', 'Your card was declined. This transaction requires authentication.', 'authentication_required');
  }
  if (needs3ds) {
    intent.status = 'requires_action';
    const page = `${ctx.origin}/_emulator/3ds/${intent.id}`;
    intent.next_action = options.returnUrl
      ? { type: 'redirect_to_url', redirect_to_url: { url: `${page}?return_url=${encodeURIComponent(options.returnUrl)}`, return_url: options.returnUrl } }
      : { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: page, source: newId('src_') } };
    ctx.emit(`${intent.object}.requires_action`, intent);
    return null;
  }
  return charge(ctx, intent, pm);
}

/** After authentication (or when none is needed): declines per the card, else success. */
function charge(ctx: Ctx, intent: Intent, pm: PaymentMethodRecord, approved = false): StripeApiError | null {
  const card = cardFor(pm._number)!;
  const declined = approved ? undefined : intent.object === 'payment_intent' ? card.declineCode : card.declinesOnAttach ? card.declineCode : undefined;
  if (declined) {
    const message = declined === 'insufficient_funds' ? 'Your card has insufficient funds.' : 'Your card was declined.';
    return fail(ctx, intent, pm, 'card_declined', message, declined);
  }
  intent.next_action = null;
  intent.status = 'succeeded';
  const setsUp = intent.object === 'setup_intent' || Boolean(intent.setup_future_usage);
  if (setsUp) pm._setUp = true;
  if (setsUp && intent.customer && !pm.customer) {
    pm.customer = intent.customer;
    ctx.emit('payment_method.attached', pm);
  }
  if (intent.object === 'payment_intent') {
    intent.amount_received = intent.amount;
    intent.latest_charge = newId('ch_');
    intent.last_payment_error = null;
    ctx.emit('payment_intent.succeeded', intent);
    for (const hook of ctx.hooks.paymentIntentSettled) hook(intent.id);
  } else {
    intent.latest_attempt = newId('setatt_');
    intent.last_setup_error = null;
    ctx.emit('setup_intent.succeeded', intent);
    for (const hook of ctx.hooks.setupIntentSucceeded) hook(intent.id);
  }
  return null;
}

function fail(ctx: Ctx, intent: Intent, pm: PaymentMethodRecord, code: string, message: string, declineCode?: string): StripeApiError {
  const info: CardErrorInfo = {
    type: 'card_error',
    code,
    ...(declineCode ? { decline_code: declineCode } : {}),
    message,
    doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`,
    payment_method: ctx.store.render(pm),
  };
  // Stripe clears the failed card from the intent; it stays visible in the last error.
  intent.payment_method = null;
  intent.next_action = null;
  intent.status = 'requires_payment_method';
  if (intent.object === 'payment_intent') {
    intent.last_payment_error = info;
    ctx.emit('payment_intent.payment_failed', intent);
    for (const hook of ctx.hooks.paymentIntentSettled) hook(intent.id);
    return cardError(code, message, { ...(declineCode ? { decline_code: declineCode } : {}), payment_intent: ctx.store.render(intent), payment_method: info.payment_method });
  }
  intent.last_setup_error = info;
  ctx.emit('setup_intent.setup_failed', intent);
  return cardError(code, message, { ...(declineCode ? { decline_code: declineCode } : {}), setup_intent: ctx.store.render(intent), payment_method: info.payment_method });
}

/** Ends a pending 3-D Secure challenge: `succeed` continues to the charge, `fail` fails the attempt. */
export function completeThreeDSecure(ctx: Ctx, intentId: string, outcome: 'succeed' | 'fail'): Intent {
  const intent = ctx.store.find<PaymentIntentRecord>('payment_intent', intentId) ?? ctx.store.get<SetupIntentRecord>('setup_intent', intentId);
  if (intent.status !== 'requires_action') {
    throw unexpectedState(`This intent has no pending 3-D Secure challenge (status ${intent.status}).`);
  }
  const pm = ctx.store.get<PaymentMethodRecord>('payment_method', intent.payment_method!, 'payment_method');
  if (outcome === 'fail') {
    fail(ctx, intent, pm, intent.object === 'payment_intent' ? 'payment_intent_authentication_failure' : 'setup_intent_authentication_failure',
      'We are unable to authenticate your payment method. Please choose a different payment method and try again.');
  } else {
    charge(ctx, intent, pm);
  }
  return intent;
}

function retrieveIntent<T extends Intent>(ctx: Ctx, object: T['object'], id: string, params: Params, publishable: boolean): T {
  const intent = ctx.store.get<T>(object, id, 'intent');
  checkClientSecret(intent, params, publishable);
  return intent;
}

function update(ctx: Ctx, intent: Intent, params: Params) {
  if (intent.status === 'succeeded' || intent.status === 'canceled') {
    throw unexpectedState(`This ${intent.object === 'payment_intent' ? 'PaymentIntent' : 'SetupIntent'}'s status is ${intent.status}, so it cannot be updated.`);
  }
  intent.metadata = metadata(params, intent.metadata);
  if (params.description !== undefined) intent.description = str(params, 'description') ?? null;
  if (str(params, 'customer')) intent.customer = getCustomer(ctx, str(params, 'customer')).id;
  if (str(params, 'payment_method')) setPaymentMethod(intent, resolvePaymentMethod(ctx, str(params, 'payment_method')!));
  if (intent.object === 'payment_intent') {
    if (int(params, 'amount') !== undefined) intent.amount = int(params, 'amount')!;
    if (params.setup_future_usage !== undefined) intent.setup_future_usage = str(params, 'setup_future_usage') ?? null;
  }
  return intent;
}

function cancel(ctx: Ctx, intent: Intent, params: Params) {
  if (intent.status === 'succeeded' || intent.status === 'canceled') {
    throw unexpectedState(`You cannot cancel this ${intent.object === 'payment_intent' ? 'PaymentIntent' : 'SetupIntent'} because it has a status of ${intent.status}.`);
  }
  intent.status = 'canceled';
  intent.next_action = null;
  intent.cancellation_reason = str(params, 'cancellation_reason') ?? null;
  if (intent.object === 'payment_intent') intent.canceled_at = ctx.now();
  ctx.emit(`${intent.object}.canceled`, intent);
  return intent;
}

/** Answers a confirm: the intent, or the card error (after the intent's state was saved). */
function confirmed(ctx: Ctx, intent: Intent, params: Params) {
  const error = confirm(ctx, intent, params);
  if (error) throw error;
  return ctx.store.present(intent, params);
}

/** Server-created intents confirm in the same call with `confirm=true`; declines still answer 402. */
function created(ctx: Ctx, intent: Intent, params: Params) {
  if (bool(params, 'confirm')) return confirmed(ctx, intent, params);
  if (bool(params, 'off_session')) throw invalidRequest('off_session can only be passed when confirm is true.', 'off_session');
  return ctx.store.present(intent, params);
}

/** The routes PaymentIntents and SetupIntents share, under `/v1/<object>s`. */
function intentKindRoutes<T extends Intent>(object: T['object'], create: (ctx: Ctx, params: Params) => T): Route[] {
  const base = `/v1/${object}s`;
  const get = (ctx: Ctx, id: string) => ctx.store.get<T>(object, id, 'intent');
  return [
    { method: 'POST', pattern: base, handle: (ctx, { params }) => created(ctx, create(ctx, params), params) },
    {
      method: 'GET',
      pattern: `${base}/:id`,
      publishable: true,
      handle: (ctx, { params, ids, publishable }) => ctx.store.present(retrieveIntent<T>(ctx, object, ids.id, params, publishable), params),
    },
    { method: 'POST', pattern: `${base}/:id`, handle: (ctx, { params, ids }) => ctx.store.present(update(ctx, get(ctx, ids.id), params), params) },
    {
      method: 'POST',
      pattern: `${base}/:id/confirm`,
      publishable: true,
      handle: (ctx, { params, ids, publishable }) => confirmed(ctx, retrieveIntent<T>(ctx, object, ids.id, params, publishable), params),
    },
    { method: 'POST', pattern: `${base}/:id/cancel`, handle: (ctx, { params, ids }) => ctx.store.present(cancel(ctx, get(ctx, ids.id), params), params) },
  ];
}

export const intentRoutes: Route[] = [
  ...intentKindRoutes<PaymentIntentRecord>('payment_intent', (ctx, params) => createPaymentIntent(ctx, params)),
  listRoute<PaymentIntentRecord>('/v1/payment_intents', 'payment_intent', (params) => {
    const customer = str(params, 'customer');
    return (pi) => !customer || pi.customer === customer;
  }),
  ...intentKindRoutes<SetupIntentRecord>('setup_intent', (ctx, params) => createSetupIntent(ctx, params)),
];
