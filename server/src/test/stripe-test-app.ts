// What the payment tests set up alike: the Stripe emulator and the official SDK pointed at it, the real app
// talking to that emulator (its keys in the environment), and webhook events delivered the way Stripe
// does (the event's JSON signed with Stripe's scheme, one raw body).
import { signPayload, startStripeEmulator, type RunningStripeEmulator } from '@pluma/emulators/stripe/index';
import Stripe from 'stripe';
import { createTestApp, type TestApp } from './test-app';

export interface StripeKeys {
  secretKey: string;
  publishableKey?: string;
  webhookSecret?: string;
}

export interface StripeTestApp {
  emulator: RunningStripeEmulator;
  /** The official SDK, talking to the emulator (no retries: a failure shows at once). */
  stripe: Stripe;
  t: TestApp;
}

/** The environment that points the app's Stripe client at `emulator`, with the keys given. */
export function stripeEmulatorEnv(emulator: RunningStripeEmulator, keys: Partial<StripeKeys> = {}): Record<string, string> {
  return {
    ...(keys.secretKey ? { STRIPE_SECRET_KEY: keys.secretKey } : {}),
    ...(keys.publishableKey ? { STRIPE_PUBLISHABLE_KEY: keys.publishableKey } : {}),
    ...(keys.webhookSecret ? { STRIPE_WEBHOOK_SECRET: keys.webhookSecret } : {}),
    STRIPE_API_HOST: emulator.host,
    STRIPE_API_PORT: String(emulator.port),
    STRIPE_API_PROTOCOL: 'http',
  };
}

/** Starts the emulator, the SDK and the app (`env`: more of the app's environment). Close `t`, then `emulator`. */
export async function startStripeTestApp(keys: StripeKeys, env: Record<string, string> = {}): Promise<StripeTestApp> {
  const emulator = await startStripeEmulator({ apiKey: keys.secretKey });
  const stripe = new Stripe(keys.secretKey, { ...emulator.sdkOptions, maxNetworkRetries: 0 });
  const t = await createTestApp({ ...stripeEmulatorEnv(emulator, keys), ...env });
  return { emulator, stripe, t };
}

/** POSTs `event` to /api/stripe/webhook signed with `webhookSecret`, as Stripe would deliver it. */
export function deliverStripeEvent(t: TestApp, event: Stripe.Event | Record<string, unknown>, webhookSecret: string) {
  const payload = JSON.stringify(event);
  return t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(payload, webhookSecret) },
    payload,
  });
}
