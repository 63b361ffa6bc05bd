// PayPal REST API emulator: the endpoints Pluma calls, spoken the way `@paypal/paypal-server-sdk`
// (2.5) and plain `fetch` speak them.
//
// Wire format: JSON bodies; `POST /v1/oauth2/token` (Basic client_id:secret, form
// `grant_type=client_credentials`) gives a Bearer token; API calls take that token, or Basic
// credentials directly, as PayPal allows; PayPal's error shape (errors.ts) with a `debug_id` and a
// `paypal-debug-id` header; `Prefer: return=representation|minimal`; `PayPal-Request-Id` on POST
// (same id, same route and body → the stored 2xx answer again; same id and route, other body → 422
// PAYPAL_REQUEST_ID_PREVIOUSLY_USED; failures are not stored, so a capture refused before approval
// can be retried with the same id once the buyer approved).
//
// The SDK has no base-URL option (only Sandbox and Production), so `sdkOptions` gives it an HTTPS
// agent whose sockets are plain TCP connections to this emulator: the SDK still builds
// https://api-m.sandbox.paypal.com URLs, and every request lands here (README.md).
//
// Buyer pages: GET /checkoutnow?token=ORDER and GET /webapps/billing/subscriptions?ba_token=BA-...
// (the `approve` links); test control under /_emulator (control.ts), with the stand-in of PayPal's JS
// SDK v6 core script at /_emulator/paypal-web-sdk-v6-core.js (web-sdk-v6.browser.js).
import { Environment, type Client } from '@paypal/paypal-server-sdk';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { connect } from 'node:net';
import { BodyError, cors, listen, type PaymentEmulatorOptions, type RunningPaymentEmulator } from '../http-kit';
import { catalogRoutes } from './catalog';
import { buyerPage, controlHandler, controls } from './control';
import { authFailure, PayPalError } from './errors';
import { orderRoutes } from './orders';
import { ppId, State, type Call, type Ctx, type EventRecord, type Json, type Route } from './store';
import { subscriptionRoutes } from './subscriptions';
import { notificationRoutes, WebhookDispatcher, WebhookSigner } from './webhooks';

/** `webhooks`: each one's `id` is the webhook id for verification (default generated). */
export interface PayPalEmulatorOptions extends PaymentEmulatorOptions<{ url: string; id?: string; events?: string[] }> {
  /** When set, only these credentials get a token; default: any non-empty client id and secret. */
  clientId?: string;
  clientSecret?: string;
  /** Lifetime of access tokens (default 32400 s, as PayPal's). */
  tokenTtlSeconds?: number;
}

export interface LoggedRequest {
  method: string;
  path: string;
  body: Json;
  status: number;
  requestId: string | null;
}

export interface EmulatorCore {
  ctx: Ctx;
  webhooks: WebhookDispatcher;
  signer: WebhookSigner;
  requests: LoggedRequest[];
  /** Access token → expiry (ms). Kept across reset, so a client's cached token stays good. */
  tokens: Map<string, number>;
  /** 2xx answers kept by `METHOD path PayPal-Request-Id`. */
  idempotent: Map<string, { fingerprint: string; status: number; body: unknown }>;
  /** Forced failures (`failNext`): API calls whose `METHOD path` contains `match` answer `status`, `times` times. */
  failures: { status: number; times: number; match: string }[];
  reset(): void;
}

