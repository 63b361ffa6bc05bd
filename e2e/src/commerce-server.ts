// A built server of its own for the commerce journey (issue 10 acceptance), wired to the Stripe and PayPal
// emulators running in the test process: the server's Stripe and PayPal SDKs talk to them, the checkout
// page loads the Stripe emulator's Stripe.js stand-in and (through routePayPalWebSdk) the PayPal
// emulator's stand-in of PayPal's JS SDK v6, and both emulators deliver their signed webhooks to the server. NODE_ENV stays production (as the shared journeys' server): PAYMENTS_DEMO is refused
// there, so the emulators are started here instead, as PAYMENTS_DEMO would start the Stripe one.
import { startPayPalEmulator, type RunningPayPalEmulator } from '@pluma/emulators/paypal/index';
import { startStripeEmulator, type RunningStripeEmulator } from '@pluma/emulators/stripe/index';
import { randomBytes } from 'node:crypto';
import type { BrowserContext } from 'playwright-core';
import { inject } from 'vitest';
import { adminLoginBody, apiRequestAt } from './api';
import { restartableServer, type RestartableServer } from './restartable-server';

export interface CommerceServer {
  baseUrl: string;
  stripe: RunningStripeEmulator;
  paypal: RunningPayPalEmulator;
  /** A session of the admin the server was started with. */
  adminToken: string;
  /** Serves the PayPal emulator's JS SDK v6 stand-in at PayPal's own script URL, in this browser context. */
  routePayPalWebSdk(context: BrowserContext): Promise<void>;
  close(): Promise<void>;
}

/**
 * PayPal's JS SDK v6 core script: @paypal/paypal-js always loads it from paypal.com (no option points it
 * elsewhere), so the browser gets the emulator's stand-in at that URL (the "browser tests may
 * instead intercept ... URL", as for Stripe).
 */
const PAYPAL_WEB_SDK_V6 = /^https:\/\/www\.(?:sandbox\.)?paypal\.com\/web-sdk\/v6\/core(?:\?.*)?$/;

export async function routePayPalWebSdk(context: BrowserContext, paypal: RunningPayPalEmulator): Promise<void> {
  await context.route(PAYPAL_WEB_SDK_V6, async (route) => {
    const response = await fetch(paypal.webSdkV6Url);
    await route.fulfill({ status: response.status, contentType: 'application/javascript; charset=utf-8', body: await response.text() });
  });
}

const secret = (prefix: string, bytes = 12) => `${prefix}${randomBytes(bytes).toString('hex')}`;

/** The server starts from the journeys' seeded data directory, so its admin is E2E_ADMIN. */
export async function startCommerceServer(options: { logFile: string }): Promise<CommerceServer> {
  const stripeSecretKey = secret('sk_test_e2e_');
  const stripeWebhookSecret = secret('whsec_e2e_', 16);
  const payPalWebhookId = secret('WH', 8).toUpperCase();
  const stripe = await startStripeEmulator({ host: '127.0.0.1', port: 0, apiKey: stripeSecretKey });
  const paypal = await startPayPalEmulator({ host: '127.0.0.1', port: 0 });
  let server: RestartableServer | undefined;
  try {
    server = await restartableServer({
      env: {
        STRIPE_SECRET_KEY: stripeSecretKey,
        STRIPE_PUBLISHABLE_KEY: secret('pk_test_e2e_'),
        STRIPE_WEBHOOK_SECRET: stripeWebhookSecret,
        STRIPE_API_HOST: stripe.host,
        STRIPE_API_PORT: String(stripe.port),
        STRIPE_API_PROTOCOL: 'http',
        STRIPE_JS_URL: stripe.stripeJsUrl,
        PAYPAL_CLIENT_ID: secret('paypal-e2e-client-'),
        PAYPAL_CLIENT_SECRET: secret('paypal-e2e-secret-'),
        PAYPAL_WEBHOOK_ID: payPalWebhookId,
        PAYPAL_ENVIRONMENT: 'sandbox',
        PAYPAL_API_URL: paypal.origin,
      },
      logFile: options.logFile,
      seededDataDir: inject('seededDataDir'),
    });
    stripe.webhooks.addEndpoint({ url: `${server.baseUrl}/api/stripe/webhook`, secret: stripeWebhookSecret });
    paypal.webhooks.addEndpoint({ url: `${server.baseUrl}/api/paypal/webhook`, id: payPalWebhookId });
    await server.start();
    const admin = await apiRequestAt<{ token: string }>(server.baseUrl, 'POST', '/auth/login', { body: adminLoginBody() });
    const running = server;
    return {
      baseUrl: running.baseUrl,
      stripe,
      paypal,
      adminToken: admin.token,
      routePayPalWebSdk: (context) => routePayPalWebSdk(context, paypal),
      async close() {
        await running.dispose();
        await Promise.all([stripe.close(), paypal.close()]);
      },
    };
  } catch (error) {
    await server?.dispose();
    await Promise.all([stripe.close(), paypal.close()]);
    throw error;
  }
}
