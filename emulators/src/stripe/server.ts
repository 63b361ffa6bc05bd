// Stripe API emulator: the REST endpoints Pluma calls, spoken the way the official `stripe` SDK
// (23.x) speaks them, so the SDK runs unchanged with `{ host, port, protocol: 'http' }`.
//
// Wire format: form-encoded bodies with bracket nesting (form.ts); `Authorization: Bearer sk_test_...`
// (any test secret key, or exactly `options.apiKey`); publishable keys (`pk_test_...`, also sent
// as a `key` body field by Stripe.js) only on the routes Stripe.js uses, with the intent's
// client_secret; Stripe's error shape and statuses (errors.ts); `Idempotency-Key` on POST (same key
// and same request → the stored answer with `Idempotent-Replayed: true`; same key, other request →
// 400 idempotency_error); CORS for the Stripe.js stand-in, which runs on another origin.
//
// Object shapes follow the API version the SDK pins, 2026-10-28.endive (`stripe/esm/apiVersion.js`):
// invoices reach their PaymentIntent through `confirmation_secret` and `payments` (invoices.ts),
// billing periods sit on subscription items, discounts are `discounts[]` (subscriptions.ts).
//
// Test control lives under /_emulator (control.ts); the Stripe.js stand-in is /_emulator/stripe.js.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyError, cors, listen, randomId, type PaymentEmulatorOptions, type RunningPaymentEmulator } from '../http-kit';
import { catalogRoutes } from './catalog';
import { customerSessionRoutes } from './customer-sessions';
import type { Call, Ctx, Route } from './context';
import { controlHandler, controls } from './control';
import { authError, idempotencyMismatch, invalidRequest, StripeApiError } from './errors';
import { parseForm, ParamError, str, type Params } from './form';
import { intentRoutes } from './intents';
import { invoiceRoutes } from './invoices';
import { paymentRoutes } from './payments';
import { refundRoutes } from './refunds';
import { newId, nowSeconds, Store } from './store';
import { registerSubscriptionHooks, subscriptionRoutes } from './subscriptions';
import { WebhookDispatcher, type EventRecord } from './webhooks';

/** The API version of stripe 23.1.0, stamped on events and echoed in `stripe-version`. */
export const API_VERSION = '2026-10-28.endive';

export interface StripeEmulatorOptions extends PaymentEmulatorOptions<{ url: string; secret?: string; events?: string[] }> {
  /** When set, only this secret key is accepted; default: any `sk_test_` / `rk_test_` key. */
  apiKey?: string;
  /** When set, only this publishable key is accepted; default: any `pk_test_` key. */
  publishableKey?: string;
}

export interface LoggedRequest {
  method: string;
  path: string;
  params: Params;
  status: number;
  idempotencyKey: string | null;
}

export interface EmulatorCore {
  ctx: Ctx;
  webhooks: WebhookDispatcher;
  requests: LoggedRequest[];
  /** Answers kept by Idempotency-Key. */
  idempotent: Map<string, StoredAnswer>;
  reset(): void;
}

const eventRoutes: Route[] = [
  { method: 'GET', pattern: '/v1/events/:id', handle: (ctx, { params, ids }) => ctx.store.present(ctx.store.get('event', ids.id), params) },
  {
    method: 'GET',
    pattern: '/v1/events',
    handle: (ctx, { params, path }) => {
      const type = str(params, 'type');
      const types = Array.isArray(params.types) ? params.types.map(String) : [];
      // `type` takes a trailing wildcard, like `customer.subscription.*`.
      const matches = (t: string) => (!type || (type.endsWith('*') ? t.startsWith(type.slice(0, -1)) : t === type)) && (!types.length || types.includes(t));
      return ctx.store.page(ctx.store.all<EventRecord>('event', (e) => matches(e.type)), params, path);
    },
  },
];

// GET /v1/balance: what a key check (Pluma's settings "Test" of stripe_private_key) retrieves. Test mode
// balances start at zero; the emulator keeps no ledger, so they stay there.
const balanceRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/v1/balance',
    handle: () => ({
      object: 'balance',
      available: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }],
      pending: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }],
      livemode: false,
    }),
  },
];

