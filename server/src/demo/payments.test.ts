// PAYMENTS_DEMO (the whole checkout offline against the in-process Stripe and PayPal emulators) and the
// payment origins of the Content-Security-Policy.
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext, startApp } from '../boot';
import { purchases } from '../db/schema';
import { loadEnv, type Env } from '../env';
import { buildProduct, buildUser } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';
import { createTestDatabase } from '../test/test-db';
import { seedPaymentMethods } from '../features/appconfig/seed';
import { paymentCspSources, STRIPE_JS_DEFAULT_URL } from '../features/payments/checkout-config';
import { PAYMENTS_DEMO_REFUSED, paymentsDemoOf, startPaymentsDemo, webhookUrlFor } from './payments';

const baseEnv = (extra: Record<string, string> = {}) =>
  loadEnv({ NODE_ENV: 'test', DATA_DIR: '/tmp/pluma-demo-test', APP_SECRET: 'test-secret-test-secret-test-secret-0123', LOG_LEVEL: 'silent', ...extra });

/** The directive's sources from a CSP header. */
const directive = (csp: string, name: string) => (csp.split(';').find((d) => d.trim().startsWith(`${name} `)) ?? '').trim().split(/\s+/).slice(1);

describe('PAYMENTS_DEMO', () => {
  it('is refused when NODE_ENV=production, with a clear error', async () => {
    await expect(startPaymentsDemo(baseEnv({ NODE_ENV: 'production', PAYMENTS_DEMO: '1' }))).rejects.toThrow(PAYMENTS_DEMO_REFUSED);
  });

  it('changes nothing when off', async () => {
    const env = baseEnv();
    expect(await startPaymentsDemo(env)).toBe(env);
  });

  it('webhooks go to this server as it listens (loopback for a wildcard address)', () => {
    expect(webhookUrlFor({ address: '0.0.0.0', family: 'IPv4', port: 3000 })).toBe('http://127.0.0.1:3000/api/stripe/webhook');
    expect(webhookUrlFor({ address: '::', family: 'IPv6', port: 3000 })).toBe('http://127.0.0.1:3000/api/stripe/webhook');
    expect(webhookUrlFor({ address: '10.0.0.5', family: 'IPv4', port: 8080 })).toBe('http://10.0.0.5:8080/api/stripe/webhook');
    expect(webhookUrlFor({ address: '0.0.0.0', family: 'IPv4', port: 3000 }, 'paypal')).toBe('http://127.0.0.1:3000/api/paypal/webhook');
  });

  describe('running', () => {
    let env: Env;
    let app: Awaited<ReturnType<typeof startApp>>;
    let close: () => Promise<void>;
    beforeAll(async () => {
      env = await startPaymentsDemo(baseEnv({ NODE_ENV: 'development', PAYMENTS_DEMO: 'true' }));
      const database = await createTestDatabase();
      const ctx = await createContext(env, database);
      app = await startApp(ctx, { logger: false });
      close = async () => {
        await app.close();
        await database.close();
      };
    }, 60_000);
    afterAll(async () => close?.());

    it('runs a whole card checkout offline: config, Stripe.js stand-in allowed by the CSP, webhooks delivered to the app', async () => {
      const emulator = paymentsDemoOf(env)!.stripe;
      expect(emulator).toBeTruthy();
      const config = (await app.inject('/api/checkout/config')).json();
      expect(config).toEqual({ stripe: { publishable_key: env.STRIPE_PUBLISHABLE_KEY, js_url: emulator.stripeJsUrl }, demo: true });
      const csp = String((await app.inject('/api/health')).headers['content-security-policy']);
      for (const name of ['script-src', 'frame-src', 'connect-src']) expect(directive(csp, name)).toContain(emulator.origin);
      // The stand-in is served where the page is told to load it.
      const script = await fetch(emulator.stripeJsUrl);
      expect(script.status).toBe(200);

      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = (app.server.address() as { port: number }).port;
      expect([...emulator.webhooks.endpoints.values()].map((e) => e.url)).toEqual([`http://127.0.0.1:${port}/api/stripe/webhook`]);
      expect([...paymentsDemoOf(env)!.paypal.webhooks.endpoints.values()].map((e) => ({ url: e.url, id: e.id }))).toEqual([
        { url: `http://127.0.0.1:${port}/api/paypal/webhook`, id: env.PAYPAL_WEBHOOK_ID },
      ]);

      const ctx = app.ctx;
      const buyer = await buildUser(ctx);
      const product = await buildProduct(ctx, { price: 4, wordAmount: 40 });
      const res = await app.inject({ method: 'POST', url: '/api/checkout/attempt', headers: buyer.auth, payload: { product_id: product.productId } });
      expect(res.statusCode, res.body).toBe(200);
      const { purchase_id, clientSecret } = res.json() as { purchase_id: number; clientSecret: string };
      // What Stripe.js does in the page: confirm with the card (here through the SDK, against the same emulator).
      const stripe = new Stripe(env.STRIPE_SECRET_KEY!, { ...emulator.sdkOptions, maxNetworkRetries: 0 });
      await stripe.paymentIntents.confirm(clientSecret.split('_secret_')[0], { payment_method: 'pm_card_visa' });
      await emulator.webhooks.flush();
      const [row] = await ctx.db.select().from(purchases).where(eq(purchases.purchaseId, purchase_id));
      expect(row.status).toBe('completed');
      expect(emulator.webhooks.deliveries.every((d) => d.status === 200)).toBe(true);
    }, 30_000);

    it("offers PayPal offline: the config names the emulator's stand-in of PayPal's v6 script (allowed by the CSP), and a subscription and an order go through with webhooks delivered to the app", async () => {
      const { paypal } = paymentsDemoOf(env)!;
      expect(env).toMatchObject({ PAYPAL_ENVIRONMENT: 'sandbox', PAYPAL_API_URL: paypal.origin });
      const config = await app.inject('/api/paypal/config');
      expect(config.statusCode).toBe(200);
      expect(config.json()).toEqual({ client_id: env.PAYPAL_CLIENT_ID, environment: 'sandbox', currency: 'USD', js_url: paypal.webSdkV6Url });
      expect(config.body).not.toContain(env.PAYPAL_CLIENT_SECRET!);
      // Only the demo adds the emulator's origin, to script-src (the stand-in) and the rest.
      const csp = String((await app.inject('/api/health')).headers['content-security-policy']);
      for (const name of ['script-src', 'frame-src', 'connect-src']) expect(directive(csp, name)).toContain(paypal.origin);
      const script = await fetch(paypal.webSdkV6Url);
      expect(script.status).toBe(200);
      expect(await script.text()).toContain('createPayPalSubscriptionPaymentSession');

      if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
      const ctx = app.ctx;
      await seedPaymentMethods(ctx);
      const buyer = await buildUser(ctx);
      // A subscription: created at PayPal by the server, approved by the buyer, activated by PayPal's webhook.
      const plan = await buildProduct(ctx, { price: 12, wordAmount: 1200, isSubscription: true, subscriptionPeriod: 'month', subscriptionInterval: 1, expirationDays: null });
      const subscribed = await app.inject({ method: 'POST', url: '/api/paypal/subscriptions', headers: buyer.auth, payload: { product_id: plan.productId } });
      expect(subscribed.statusCode, subscribed.body).toBe(200);
      const { subscription_id, purchase_id } = subscribed.json() as { subscription_id: string; purchase_id: number };
      paypal.control.approveSubscription(subscription_id);
      await paypal.webhooks.flush();
      expect((await ctx.db.select().from(purchases).where(eq(purchases.purchaseId, purchase_id)))[0].status).toBe('active');
      // An order: approved in PayPal's window, captured by POST /checkout/capture.
      const pack = await buildProduct(ctx, { price: 5, wordAmount: 500 });
      const ordered = await app.inject({ method: 'POST', url: '/api/paypal/orders', headers: buyer.auth, payload: { product_id: pack.productId } });
      expect(ordered.statusCode, ordered.body).toBe(200);
      const order = ordered.json() as { order_id: string; purchase_id: number };
      paypal.control.approveOrder(order.order_id);
      const captured = await app.inject({ method: 'POST', url: '/api/checkout/capture', headers: buyer.auth, payload: { order_id: order.order_id } });
      expect(captured.json()).toEqual({ purchase_id: order.purchase_id, status: 'completed' });
      await paypal.webhooks.flush();
      expect(paypal.webhooks.deliveries.length).toBeGreaterThan(0);
      expect(paypal.webhooks.deliveries.every((d) => d.status === 200)).toBe(true);
    }, 30_000);
  });
});

