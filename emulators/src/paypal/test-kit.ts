// Shared by the PayPal emulator's tests: the emulator with the real `@paypal/paypal-server-sdk`
// pointed at it, a plain-fetch caller (for the catalog and anything else), and a webhook receiver
// that records the raw bodies and headers it gets.
import { Client, OrdersController, PaymentsController, SubscriptionsController } from '@paypal/paypal-server-sdk';
import { startWebhookReceiver, type Received } from '../webhook-receiver';
import { startPayPalEmulator, type PayPalEmulatorOptions, type RunningPayPalEmulator } from './server';

export const CLIENT_ID = 'pluma-sandbox-client';
export const CLIENT_SECRET = 'pluma-sandbox-secret';

export async function startWithClient(options: PayPalEmulatorOptions = {}) {
  const emulator = await startPayPalEmulator({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...options, delivery: { retryBaseMs: 5, ...options.delivery } });
  const client = new Client({ clientCredentialsAuthCredentials: { oAuthClientId: CLIENT_ID, oAuthClientSecret: CLIENT_SECRET }, ...emulator.sdkOptions });
  return {
    emulator,
    client,
    orders: new OrdersController(client),
    payments: new PaymentsController(client),
    subscriptions: new SubscriptionsController(client),
  };
}

export interface FetchAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & { name?: string; details?: { issue: string; field?: string }[] };
}

/** Plain-fetch calls with Basic credentials, as Pluma makes for what the SDK lacks. */
export function fetcher(emulator: RunningPayPalEmulator) {
  const auth = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<FetchAnswer> => {
    const response = await fetch(`${emulator.origin}${path}`, {
      method,
      headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as FetchAnswer['body']) : {} };
  };
}

export type { Received };

/** An HTTP server that records deliveries; `answer` picks each reply's status (default 200). */
export const startReceiver = (answer?: (received: Received, index: number) => number) => startWebhookReceiver<{ id: string; event_type: string; resource: Record<string, unknown> }>('/api/paypal/webhook', answer);

/**
 * The body Pluma sends to verify-webhook-signature: the transmission headers, the webhook id, and
 * the raw event body spliced in unchanged (never re-serialised).
 */
export function verifyBody(received: Received, webhookId: string, rawBody = received.body): string {
  const header = (name: string) => String(received.headers[name] ?? '');
  const fields = {
    auth_algo: header('paypal-auth-algo'),
    cert_url: header('paypal-cert-url'),
    transmission_id: header('paypal-transmission-id'),
    transmission_sig: header('paypal-transmission-sig'),
    transmission_time: header('paypal-transmission-time'),
    webhook_id: webhookId,
  };
  return `${JSON.stringify(fields).slice(0, -1)},"webhook_event":${rawBody}}`;
}

/** A DIGITAL catalog product and a monthly plan for it (with an optional free trial), through plain fetch. */
export async function monthlyPlan(call: ReturnType<typeof fetcher>, options: { price?: string; trialDays?: number; failureThreshold?: number; totalCycles?: number } = {}) {
  const product = await call('POST', '/v1/catalogs/products', { name: 'Pluma Pro', type: 'DIGITAL', description: 'Monthly plan' });
  const cycles = [];
  if (options.trialDays) cycles.push({ frequency: { interval_unit: 'DAY', interval_count: options.trialDays }, tenure_type: 'TRIAL', sequence: 1, total_cycles: 1 });
  cycles.push({
    frequency: { interval_unit: 'MONTH', interval_count: 1 },
    tenure_type: 'REGULAR',
    sequence: cycles.length + 1,
    total_cycles: options.totalCycles ?? 0,
    pricing_scheme: { fixed_price: { currency_code: 'USD', value: options.price ?? '20.00' } },
  });
  const plan = await call('POST', '/v1/billing/plans', {
    product_id: product.body.id,
    name: 'Pluma Pro monthly',
    billing_cycles: cycles,
    payment_preferences: { auto_bill_outstanding: true, payment_failure_threshold: options.failureThreshold ?? 0 },
  });
  return { product: product.body, plan: plan.body as { id: string } & Record<string, unknown> };
}
