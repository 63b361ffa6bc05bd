// PAYMENTS_DEMO=1 (issue 10 item 8; README "Trying payments offline"): the whole card checkout offline.
// The Stripe emulator runs in this process with demo keys; the SDK is pointed at it (STRIPE_API_*), the
// checkout page loads the emulator's Stripe.js stand-in (STRIPE_JS_URL, allowed by the CSP), and the
// emulator delivers its signed webhooks to this server once it listens. Refused when NODE_ENV=production:
// a production server must never take make-believe payments.
import { startStripeEmulator, type RunningStripeEmulator } from '@pluma/emulators/stripe/index';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Env } from '../../env';

export const PAYMENTS_DEMO_REFUSED =
  'PAYMENTS_DEMO=1 is refused when NODE_ENV=production: it takes make-believe payments. Set NODE_ENV=development to try checkout offline.';

/** The emulator started for an environment (the Env object startPaymentsDemo returned). */
const running = new WeakMap<Env, RunningStripeEmulator>();

/**
 * Without PAYMENTS_DEMO: `env` as it is. With it: starts the emulator and returns the environment pointing
 * at it (demo secret, publishable and webhook keys; these win over the app configuration's, see
 * stripe-client.ts). Throws in production.
 */
export async function startPaymentsDemo(env: Env): Promise<Env> {
  if (!env.PAYMENTS_DEMO) return env;
  if (env.NODE_ENV === 'production') throw new Error(PAYMENTS_DEMO_REFUSED);
  const token = randomBytes(12).toString('hex');
  const secretKey = `sk_test_pluma_demo_${token}`;
  const emulator = await startStripeEmulator({ host: '127.0.0.1', port: 0, apiKey: secretKey });
  const demoEnv: Env = {
    ...env,
    STRIPE_SECRET_KEY: secretKey,
    STRIPE_PUBLISHABLE_KEY: `pk_test_pluma_demo_${token}`,
    STRIPE_WEBHOOK_SECRET: `whsec_pluma_demo_${randomBytes(16).toString('hex')}`,
    STRIPE_API_HOST: emulator.host,
    STRIPE_API_PORT: emulator.port,
    STRIPE_API_PROTOCOL: 'http',
    STRIPE_JS_URL: emulator.stripeJsUrl,
  };
  running.set(demoEnv, emulator);
  return demoEnv;
}

/** The running demo emulator of this environment, if any. */
export function paymentsDemoOf(env: Env): RunningStripeEmulator | undefined {
  return running.get(env);
}

/** The address the emulator delivers webhooks to: this server as it listens (loopback for a wildcard host). */
export function webhookUrlFor(address: AddressInfo): string {
  const wildcard = address.address === '0.0.0.0' || address.address === '::' || address.address === '';
  const host = wildcard ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}/api/stripe/webhook`;
}

/**
 * Connects the demo emulator to the app: once the server listens, the emulator's events are delivered
 * to its webhook, signed with the demo secret; the emulator stops with the app.
 */
export function attachPaymentsDemo(app: FastifyInstance, env: Env): void {
  const emulator = running.get(env);
  if (!emulator) return;
  app.server.once('listening', () => {
    const address = app.server.address();
    if (!address || typeof address === 'string') return;
    const url = webhookUrlFor(address);
    emulator.webhooks.addEndpoint({ url, secret: env.STRIPE_WEBHOOK_SECRET });
    app.log.warn(`PAYMENTS_DEMO: checkout runs against the Stripe emulator at ${emulator.origin} (test card 4242 4242 4242 4242; 4000 0025 0000 3155 asks for 3-D Secure); its webhooks go to ${url}`);
  });
  app.addHook('onClose', async () => {
    running.delete(env);
    await emulator.close();
  });
}
