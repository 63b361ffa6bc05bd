// PayPal from the environment (docs/decisions.md "PayPal checkout"): PAYPAL_CLIENT_ID / _SECRET /
// _WEBHOOK_ID / _ENVIRONMENT (the app configuration has no PayPal keys yet). The official
// `@paypal/paypal-server-sdk` does orders and subscriptions; what it lacks (catalog products,
// verify-webhook-signature) goes through `payPalRest`, plain fetch with the same OAuth credentials.
//
// PAYPAL_API_URL points both at another server (the emulator). The SDK has no base-URL option, only
// Sandbox/Production, so it gets an https.Agent whose sockets are plain TCP connections to that server
// (emulators/src/paypal/README.md "Pointing the SDK at the emulator"). PayPal's API is a fixed endpoint
// the operator sets in the environment, not a URL a user or an admin configures, so it does not go through
// platform/outbound's guard (which would refuse the local emulator).
import { PayPalErrorIds } from '@pluma/common/paypal';
import type { OrdersController, SubscriptionsController } from '@paypal/paypal-server-sdk';
import { Agent as HttpsAgent } from 'node:https';
import { connect } from 'node:net';
import type { AppContext } from '../../context';
import { AppError } from '../../platform/http/errors';

export interface PayPalSettings {
  clientId: string;
  clientSecret: string;
  webhookId: string | null;
  environment: 'sandbox' | 'live';
  /** REST base URL: PAYPAL_API_URL, else PayPal's own for the environment. */
  apiUrl: string;
}

export interface PayPal {
  settings: PayPalSettings;
  orders: OrdersController;
  subscriptions: SubscriptionsController;
  /** A REST call the SDK does not cover; resolves to the answer's JSON, throws PayPalRestError on non-2xx. */
  rest<T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T>;
}

const API_URLS = { sandbox: 'https://api-m.sandbox.paypal.com', live: 'https://api-m.paypal.com' } as const;
const TIMEOUT_MS = 20_000;

/** The settings, or null when the client id or secret is missing. Secrets never leave the server. */
export function payPalSettings(ctx: AppContext): PayPalSettings | null {
  const { PAYPAL_CLIENT_ID: clientId, PAYPAL_CLIENT_SECRET: clientSecret, PAYPAL_ENVIRONMENT: environment } = ctx.env;
  if (!clientId || !clientSecret) return null;
  const apiUrl = (ctx.env.PAYPAL_API_URL ?? API_URLS[environment]).replace(/\/+$/, '');
  return { clientId, clientSecret, webhookId: ctx.env.PAYPAL_WEBHOOK_ID ?? null, environment, apiUrl };
}

/** A non-2xx answer of a plain REST call, with PayPal's error name (e.g. RESOURCE_NOT_FOUND). */
export class PayPalRestError extends Error {
  constructor(
    readonly status: number,
    readonly name_: string,
    readonly issue: string | null,
  ) {
    super(`PayPal ${status} ${name_}${issue ? ` ${issue}` : ''}`);
  }
}

/** An https.Agent whose connections are plain TCP to an http:// API URL (the emulator). */
function plainAgent(apiUrl: string): HttpsAgent {
  const { hostname, port } = new URL(apiUrl);
  const host = hostname.replace(/^\[|\]$/g, '');
  class ToPlainServer extends HttpsAgent {
    override createConnection() {
      return connect({ host, port: Number(port || 80) });
    }
  }
  return new ToPlainServer({ keepAlive: true });
}

type PayPalSdk = typeof import('@paypal/paypal-server-sdk');
/** The SDK, loaded with the first PayPal call rather than at boot (~0.4 s of CPU: cold start, issue 31 item 4). */
let sdk: PayPalSdk | null = null;
async function loadSdk(): Promise<PayPalSdk> {
  sdk ??= await import('@paypal/paypal-server-sdk');
  return sdk;
}