const ROUTES = [...balanceRoutes, ...paymentRoutes, ...customerSessionRoutes, ...intentRoutes, ...refundRoutes, ...catalogRoutes, ...subscriptionRoutes, ...invoiceRoutes, ...eventRoutes].map((route) => ({
  route,
  regex: new RegExp(`^${route.pattern.replace(/:(\w+)/g, '(?<$1>[^/]+)')}$`),
}));

function matchRoute(method: string, path: string): { route: Route; ids: Record<string, string> } | 'wrong-method' | null {
  let wrongMethod = false;
  for (const { route, regex } of ROUTES) {
    const match = regex.exec(path);
    if (!match) continue;
    if (route.method !== method) {
      wrongMethod = true;
      continue;
    }
    const ids = Object.fromEntries(Object.entries(match.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]));
    return { route, ids };
  }
  return wrongMethod ? 'wrong-method' : null;
}

export function createCore(options: StripeEmulatorOptions, origin: () => string): EmulatorCore {
  const store = new Store();
  const webhooks = new WebhookDispatcher(store, options.delivery);
  const ctx: Ctx = {
    store,
    now: nowSeconds,
    get origin() {
      return origin();
    },
    request: { id: null, idempotency_key: null },
    hooks: { paymentIntentSettled: [], setupIntentSucceeded: [] },
    emit(type, record, previousAttributes) {
      const event = store.put<EventRecord>({
        id: newId('evt_'),
        object: 'event',
        api_version: API_VERSION,
        created: nowSeconds(),
        livemode: false,
        data: { object: store.render(record), ...(previousAttributes ? { previous_attributes: previousAttributes } : {}) },
        pending_webhooks: 0,
        request: { ...ctx.request },
        type,
      });
      webhooks.dispatch(event);
    },
  };
  for (const endpoint of options.webhooks ?? []) webhooks.addEndpoint(endpoint);
  registerSubscriptionHooks(ctx);
  return {
    ctx,
    webhooks,
    requests: [],
    idempotent: new Map(),
    reset() {
      store.clear();
      this.idempotent.clear();
      this.requests.length = 0;
      webhooks.deliveries.length = 0;
    },
  };
}

type KeyKind = 'secret' | 'publishable' | null;

function keyKind(key: string, options: StripeEmulatorOptions): KeyKind {
  if (options.apiKey ? key === options.apiKey : /^(sk|rk)_test_\w+/.test(key)) return 'secret';
  if (options.publishableKey ? key === options.publishableKey : /^pk_test_\w+/.test(key)) return 'publishable';
  return null;
}

interface StoredAnswer {
  fingerprint: string;
  status: number;
  body: unknown;
}

