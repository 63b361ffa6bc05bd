// PAYMENTS_DEMO=1 (issue 10 item 8; README "Trying payments offline"): the whole checkout offline, by card
// and with PayPal. The Stripe and PayPal emulators run in this process with demo credentials; the SDKs are
// pointed at them (STRIPE_API_*, PAYPAL_API_URL), the checkout page loads the Stripe emulator's Stripe.js
// stand-in (STRIPE_JS_URL) and, told by GET /api/paypal/config's js_url (PAYPAL_JS_URL), the PayPal emulator's
// stand-in of PayPal's v6 core script before the SDK (which then finds it and loads nothing from paypal.com);
// both origins are added to the CSP because those URLs are not Stripe's or PayPal's. This folder and the tests
// are the only code that imports the emulators (eslint.config.js); boot.ts and main.ts wire it in. Once this server listens, both emulators deliver
// their signed webhooks to it. Refused when NODE_ENV=production: a production server must never take
// make-believe payments.
import { startPayPalEmulator, type RunningPayPalEmulator } from '@pluma/emulators/paypal/index';
import { startStripeEmulator, type RunningStripeEmulator } from '@pluma/emulators/stripe/index';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Env } from '../env';

export const PAYMENTS_DEMO_REFUSED =
  'PAYMENTS_DEMO=1 is refused when NODE_ENV=production: it takes make-believe payments. Set NODE_ENV=development to try checkout offline.';

export interface PaymentsDemo {
  stripe: RunningStripeEmulator;
  paypal: RunningPayPalEmulator;
}

/** The emulators started for an environment (the Env object startPaymentsDemo returned). */
const running = new WeakMap<object, PaymentsDemo>();

/**
 * Without PAYMENTS_DEMO: `env` as it is. With it: starts the emulators and returns the environment pointing
 * at them (demo Stripe secret, publishable and webhook keys, which win over the app configuration's, see
 * stripe-client.ts; demo PayPal client id, secret and webhook id, sandbox). Throws in production.
 */
export async function startPaymentsDemo(env: Env): Promise<Env> {
  if (!env.PAYMENTS_DEMO) return env;
  if (env.NODE_ENV === 'production') throw new Error(PAYMENTS_DEMO_REFUSED);
  const token = randomBytes(12).toString('hex');
  const secretKey = `sk_test_pluma_demo_${token}`;
  const payPalClient = { clientId: `pluma-demo-${token}`, clientSecret: `pluma-demo-secret-${randomBytes(12).toString('hex')}` };
  const emulator = await startStripeEmulator({ host: '127.0.0.1', port: 0, apiKey: secretKey });
  const paypal = await startPayPalEmulator({ host: '127.0.0.1', port: 0, ...payPalClient }).catch(async (err: unknown) => {
    await emulator.close();
    throw err;
  });
  const demoEnv: Env = {
    ...env,
    STRIPE_SECRET_KEY: secretKey,
    STRIPE_PUBLISHABLE_KEY: `pk_test_pluma_demo_${token}`,
    STRIPE_WEBHOOK_SECRET: `whsec_pluma_demo_${randomBytes(16).toString('hex')}`,
    STRIPE_API_HOST: emulator.host,
    STRIPE_API_PORT: emulator.port,
    STRIPE_API_PROTOCOL: 'http',
    STRIPE_JS_URL: emulator.stripeJsUrl,
    PAYPAL_CLIENT_ID: payPalClient.clientId,
    PAYPAL_CLIENT_SECRET: payPalClient.clientSecret,
    PAYPAL_WEBHOOK_ID: `WH-PLUMA-DEMO-${token.toUpperCase()}`,
    PAYPAL_ENVIRONMENT: 'sandbox',
    PAYPAL_API_URL: paypal.origin,
    PAYPAL_JS_URL: paypal.webSdkV6Url,
  };
  running.set(demoEnv, { stripe: emulator, paypal });
  return demoEnv;
}

/** The running demo emulators of this environment, if any. */
export function paymentsDemoOf(env: object): PaymentsDemo | undefined {
  return running.get(env);
}

/** The address an emulator delivers webhooks to: this server as it listens (loopback for a wildcard host). */
export function webhookUrlFor(address: AddressInfo, provider: 'stripe' | 'paypal' = 'stripe'): string {
  const wildcard = address.address === '0.0.0.0' || address.address === '::' || address.address === '';
  const host = wildcard ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}/api/${provider}/webhook`;
}

/**
 * Connects the demo emulators to the app: once the server listens, their events are delivered to its
 * webhooks (Stripe's signed with the demo secret, PayPal's verified with the demo webhook id); the
 * emulators stop with the app.
 */
export function attachPaymentsDemo(app: FastifyInstance, env: Env): void {
  const demo = running.get(env);
  if (!demo) return;
  app.server.once('listening', () => {
    const address = app.server.address();
    if (!address || typeof address === 'string') return;
    const url = webhookUrlFor(address);
    const payPalUrl = webhookUrlFor(address, 'paypal');
    demo.stripe.webhooks.addEndpoint({ url, secret: env.STRIPE_WEBHOOK_SECRET });
    demo.paypal.webhooks.addEndpoint({ url: payPalUrl, id: env.PAYPAL_WEBHOOK_ID });
    app.log.warn(`PAYMENTS_DEMO: checkout runs against the Stripe emulator at ${demo.stripe.origin} (test card 4242 4242 4242 4242; 4000 0025 0000 3155 asks for 3-D Secure); its webhooks go to ${url}`);
    app.log.warn(`PAYMENTS_DEMO: the PayPal button runs against the PayPal emulator at ${demo.paypal.origin} (approve in its window); its webhooks go to ${payPalUrl}`);
  });
  app.addHook('onClose', async () => {
    running.delete(env);
    await Promise.all([demo.stripe.close(), demo.paypal.close()]);
  });
}