function buildPayPal({ Client, Environment, OrdersController, SubscriptionsController }: PayPalSdk, settings: PayPalSettings): PayPal {
  const emulated = settings.apiUrl.startsWith('http://');
  const client = new Client({
    clientCredentialsAuthCredentials: { oAuthClientId: settings.clientId, oAuthClientSecret: settings.clientSecret },
    environment: settings.environment === 'live' ? Environment.Production : Environment.Sandbox,
    timeout: TIMEOUT_MS,
    ...(emulated ? { httpClientOptions: { httpsAgent: plainAgent(settings.apiUrl) }, unstable_httpClientOptions: { proxy: false } } : {}),
  });

  let token: { value: string; until: number } | null = null;
  const basic = `Basic ${Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64')}`;
  async function accessToken(): Promise<string> {
    if (token && token.until > Date.now()) return token.value;
    const response = await fetch(`${settings.apiUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) throw new PayPalRestError(response.status, 'AUTHENTICATION_FAILURE', null);
    const body = (await response.json()) as { access_token: string; expires_in: number };
    // Renewed a minute early, so a call never goes out with a token about to lapse.
    token = { value: body.access_token, until: Date.now() + Math.max(0, body.expires_in - 60) * 1000 };
    return token.value;
  }

  async function rest<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const response = await fetch(`${settings.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await accessToken()}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await response.text();
    const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (!response.ok) {
      const details = json.details as { issue?: string }[] | undefined;
      throw new PayPalRestError(response.status, String(json.name ?? 'ERROR'), details?.[0]?.issue ?? null);
    }
    return json as T;
  }

  return { settings, orders: new OrdersController(client), subscriptions: new SubscriptionsController(client), rest };
}

const cache = new WeakMap<AppContext, { key: string; paypal: PayPal }>();

/** The PayPal clients, or null when PayPal is not configured. Built once per settings. */
export async function payPalClient(ctx: AppContext): Promise<PayPal | null> {
  const settings = payPalSettings(ctx);
  if (!settings) return null;
  const key = `${settings.clientId}|${settings.clientSecret}|${settings.environment}|${settings.apiUrl}`;
  const hit = cache.get(ctx);
  if (hit?.key === key) return hit.paypal;
  const paypal = buildPayPal(await loadSdk(), settings);
  cache.set(ctx, { key, paypal });
  return paypal;
}

export const payPalNotConfigured = (status: 404 | 409 = 409) => new AppError(status, PayPalErrorIds.notConfigured, 'paypal_not_configured');

export async function requirePayPal(ctx: AppContext): Promise<PayPal> {
  const paypal = await payPalClient(ctx);
  if (!paypal) throw payPalNotConfigured();
  return paypal;
}

/** PayPal's error name and first issue of an SDK or REST failure (e.g. UNPROCESSABLE_ENTITY / ORDER_NOT_APPROVED). */
export function payPalIssue(err: unknown): { status: number; name: string; issue: string | null } | null {
  if (err instanceof PayPalRestError) return { status: err.status, name: err.name_, issue: err.issue };
  // An SDK failure: the SDK is loaded (an error of it could not exist otherwise).
  if (sdk && err instanceof sdk.ApiError) {
    const result = (err.result ?? {}) as { name?: string; details?: { issue?: string }[] };
    return { status: err.statusCode, name: result.name ?? 'ERROR', issue: result.details?.[0]?.issue ?? null };
  }
  return null;
}

/** A PayPal failure as our error: a declined instrument is 402, anything else 502 (the spec's "error processing"). */
export function payPalProviderError(err: unknown): AppError {
  const issue = payPalIssue(err);
  const declined = issue?.issue === 'INSTRUMENT_DECLINED' || issue?.issue === 'PAYER_ACTION_REQUIRED';
  return new AppError(declined ? 402 : 502, 'payments_provider_error', 'payments_provider_error', {}, { provider: 'paypal', code: issue?.issue ?? issue?.name ?? 'unreachable' });
}