export function apiHandler(core: EmulatorCore, options: StripeEmulatorOptions) {
  const idempotent = core.idempotent;
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body, null, 2);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'stripe-version': API_VERSION, ...headers });
    res.end(text);
  };

  return async (req: IncomingMessage, res: ServerResponse, path: string, query: string) => {
    const method = req.method ?? 'GET';
    const requestId = randomId('req_');
    let text = '';
    try {
      text = await readText(req);
    } catch (error) {
      send(res, 400, { error: { type: 'invalid_request_error', message: error instanceof BodyError ? error.message : 'Invalid body.' } }, { 'request-id': requestId });
      return;
    }
    const params: Params = { ...parseForm(query), ...parseForm(text) };
    const header = req.headers.authorization ?? '';
    const bearer = header.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : '';
    const key = bearer || str(params, 'key') || '';
    delete params.key;
    const idempotencyKey = method === 'POST' ? (req.headers['idempotency-key'] as string | undefined) ?? null : null;
    const log = (status: number) => {
      core.requests.push({ method, path, params, status, idempotencyKey });
      if (core.requests.length > 2000) core.requests.splice(0, core.requests.length - 2000);
    };

    const fingerprint = `${method} ${path} ${text}`;
    const previous = idempotencyKey ? idempotent.get(idempotencyKey) : undefined;
    if (previous) {
      if (previous.fingerprint !== fingerprint) {
        const error = idempotencyMismatch(idempotencyKey!);
        log(error.status);
        send(res, error.status, { error: error.body }, { 'request-id': requestId });
        return;
      }
      log(previous.status);
      send(res, previous.status, previous.body, { 'request-id': requestId, 'idempotency-key': idempotencyKey!, 'idempotent-replayed': 'true' });
      return;
    }

    let status = 200;
    let body: unknown;
    try {
      const kind = keyKind(key, options);
      if (!kind) throw authError(key);
      const found = matchRoute(method, path);
      if (!found || found === 'wrong-method') {
        throw new StripeApiError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.` });
      }
      if (kind === 'publishable' && !found.route.publishable) throw authError(key, true);
      core.ctx.request = { id: requestId, idempotency_key: idempotencyKey };
      const call: Call = { params, ids: found.ids, publishable: kind === 'publishable', path };
      body = found.route.handle(core.ctx, call);
    } catch (error) {
      if (error instanceof StripeApiError) {
        status = error.status;
        body = { error: { ...error.body, request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}` } };
      } else if (error instanceof ParamError) {
        const converted = invalidRequest(error.message, error.param);
        status = converted.status;
        body = { error: converted.body };
      } else {
        status = 500;
        body = { error: { type: 'api_error', message: `Emulator error: ${error instanceof Error ? error.message : String(error)}` } };
      }
    } finally {
      core.ctx.request = { id: null, idempotency_key: null };
    }
    // Stripe stores the answer to a keyed request, errors included, except server errors.
    if (idempotencyKey && status < 500) {
      idempotent.set(idempotencyKey, { fingerprint, status, body });
      // The SDK keys every POST; a long-running demo must not grow without end (Stripe keeps keys 24 h).
      if (idempotent.size > 20_000) idempotent.delete(idempotent.keys().next().value!);
    }
    log(status);
    send(res, status, body, { 'request-id': requestId, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) });
  };
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1024 * 1024) throw new BodyError('Request body too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** CORS for Stripe.js and the stand-in's control calls, which come from the app's origin. */
const allowCors = { methods: 'GET, POST, DELETE, OPTIONS', headers: 'authorization, content-type, idempotency-key, stripe-version' };

/** `control` holds the in-process twins of the /_emulator control routes: 3-D Secure, renewals, trials, statuses. */
export interface RunningStripeEmulator extends RunningPaymentEmulator<EmulatorCore, ReturnType<typeof controls>, WebhookDispatcher, LoggedRequest> {
  /** What the `stripe` SDK needs: `new Stripe(key, { ...emulator.sdkOptions })`. */
  sdkOptions: { host: string; port: number; protocol: 'http' };
  /** URL of the Stripe.js stand-in. */
  stripeJsUrl: string;
}

export async function startStripeEmulator(options: StripeEmulatorOptions = {}): Promise<RunningStripeEmulator> {
  let origin = '';
  const core = createCore(options, () => origin);
  const api = apiHandler(core, options);
  const control = controlHandler(core);
  const server = await listen(async (req, res) => {
    if (cors(req, res, allowCors)) return;
    const [rawPath, query = ''] = (req.url ?? '/').split('?');
    const path = rawPath.replace(/\/+$/, '') || '/';
    if (path.startsWith('/_emulator/')) return control(req, res, path, query);
    return api(req, res, path, query);
  }, options);
  origin = server.origin;
  const host = options.host ?? '127.0.0.1';
  return {
    origin,
    host,
    port: server.port,
    sdkOptions: { host, port: server.port, protocol: 'http' },
    stripeJsUrl: `${origin}/_emulator/stripe.js`,
    core,
    control: controls(core),
    webhooks: core.webhooks,
    requests: core.requests,
    close: async () => {
      core.webhooks.close();
      await server.close();
    },
  };
}