export function createCore(options: PayPalEmulatorOptions, origin: () => string): EmulatorCore {
  const state = new State();
  const signer = new WebhookSigner(origin);
  const webhooks = new WebhookDispatcher(signer, options.delivery);
  const ctx: Ctx = {
    state,
    get origin() {
      return origin();
    },
    emit(eventType, resource, meta) {
      const id = `WH-${ppId(17)}-${ppId(17)}`;
      const self = `${origin()}/v1/notifications/webhooks-events/${id}`;
      const wire = {
        id,
        event_version: '1.0',
        create_time: new Date().toISOString(),
        resource_type: meta.resourceType,
        ...(meta.resourceVersion ? { resource_version: meta.resourceVersion } : {}),
        event_type: eventType,
        summary: meta.summary,
        resource: structuredClone(resource),
        links: [
          { href: self, rel: 'self', method: 'GET' },
          { href: `${self}/resend`, rel: 'resend', method: 'POST' },
        ],
      };
      // Compact JSON, as PayPal sends it; the signature covers these exact bytes.
      const event: EventRecord = { wire, payload: JSON.stringify(wire) };
      state.events.set(id, event);
      webhooks.dispatch(event);
      return event;
    },
  };
  for (const endpoint of options.webhooks ?? []) webhooks.addEndpoint(endpoint);
  return {
    ctx,
    webhooks,
    signer,
    requests: [],
    tokens: new Map(),
    idempotent: new Map(),
    failures: [],
    reset() {
      state.clear();
      this.idempotent.clear();
      this.failures.length = 0;
      this.requests.length = 0;
      webhooks.clear();
    },
  };
}

const ROUTES = (core: EmulatorCore) =>
  [...orderRoutes, ...catalogRoutes, ...subscriptionRoutes, ...notificationRoutes(core.webhooks, core.signer)].map((route) => ({
    route,
    regex: new RegExp(`^${route.pattern.replace(/:(\w+)/g, '(?<$1>[^/]+)')}$`),
  }));

function debugId() {
  return randomBytes(7).toString('hex').slice(0, 13);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const debug = debugId();
  if (status === 204 || body === undefined) {
    res.writeHead(status, { 'paypal-debug-id': debug, ...headers });
    res.end();
    return;
  }
  const payload = body && typeof body === 'object' && status >= 400 && 'name' in body ? { ...body, debug_id: debug } : body;
  const text = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'paypal-debug-id': debug, ...headers });
  res.end(text);
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

function basicCredentials(header: string): { id: string; secret: string } | null {
  if (!header.toLowerCase().startsWith('basic ')) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1 || colon === decoded.length - 1) return null;
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

const SCOPES = ['https://uri.paypal.com/services/payments/payment', 'https://uri.paypal.com/services/subscriptions', 'https://uri.paypal.com/services/applications/webhooks', 'https://uri.paypal.com/services/payments/realtimepayment'].join(' ');

