// Customer sessions (`POST /v1/customer_sessions`) and what Stripe.js reads with one: the customer's saved
// payment methods the Payment Element may redisplay.
//
// A CustomerSession grants Stripe.js (publishable key) access to one customer for 30 minutes, through
// its client secret only. Stripe.js then loads the Payment Element's session data; Stripe's own call is
// the internal `GET /v1/elements/sessions`, which the emulator answers with the part the stand-in uses:
// `customer.payment_methods` (cards whose `allow_redisplay` is in `payment_method_allow_redisplay_filters`,
// default `['always']`, newest first, at most `payment_method_redisplay_limit`, default 3, max 10) and
// `customer.customer_session` (its components). Redisplay off → no payment methods.
import type { Ctx, Route } from './context';
import { invalidRequest, missingParam } from './errors';
import { obj, str, strings, type Params } from './form';
import { getCustomer, type PaymentMethodRecord } from './payments';
import { newId, type StoredObject } from './store';

const SESSION_SECONDS = 30 * 60;
const ALLOW_REDISPLAY = ['always', 'limited', 'unspecified'] as const;

export interface PaymentElementFeatures {
  payment_method_allow_redisplay_filters: string[];
  payment_method_redisplay: 'enabled' | 'disabled';
  payment_method_redisplay_limit: number;
  payment_method_remove: 'enabled' | 'disabled';
  payment_method_save: 'enabled' | 'disabled';
  payment_method_save_usage: 'on_session' | 'off_session' | null;
}

export interface CustomerSessionRecord extends StoredObject {
  object: 'customer_session';
  client_secret: string;
  customer: string;
  customer_account: null;
  expires_at: number;
  components: {
    buy_button: { enabled: boolean };
    payment_element: { enabled: boolean; features: PaymentElementFeatures | null };
    pricing_table: { enabled: boolean };
  };
}

function enabledOrDisabled(features: Params, name: string): 'enabled' | 'disabled' {
  const value = str(features, name) ?? 'disabled';
  if (value !== 'enabled' && value !== 'disabled') {
    throw invalidRequest(`Invalid ${name}: must be one of enabled or disabled`, `components[payment_element][features][${name}]`);
  }
  return value;
}

/** The Payment Element's features as the API stores them, with Stripe's defaults and checks. */
function readFeatures(params: Params): PaymentElementFeatures {
  const param = (name: string) => `components[payment_element][features][${name}]`;
  const filters = strings(params, 'payment_method_allow_redisplay_filters');
  for (const filter of filters) {
    if (!(ALLOW_REDISPLAY as readonly string[]).includes(filter)) {
      throw invalidRequest(`Invalid payment_method_allow_redisplay_filters: must be one of always, limited or unspecified`, param('payment_method_allow_redisplay_filters'));
    }
  }
  const rawLimit = str(params, 'payment_method_redisplay_limit');
  const limit = rawLimit === undefined ? 3 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10) {
    throw invalidRequest('payment_method_redisplay_limit must be between 1 and 10.', param('payment_method_redisplay_limit'));
  }
  const usage = str(params, 'payment_method_save_usage') ?? null;
  if (usage !== null && usage !== 'on_session' && usage !== 'off_session') {
    throw invalidRequest('Invalid payment_method_save_usage: must be one of on_session or off_session', param('payment_method_save_usage'));
  }
  return {
    payment_method_allow_redisplay_filters: filters.length ? filters : ['always'],
    payment_method_redisplay: enabledOrDisabled(params, 'payment_method_redisplay'),
    payment_method_redisplay_limit: limit,
    payment_method_remove: enabledOrDisabled(params, 'payment_method_remove'),
    payment_method_save: enabledOrDisabled(params, 'payment_method_save'),
    payment_method_save_usage: usage,
  };
}

const isEnabled = (component: Params) => str(component, 'enabled') === 'true';

function createCustomerSession(ctx: Ctx, params: Params): CustomerSessionRecord {
  if (!str(params, 'customer')) throw missingParam('customer');
  const customer = getCustomer(ctx, str(params, 'customer'));
  if (params.components === undefined) throw missingParam('components');
  const components = obj(params, 'components');
  const element = obj(components, 'payment_element');
  const enabled = { buy_button: isEnabled(obj(components, 'buy_button')), payment_element: isEnabled(element), pricing_table: isEnabled(obj(components, 'pricing_table')) };
  // Stripe: "Exactly 1 component must be enabled."
  if (Object.values(enabled).filter(Boolean).length !== 1) throw invalidRequest('Exactly 1 component must be enabled.', 'components');
  const created = ctx.now();
  return ctx.store.put<CustomerSessionRecord>({
    id: newId('cuss_'),
    object: 'customer_session',
    created,
    livemode: false,
    client_secret: `cuss_secret_${newId('', 40)}`,
    customer: customer.id,
    customer_account: null,
    expires_at: created + SESSION_SECONDS,
    components: {
      buy_button: { enabled: enabled.buy_button },
      payment_element: { enabled: enabled.payment_element, features: enabled.payment_element ? readFeatures(obj(element, 'features')) : null },
      pricing_table: { enabled: enabled.pricing_table },
    },
  });
}

/** The API's view of a session: no id (Stripe's CustomerSession has none). */
function presentSession(ctx: Ctx, session: CustomerSessionRecord) {
  const { id: _id, ...rest } = ctx.store.render(session);
  return rest;
}

/** A live session by its client secret, or Stripe's error (unknown or expired). */
export function sessionBySecret(ctx: Ctx, clientSecret: string | undefined): CustomerSessionRecord {
  if (!clientSecret) throw missingParam('customer_session_client_secret');
  const [session] = ctx.store.all<CustomerSessionRecord>('customer_session', (s) => s.client_secret === clientSecret);
  if (!session) throw invalidRequest('No such customer session client secret.', 'customer_session_client_secret', 'resource_missing');
  if (session.expires_at <= ctx.now()) throw invalidRequest('This customer session has expired. Create a new one.', 'customer_session_client_secret', 'customer_session_expired');
  return session;
}

/** The saved cards the Payment Element shows for this session, newest first. */
export function redisplayedPaymentMethods(ctx: Ctx, session: CustomerSessionRecord): PaymentMethodRecord[] {
  const features = session.components.payment_element.features;
  if (!session.components.payment_element.enabled || !features || features.payment_method_redisplay !== 'enabled') return [];
  const filters = features.payment_method_allow_redisplay_filters;
  return ctx.store
    .all<PaymentMethodRecord>('payment_method', (pm) => pm.customer === session.customer && filters.includes(pm.allow_redisplay))
    .slice(0, features.payment_method_redisplay_limit);
}

export const customerSessionRoutes: Route[] = [
  { method: 'POST', pattern: '/v1/customer_sessions', handle: (ctx, { params }) => presentSession(ctx, createCustomerSession(ctx, params)) },
  {
    // Stripe.js's own call (publishable key): the Payment Element's data for a customer session.
    method: 'GET',
    pattern: '/v1/elements/sessions',
    publishable: true,
    handle: (ctx, { params }) => {
      const session = sessionBySecret(ctx, str(params, 'customer_session_client_secret'));
      const customer = getCustomer(ctx, session.customer);
      return {
        object: 'elements_session',
        customer: {
          customer_session: presentSession(ctx, session),
          default_payment_method: customer.invoice_settings.default_payment_method,
          payment_methods: redisplayedPaymentMethods(ctx, session).map((pm) => ctx.store.render(pm)),
        },
      };
    },
  },
];