describe('Content-Security-Policy: payment origins', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ STRIPE_JS_URL: 'http://127.0.0.1:4999/_emulator/stripe.js' });
  }, 60_000);
  afterAll(() => t?.close());

  it("allows Stripe's and PayPal's script, frame and connect origins, the configured Stripe.js origin, and still no injected script", async () => {
    const csp = String((await t.app.inject('/api/health')).headers['content-security-policy']);
    const script = directive(csp, 'script-src');
    const frame = directive(csp, 'frame-src');
    const connect = directive(csp, 'connect-src');
    expect(script).toEqual(expect.arrayContaining(["'self'", "'strict-dynamic'", 'https://js.stripe.com', 'https://*.js.stripe.com', 'https://www.paypal.com', 'https://*.paypal.com', 'https://www.sandbox.paypal.com', 'http://127.0.0.1:4999']));
    expect(script.some((s) => s.startsWith("'nonce-"))).toBe(true);
    // Injected inline script or any host: not allowed (strict-dynamic ignores the host list in CSP3 browsers).
    expect(script).not.toContain("'unsafe-inline'");
    expect(script).not.toContain('https:');
    expect(script).not.toContain('*');
    expect(frame).toEqual(expect.arrayContaining(['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com', 'https://www.paypal.com', 'http://127.0.0.1:4999']));
    expect(connect).toEqual(expect.arrayContaining(['https://api.stripe.com', 'https://m.stripe.network', 'https://m.stripe.com', 'https://*.paypal.com', 'http://127.0.0.1:4999']));
    expect(directive(csp, 'object-src')).toEqual(["'none'"]);
  });

  it('adds no PayPal emulator origin outside PAYMENTS_DEMO', async () => {
    expect(t.ctx.env.PAYPAL_JS_URL).toBeUndefined();
    expect(paymentCspSources(t.ctx.env)).toEqual(paymentCspSources({ STRIPE_JS_URL: t.ctx.env.STRIPE_JS_URL }));
    expect((await t.app.inject('/api/paypal/config')).statusCode).toBe(404);
  });

  it('adds no extra origin for Stripe’s own script URL', () => {
    const sources = paymentCspSources({ STRIPE_JS_URL: STRIPE_JS_DEFAULT_URL });
    expect(sources).toEqual(paymentCspSources({ STRIPE_JS_URL: undefined }));
    expect(sources.script).not.toContain('https://js.stripe.com/endive/stripe.js');
  });
});