export function apiHandler(core: EmulatorCore, options: PayPalEmulatorOptions) {
  const routes = ROUTES(core);
  const credentialsOk = (c: { id: string; secret: string } | null) => !!c && (!options.clientId || c.id === options.clientId) && (!options.clientSecret || c.secret === options.clientSecret);

  const token = (req: IncomingMessage, res: ServerResponse, text: string) => {
    if (!credentialsOk(basicCredentials(req.headers.authorization ?? ''))) {
      send(res, 401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
      return 401;
    }
    const grant = new URLSearchParams(text).get('grant_type');
    if (grant !== 'client_credentials') {
      send(res, 400, { error: 'unsupported_grant_type', error_description: grant ? `Grant Type ${grant} is not supported` : 'Grant Type is NULL' });
      return 400;
    }
    const ttl = options.tokenTtlSeconds ?? 32_400;
    const accessToken = `A21AA${randomBytes(48).toString('base64url')}`;
    core.tokens.set(accessToken, Date.now() + ttl * 1000);
    if (core.tokens.size > 10_000) for (const [t, expiry] of core.tokens) if (expiry <= Date.now()) core.tokens.delete(t);
    send(res, 200, { scope: SCOPES, access_token: accessToken, token_type: 'Bearer', app_id: 'APP-80W284485P519543T', expires_in: ttl, nonce: `${new Date().toISOString()}${randomBytes(16).toString('base64url')}` });
    return 200;
  };

  const authorized = (header: string) => {
    if (header.toLowerCase().startsWith('bearer ')) {
      const expiry = core.tokens.get(header.slice(7).trim());
      return expiry !== undefined && expiry > Date.now();
    }
    return credentialsOk(basicCredentials(header));
  };

  const match = (method: string, path: string) => {
    let wrongMethod = false;
    for (const { route, regex } of routes) {
      const found = regex.exec(path);
      if (!found) continue;
      if (route.method !== method) {
        wrongMethod = true;
        continue;
      }
      return { route: route as Route, ids: Object.fromEntries(Object.entries(found.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)])) };
    }
    if (wrongMethod) return new PayPalError(405, { name: 'METHOD_NOT_SUPPORTED', message: 'The server does not implement the requested HTTP method.' });
    return new PayPalError(404, { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.', details: [{ issue: 'INVALID_URI', description: `The emulator has no route ${method} ${path}.` }] });
  };

  return async (req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) => {
    const method = req.method ?? 'GET';
    let text: string;
    try {
      text = await readText(req);
    } catch (error) {
      send(res, 413, { name: 'INVALID_REQUEST', message: error instanceof Error ? error.message : 'Invalid body.' });
      return;
    }
    const requestId = method === 'POST' ? ((req.headers['paypal-request-id'] as string | undefined) ?? null) : null;
    let body: Json = {};
    const log = (status: number) => {
      core.requests.push({ method, path, body, status, requestId });
      if (core.requests.length > 2000) core.requests.splice(0, core.requests.length - 2000);
    };
    if (path === '/v1/oauth2/token' && method === 'POST') return log(token(req, res, text));
    if (!authorized(req.headers.authorization ?? '')) {
      const error = authFailure();
      log(error.status);
      send(res, error.status, error.body);
      return;
    }
    const key = requestId ? `${method} ${path} ${requestId}` : null;
    const previous = key ? core.idempotent.get(key) : undefined;
    if (previous && previous.fingerprint === text) {
      log(previous.status);
      send(res, previous.status, previous.body);
      return;
    }

    let reply: { status: number; body?: unknown };
    try {
      if (previous) {
        throw new PayPalError(422, {
          name: 'UNPROCESSABLE_ENTITY',
          message: 'The requested action could not be performed, semantically incorrect, or failed business validation.',
          details: [{ issue: 'PAYPAL_REQUEST_ID_PREVIOUSLY_USED', description: 'The PayPal-Request-Id has already been used for another request.' }],
        });
      }
      if (text.trim()) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new PayPalError(400, { name: 'INVALID_REQUEST', message: 'Request is not well-formed, syntactically incorrect, or violates schema.', details: [{ location: 'body', issue: 'MALFORMED_REQUEST_JSON', description: 'The request JSON is not well formed.' }] });
        }
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Json;
      }
      const forced = core.failures.find((f) => f.times > 0 && `${method} ${path}`.includes(f.match));
      if (forced) {
        forced.times--;
        throw new PayPalError(forced.status, { name: 'INTERNAL_SERVICE_ERROR', message: 'An internal service error has occurred (forced by the emulator).' });
      }
      const found = match(method, path);
      if (found instanceof PayPalError) throw found;
      let mock: Call['mock'] = null;
      try {
        const header = req.headers['paypal-mock-response'];
        if (typeof header === 'string') mock = JSON.parse(header) as Call['mock'];
      } catch {
        mock = null;
      }
      const prefer = String(req.headers.prefer ?? '');
      reply = found.route.handle(core.ctx, { body, query, ids: found.ids, representation: prefer.includes('return=representation'), mock });
    } catch (error) {
      if (error instanceof PayPalError) reply = { status: error.status, body: error.body };
      else reply = { status: 500, body: { name: 'INTERNAL_SERVER_ERROR', message: `Emulator error: ${error instanceof Error ? error.message : String(error)}` } };
    }
    if (key && reply.status >= 200 && reply.status < 300) {
      core.idempotent.set(key, { fingerprint: text, status: reply.status, body: reply.body });
      if (core.idempotent.size > 20_000) core.idempotent.delete(core.idempotent.keys().next().value!);
    }
    log(reply.status);
    send(res, reply.status, reply.body);
  };
}

