// POST /api/checkout/customer_session through the real app against the Stripe emulator (the official SDK
// pointed at it), on PGlite and PostgreSQL (TEST_DB): the session is always for the caller's own Stripe
// customer, Stripe.js reading it sees only that customer's cards the buyer agreed to redisplay, and a
// card is kept only when the buyer ticked the Payment Element's save box.
import type { RunningStripeEmulator } from '@pluma/emulators/stripe/index';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentCustomers, purchases } from '../../db/schema';
import { seedPaymentMethods } from '../appconfig/seed';
import { buildProduct, buildUser, type BuiltUser } from '../../test/factories';
import { deliverStripeEvent, startStripeTestApp } from '../../test/stripe-test-app';
import { createTestApp, type TestApp } from '../../test/test-app';

const SECRET_KEY = 'sk_test_pluma_sessions_0123456789';
const WEBHOOK_SECRET = 'whsec_pluma_sessions_test_secret';

interface StoredSession {
  id: string;
  object: string;
  created: number;
  livemode: false;
  client_secret: string;
  customer: string;
  components: { payment_element: { enabled: boolean; features: Record<string, unknown> } };
}

describe('Stripe customer sessions for the Payment Element', () => {
  let emulator: RunningStripeEmulator;
  let stripe: Stripe;
  let t: TestApp;

  beforeAll(async () => {
    ({ emulator, stripe, t } = await startStripeTestApp({ secretKey: SECRET_KEY, publishableKey: 'pk_test_pluma_sessions', webhookSecret: WEBHOOK_SECRET }));
    await seedPaymentMethods(t.ctx);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await emulator?.close();
  });

  const openSession = (who: BuiltUser | null) => t.app.inject({ method: 'POST', url: '/api/checkout/customer_session', headers: who?.auth ?? {} });
  const customerOf = async (who: BuiltUser) =>
    (await t.ctx.db.select().from(paymentCustomers).where(eq(paymentCustomers.userId, who.user.userId))).map((row) => row.customerId);
  /** The session Stripe holds for a client secret (which customer it reads, with which features). */
  const storedSession = (clientSecret: string) =>
    emulator.core.ctx.store.all<StoredSession>('customer_session', (s) => s.client_secret === clientSecret)[0];
  /** What Stripe.js reads with the session's client secret and the publishable key: the cards it redisplays. */
  const redisplayed = async (clientSecret: string) => {
    const url = new URL('/v1/elements/sessions', emulator.origin);
    url.searchParams.set('key', 'pk_test_pluma_sessions');
    url.searchParams.set('customer_session_client_secret', clientSecret);
    const body = (await (await fetch(url)).json()) as { customer: { payment_methods: { id: string }[] } };
    return body.customer.payment_methods.map((pm) => pm.id);
  };
  const deliverAbout = async (id: string) => {
    const list = await stripe.events.list({ limit: 100 });
    for (const event of list.data.filter((e) => (e.data.object as { id?: string }).id === id).reverse()) {
      expect((await deliverStripeEvent(t, event, WEBHOOK_SECRET)).statusCode).toBe(200);
    }
  };

  it('needs a signed-in user; gives exactly the client secret and its expiry, never cached', async () => {
    expect((await openSession(null)).statusCode).toBe(401);
    const buyer = await buildUser(t.ctx);
    const res = await openSession(buyer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json() as { customerSessionClientSecret: string; expiresAt: string };
    expect(Object.keys(body).sort()).toEqual(['customerSessionClientSecret', 'expiresAt']);
    expect(body.customerSessionClientSecret).toMatch(/^cuss_secret_/);
    const minutes = (Date.parse(body.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(25);
    expect(minutes).toBeLessThanOrEqual(30);
  });

  it("creates the buyer's Stripe customer once, and each call a new session of that customer with the documented features", async () => {
    const buyer = await buildUser(t.ctx);
    expect(await customerOf(buyer)).toEqual([]);
    const first = (await openSession(buyer)).json() as { customerSessionClientSecret: string };
    const [customer] = await customerOf(buyer);
    expect(customer).toMatch(/^cus_/);
    const second = (await openSession(buyer)).json() as { customerSessionClientSecret: string };
    expect(await customerOf(buyer)).toEqual([customer]);
    expect(second.customerSessionClientSecret).not.toBe(first.customerSessionClientSecret);
    const stored = storedSession(second.customerSessionClientSecret);
    expect(stored.customer).toBe(customer);
    expect(stored.components.payment_element).toEqual({
      enabled: true,
      features: {
        payment_method_redisplay: 'enabled',
        payment_method_allow_redisplay_filters: ['always'],
        payment_method_redisplay_limit: 3,
        payment_method_save: 'enabled',
        payment_method_save_usage: 'off_session',
        payment_method_remove: 'disabled',
      },
    });
  });

  it("never gives a session of someone else's customer: each user's session shows only their own cards", async () => {
    const ana = await buildUser(t.ctx);
    const ben = await buildUser(t.ctx);
    const anaSession = (await openSession(ana)).json() as { customerSessionClientSecret: string };
    const benSession = (await openSession(ben)).json() as { customerSessionClientSecret: string };
    const [anaCustomer] = await customerOf(ana);
    const [benCustomer] = await customerOf(ben);
    expect(anaCustomer).not.toBe(benCustomer);
    expect(storedSession(benSession.customerSessionClientSecret).customer).toBe(benCustomer);
    const card = await stripe.paymentMethods.create({ type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' }, allow_redisplay: 'always' });
    await stripe.paymentMethods.attach(card.id, { customer: anaCustomer });
    expect(await redisplayed(anaSession.customerSessionClientSecret)).toEqual([card.id]);
    expect(await redisplayed(benSession.customerSessionClientSecret)).toEqual([]);
  });

  it('keeps and redisplays a card paid at checkout only when the buyer ticked the save box', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { price: 12, wordAmount: 100 });
    await openSession(buyer);
    /** A one-time purchase paid as the Payment Element confirms it: the box ticked or not (stripe-js.browser.js). */
    const buy = async (number: string, ticked: boolean) => {
      const attempt = await t.app.inject({ method: 'POST', url: '/api/checkout/attempt', headers: buyer.auth, payload: { product_id: product.productId } });
      expect(attempt.statusCode, attempt.body).toBe(200);
      const { clientSecret } = attempt.json() as { clientSecret: string };
      const intentId = clientSecret.split('_secret_')[0];
      expect((await stripe.paymentIntents.retrieve(intentId)).setup_future_usage).toBeNull();
      // Raw card data is what Stripe.js sends (the SDK's types leave it out for servers).
      const confirmation = {
        payment_method_data: { type: 'card', card: { number, exp_month: 12, exp_year: 2034, cvc: '123' }, allow_redisplay: ticked ? 'always' : 'limited' },
        ...(ticked ? { setup_future_usage: 'off_session' } : {}),
      } as unknown as Stripe.PaymentIntentConfirmParams;
      const paid = await stripe.paymentIntents.confirm(intentId, confirmation);
      expect(paid.status).toBe('succeeded');
      await deliverAbout(intentId);
      return paid.payment_method as string;
    };
    const notKept = await buy('5555555555554444', false);
    const kept = await buy('4242424242424242', true);
    const rows = await t.ctx.db.select().from(purchases).where(eq(purchases.userId, buyer.user.userId));
    expect(rows.map((row) => row.status)).toEqual(['completed', 'completed']);
    expect((await stripe.paymentMethods.retrieve(notKept)).customer).toBeNull();
    const sources = (await t.app.inject({ method: 'GET', url: '/api/payment_sources', headers: buyer.auth })).json() as { payment_source_id: string }[];
    expect(sources.map((s) => s.payment_source_id)).toEqual([kept]);
    const session = (await openSession(buyer)).json() as { customerSessionClientSecret: string };
    expect(await redisplayed(session.customerSessionClientSecret)).toEqual([kept]);
  });
});

describe('customer sessions without payments configured, or with Stripe unreachable', () => {
  let unconfigured: TestApp;
  let unreachable: TestApp;
  beforeAll(async () => {
    unconfigured = await createTestApp();
    // Nothing listens on port 9 (discard): every Stripe call fails to connect.
    unreachable = await createTestApp({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_API_HOST: '127.0.0.1', STRIPE_API_PORT: '9', STRIPE_API_PROTOCOL: 'http' });
  }, 60_000);
  afterAll(async () => {
    await unconfigured?.close();
    await unreachable?.close();
  });

  it('says payments are not configured (409, translated) and creates no customer', async () => {
    const buyer = await buildUser(unconfigured.ctx, { lang: 'es' });
    const res = await unconfigured.app.inject({ method: 'POST', url: '/api/checkout/customer_session', headers: { ...buyer.auth, 'accept-language': 'es' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'payments_not_configured', message: expect.stringContaining('pagos') });
    expect(await unconfigured.ctx.db.select().from(paymentCustomers).where(eq(paymentCustomers.userId, buyer.user.userId))).toHaveLength(0);
  });

  it('answers 502 when Stripe cannot be reached, and stores nothing', async () => {
    const buyer = await buildUser(unreachable.ctx);
    const res = await unreachable.app.inject({ method: 'POST', url: '/api/checkout/customer_session', headers: buyer.auth });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ error: 'payments_provider_error', provider: 'stripe' });
    expect(await unreachable.ctx.db.select().from(paymentCustomers).where(eq(paymentCustomers.userId, buyer.user.userId))).toHaveLength(0);
  }, 30_000);
});