/**
 * An HTTPS agent whose connections are plain TCP to `origin`: give it to the SDK as
 * `httpClientOptions.httpsAgent` and its https://api-m.sandbox.paypal.com requests reach `origin`.
 */
export function emulatorHttpsAgent(origin: string): HttpsAgent {
  const { hostname, port } = new URL(origin);
  const host = hostname.replace(/^\[|\]$/g, '');
  class ToEmulator extends HttpsAgent {
    override createConnection() {
      return connect({ host, port: Number(port) });
    }
  }
  return new ToEmulator({ keepAlive: true });
}

/** What the SDK needs besides credentials: `new Client({ clientCredentialsAuthCredentials, ...emulator.sdkOptions })`. */
export type PayPalSdkOptions = Pick<ConstructorParameters<typeof Client>[0] & object, 'environment' | 'httpClientOptions' | 'unstable_httpClientOptions'>;

/** CORS, for a stand-in of PayPal's JS SDK or control calls made from the app's origin. */
const allowCors = { methods: 'GET, POST, DELETE, PATCH, OPTIONS', headers: 'authorization, content-type, paypal-request-id, prefer' };

/**
 * `origin` is the base URL for plain-fetch calls (catalog products, plans); `control` holds the
 * in-process twins of the /_emulator control routes: buyer approval, captures, renewals.
 */
export interface RunningPayPalEmulator extends RunningPaymentEmulator<EmulatorCore, ReturnType<typeof controls>, WebhookDispatcher, LoggedRequest> {
  /** For `new Client({ clientCredentialsAuthCredentials: {...}, ...emulator.sdkOptions })`. */
  sdkOptions: PayPalSdkOptions;
  /** Where the public half of the webhook signing key is served (`paypal-cert-url`). */
  certUrl: string;
  /** URL of the stand-in of PayPal's JS SDK v6 core script (browser tests serve it at PayPal's URL). */
  webSdkV6Url: string;
}

export async function startPayPalEmulator(options: PayPalEmulatorOptions = {}): Promise<RunningPayPalEmulator> {
  let origin = '';
  const core = createCore(options, () => origin);
  const api = apiHandler(core, options);
  const control = controlHandler(core);
  const server = await listen(async (req, res) => {
    if (cors(req, res, allowCors)) return;
    const url = new URL(req.url ?? '/', 'http://emulator');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    if (path.startsWith('/_emulator/')) return control(req, res, path);
    if (path === '/checkoutnow' || path === '/webapps/billing/subscriptions') return buyerPage(core, req, res, path, url.searchParams);
    if (req.method === 'GET' && path === `/v1/notifications/certs/${core.signer.certId}`) {
      res.writeHead(200, { 'content-type': 'application/x-pem-file' });
      res.end(core.signer.publicKeyPem);
      return;
    }
    return api(req, res, path, url.searchParams);
  }, options);
  origin = server.origin;
  const agent = emulatorHttpsAgent(origin);
  return {
    origin,
    host: options.host ?? '127.0.0.1',
    port: server.port,
    sdkOptions: {
      environment: Environment.Sandbox,
      httpClientOptions: { httpsAgent: agent },
      // An HTTPS_PROXY in the environment would otherwise tunnel past the agent.
      unstable_httpClientOptions: { proxy: false },
    },
    certUrl: core.signer.certUrl,
    webSdkV6Url: `${origin}/_emulator/paypal-web-sdk-v6-core.js`,
    core,
    control: controls(core),
    webhooks: core.webhooks,
    requests: core.requests,
    close: async () => {
      core.webhooks.close();
      agent.destroy();
      await server.close();
    },
  };
}
