// Switching plans across providers (issue 10 item 7: never two live subscriptions billing the same user),
// through the real app listening on a port, with the Stripe and PayPal emulators delivering their signed
// webhooks to it (verified for real), on PGlite and PostgreSQL (TEST_DB): Stripe → PayPal, PayPal →
// PayPal and PayPal → Stripe; a provider cancel that failed (or never ran) is retried by the sweep; concurrent
// activations through both providers leave exactly one live plan, here and at the providers.
import { startPayPalEmulator, type RunningPayPalEmulator } from '@pluma/emulators/paypal/index';
import { startStripeEmulator, type RunningStripeEmulator } from '@pluma/emulators/stripe/index';
import { purchaseGivesAccess } from '@pluma/common/rules/purchase-expiry';
import { Client, SubscriptionsController } from '@paypal/paypal-server-sdk';
import { and, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentCustomers, paymentEvents, purchases, users } from '../../db/schema';
import { buildProduct, buildUser, type BuiltUser } from '../../test/factories';
import { stripeEmulatorEnv } from '../../test/stripe-test-app';
import { createTestApp, type TestApp } from '../../test/test-app';
import { seedPaymentMethods } from '../appconfig/seed';
import { PLAN_SWITCH_CANCEL, retryPlanSwitchCancels } from '../purchase-lifecycle';
import { applyPayPalSubscription } from './fulfil';

const STRIPE_KEY = 'sk_test_pluma_switch_0123456789';
const STRIPE_WEBHOOK_SECRET = 'whsec_pluma_switch_test_secret';
const PAYPAL_ID = 'pluma-switch-client';
const PAYPAL_SECRET = 'pluma-switch-secret';
const PAYPAL_WEBHOOK_ID = 'WH-PLUMA-SWITCH-0001';
const quietLog = { info: () => {}, warn: () => {}, error: () => {} };

describe('switching plans across Stripe and PayPal', () => {
  let stripeEmulator: RunningStripeEmulator;
  let paypalEmulator: RunningPayPalEmulator;
  let stripe: Stripe;
  let paypalSubscriptions: SubscriptionsController;
  let t: TestApp;

  beforeAll(async () => {
    stripeEmulator = await startStripeEmulator({ apiKey: STRIPE_KEY });
    paypalEmulator = await startPayPalEmulator({ clientId: PAYPAL_ID, clientSecret: PAYPAL_SECRET, delivery: { retryBaseMs: 5 } });
    stripe = new Stripe(STRIPE_KEY, { ...stripeEmulator.sdkOptions, maxNetworkRetries: 0 });
    paypalSubscriptions = new SubscriptionsController(new Client({ clientCredentialsAuthCredentials: { oAuthClientId: PAYPAL_ID, oAuthClientSecret: PAYPAL_SECRET }, ...paypalEmulator.sdkOptions }));
    t = await createTestApp({
      ...stripeEmulatorEnv(stripeEmulator, { secretKey: STRIPE_KEY, publishableKey: 'pk_test_pluma_switch', webhookSecret: STRIPE_WEBHOOK_SECRET }),
      PAYPAL_CLIENT_ID: PAYPAL_ID,
      PAYPAL_CLIENT_SECRET: PAYPAL_SECRET,
      PAYPAL_WEBHOOK_ID,
      PAYPAL_ENVIRONMENT: 'sandbox',
      PAYPAL_API_URL: paypalEmulator.origin,
    });
    await seedPaymentMethods(t.ctx);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    stripeEmulator.webhooks.addEndpoint({ url: `http://127.0.0.1:${port}/api/stripe/webhook`, secret: STRIPE_WEBHOOK_SECRET });
    paypalEmulator.webhooks.addEndpoint({ url: `http://127.0.0.1:${port}/api/paypal/webhook`, id: PAYPAL_WEBHOOK_ID });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await stripeEmulator?.close();
    await paypalEmulator?.close();
  });

  const call = (who: BuiltUser, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
  const purchaseRow = async (purchaseId: number) => (await t.ctx.db.select().from(purchases).where(eq(purchases.purchaseId, purchaseId)))[0];
  const activePurchasesOf = (who: BuiltUser) => t.ctx.db.select().from(purchases).where(and(eq(purchases.userId, who.user.userId), eq(purchases.status, 'active')));
  const settle = async () => {
    // A delivery can start another provider call after the commit (the switch's cancel, which sends events of its own).
    for (let i = 0; i < 3; i++) await Promise.all([stripeEmulator.webhooks.flush(), paypalEmulator.webhooks.flush()]);
  };
  const payPalStatus = async (id: string) => (await paypalSubscriptions.getSubscription({ id })).result.status;
  const markerOf = async (subscriptionId: string) =>
    (await t.ctx.db.select().from(paymentEvents).where(and(eq(paymentEvents.type, PLAN_SWITCH_CANCEL), eq(paymentEvents.eventId, `pluma:plan_switch_cancel:${subscriptionId}`))))[0];
  const subscriptionProduct = (price: number, words: number) =>
    buildProduct(t.ctx, { price, isSubscription: true, subscriptionPeriod: 'month', subscriptionInterval: 1, wordAmount: words, expirationDays: null });

  /** A saved card (as the page saves one: a SetupIntent Stripe.js confirms). */
  const saveCard = async (who: BuiltUser) => {
    const { clientSecret } = (await call(who, 'POST', '/api/payment_sources')).json() as { clientSecret: string };
    const setup = await stripe.setupIntents.confirm(clientSecret.split('_secret_')[0], { payment_method: 'pm_card_visa' });
    return setup.payment_method as string;
  };
  /** Starts a Stripe plan paid with the saved card (charged at once); live once its webhooks arrive. */
  const startStripePlan = async (who: BuiltUser, productId: number, card: string) => {
    const res = await call(who, 'POST', '/api/checkout', { product_id: productId, payment_source_id: card });
    expect(res.statusCode, res.body).toBe(200);
    return purchaseRow((res.json() as { purchase_id: number }).purchase_id);
  };
  /** Starts a PayPal plan and the buyer approves it in PayPal's window; live once its webhooks arrive. */
  const startPayPalPlan = async (who: BuiltUser, productId: number) => {
    const res = await call(who, 'POST', '/api/paypal/subscriptions', { product_id: productId });
    expect(res.statusCode, res.body).toBe(200);
    const { subscription_id, purchase_id } = res.json() as { subscription_id: string; purchase_id: number };
    paypalEmulator.control.approveSubscription(subscription_id);
    return { subscriptionId: subscription_id, purchaseId: purchase_id };
  };
  const hasAccess = async (who: BuiltUser) => ((await call(who, 'GET', '/api/users')).json() as { has_access: boolean }).has_access;

  it('Stripe → PayPal → PayPal → Stripe: each new plan, once live, cancels the old one at its provider; one live plan throughout', async () => {
    const buyer = await buildUser(t.ctx);
    const [basic, pro, team, max] = [await subscriptionProduct(10, 1000), await subscriptionProduct(20, 2000), await subscriptionProduct(30, 3000), await subscriptionProduct(40, 4000)];
    const card = await saveCard(buyer);

    // 1. A Stripe plan, live.
    const stripePlan = await startStripePlan(buyer, basic.productId, card);
    await settle();
    expect((await purchaseRow(stripePlan.purchaseId)).status).toBe('active');

    // 2. A PayPal plan while it is live: allowed (a switch), and until PayPal activates it the Stripe plan stays.
    const paypalA = await call(buyer, 'POST', '/api/paypal/subscriptions', { product_id: pro.productId });
    expect(paypalA.statusCode, paypalA.body).toBe(200);
    const a = paypalA.json() as { subscription_id: string; purchase_id: number };
    expect((await purchaseRow(stripePlan.purchaseId)).status).toBe('active');
    paypalEmulator.control.approveSubscription(a.subscription_id);
    await settle();
    expect((await purchaseRow(a.purchase_id)).status).toBe('active');
    const switchedFromStripe = await purchaseRow(stripePlan.purchaseId);
    // The switch, not a customer's cancel: no reason, and no access from it any more.
    expect(switchedFromStripe).toMatchObject({ status: 'cancelled', cancelReason: null });
    expect(purchaseGivesAccess(switchedFromStripe, new Date())).toBe(false);
    expect((await stripe.subscriptions.retrieve(stripePlan.subscriptionId!)).status).toBe('canceled');
    expect((await markerOf(stripePlan.subscriptionId!)).processedAt).not.toBeNull();
    expect((await activePurchasesOf(buyer)).map((p) => p.purchaseId)).toEqual([a.purchase_id]);
    expect(await hasAccess(buyer)).toBe(true);

    // 3. Another PayPal plan: the first PayPal subscription is cancelled at PayPal.
    const b = await startPayPalPlan(buyer, team.productId);
    await settle();
    expect((await purchaseRow(b.purchaseId)).status).toBe('active');
    expect(await purchaseRow(a.purchase_id)).toMatchObject({ status: 'cancelled', cancelReason: null });
    expect(await payPalStatus(a.subscription_id)).toBe('CANCELLED');
    expect((await markerOf(a.subscription_id)).processedAt).not.toBeNull();
    expect((await activePurchasesOf(buyer)).map((p) => p.purchaseId)).toEqual([b.purchaseId]);

    // 4. Back to Stripe: the PayPal subscription is cancelled at PayPal; PayPal's CANCELLED event changes nothing more.
    const stripeAgain = await startStripePlan(buyer, max.productId, card);
    await settle();
    expect((await purchaseRow(stripeAgain.purchaseId)).status).toBe('active');
    const switchedFromPayPal = await purchaseRow(b.purchaseId);
    expect(switchedFromPayPal).toMatchObject({ status: 'cancelled', cancelReason: null });
    expect(await payPalStatus(b.subscriptionId)).toBe('CANCELLED');
    expect((await activePurchasesOf(buyer)).map((p) => p.purchaseId)).toEqual([stripeAgain.purchaseId]);
    expect(await hasAccess(buyer)).toBe(true);
    // Only the last plan still bills: one live Stripe subscription, no live PayPal one.
    const [customer] = await t.ctx.db.select().from(paymentCustomers).where(eq(paymentCustomers.userId, buyer.user.userId));
    expect((await stripe.subscriptions.list({ customer: customer.customerId })).data.map((s) => s.id)).toEqual([stripeAgain.subscriptionId]);
    for (const id of [a.subscription_id, b.subscriptionId]) expect(await payPalStatus(id)).toBe('CANCELLED');
    // Each plan's words were granted once.
    expect((await t.ctx.db.select({ w: users.availableWords }).from(users).where(eq(users.userId, buyer.user.userId)))[0].w).toBe(10_000);
  });

  it('a PayPal cancel that failed after the switch stays due and is retried by the sweep until PayPal has cancelled it', async () => {
    const buyer = await buildUser(t.ctx);
    const [first, second] = [await subscriptionProduct(11, 100), await subscriptionProduct(12, 200)];
    const old = await startPayPalPlan(buyer, first.productId);
    await settle();
    expect((await purchaseRow(old.purchaseId)).status).toBe('active');

    // PayPal fails the cancel the switch makes after its commit.
    paypalEmulator.control.failNext(503, 1, `POST /v1/billing/subscriptions/${old.subscriptionId}/cancel`);
    const next = await startPayPalPlan(buyer, second.productId);
    await settle();
    expect((await purchaseRow(next.purchaseId)).status).toBe('active');
    expect(await purchaseRow(old.purchaseId)).toMatchObject({ status: 'cancelled', cancelReason: null });
    expect(await payPalStatus(old.subscriptionId)).toBe('ACTIVE');
    expect((await markerOf(old.subscriptionId)).processedAt).toBeNull();

    // Not yet a minute old: the sweep leaves it to the call after the commit.
    expect(await retryPlanSwitchCancels(t.ctx, quietLog)).toBe(0);
    // Once due, the sweep cancels it at PayPal and marks it done; a second sweep has nothing to do.
    expect(await retryPlanSwitchCancels(t.ctx, quietLog, { afterMs: 0 })).toBe(1);
    expect(await payPalStatus(old.subscriptionId)).toBe('CANCELLED');
    expect((await markerOf(old.subscriptionId)).processedAt).not.toBeNull();
    expect(await retryPlanSwitchCancels(t.ctx, quietLog, { afterMs: 0 })).toBe(0);
    await settle();
    // PayPal's CANCELLED event leaves the switch as it was.
    expect(await purchaseRow(old.purchaseId)).toMatchObject({ status: 'cancelled', cancelReason: null });
    expect((await activePurchasesOf(buyer)).map((p) => p.purchaseId)).toEqual([next.purchaseId]);
  });

  it("a process that stopped between the switch's commit and the Stripe cancel: the sweep cancels the old Stripe plan", async () => {
    const buyer = await buildUser(t.ctx);
    const [basic, pro] = [await subscriptionProduct(15, 150), await subscriptionProduct(16, 160)];
    const card = await saveCard(buyer);
    const stripePlan = await startStripePlan(buyer, basic.productId, card);
    await settle();
    expect((await purchaseRow(stripePlan.purchaseId)).status).toBe('active');

    // PayPal's activation applied as the webhook applies it, but its after-commit work never runs.
    paypalEmulator.webhooks.configure({ hold: true });
    try {
      const paypalPlan = await startPayPalPlan(buyer, pro.productId);
      const { result: subscription } = await paypalSubscriptions.getSubscription({ id: paypalPlan.subscriptionId });
      const effects = await t.ctx.db.transaction((tx) => applyPayPalSubscription(tx, subscription, null));
      expect(effects.filter((e) => e.kind === 'superseded').map((e) => e.subscriptionId)).toEqual([stripePlan.subscriptionId]);
    } finally {
      paypalEmulator.webhooks.configure({ hold: false });
      paypalEmulator.webhooks.release();
    }
    expect(await purchaseRow(stripePlan.purchaseId)).toMatchObject({ status: 'cancelled', cancelReason: null });
    expect((await stripe.subscriptions.retrieve(stripePlan.subscriptionId!)).status).toBe('active');
    expect((await markerOf(stripePlan.subscriptionId!)).processedAt).toBeNull();

    expect(await retryPlanSwitchCancels(t.ctx, quietLog, { afterMs: 0 })).toBe(1);
    expect((await stripe.subscriptions.retrieve(stripePlan.subscriptionId!)).status).toBe('canceled');
    expect((await markerOf(stripePlan.subscriptionId!)).processedAt).not.toBeNull();
    await settle();
    expect((await activePurchasesOf(buyer)).map((p) => p.subscriptionId)).toHaveLength(1);
    expect(await purchaseRow(stripePlan.purchaseId)).toMatchObject({ status: 'cancelled', cancelReason: null });
  });

  it('a Stripe plan and a PayPal plan activated at the same moment leave exactly one live plan, here and at the providers', async () => {
    const buyer = await buildUser(t.ctx);
    const [viaStripe, viaPayPal] = [await subscriptionProduct(13, 300), await subscriptionProduct(14, 400)];
    const card = await saveCard(buyer);
    stripeEmulator.webhooks.configure({ hold: true });
    paypalEmulator.webhooks.configure({ hold: true });
    try {
      const stripePlan = await startStripePlan(buyer, viaStripe.productId, card);
      const paypalPlan = await startPayPalPlan(buyer, viaPayPal.productId);
      stripeEmulator.webhooks.configure({ hold: false });
      paypalEmulator.webhooks.configure({ hold: false });
      // Both providers' activations reach the app together.
      expect(stripeEmulator.webhooks.release() + paypalEmulator.webhooks.release()).toBeGreaterThan(1);
      await settle();

      const rows = await Promise.all([purchaseRow(stripePlan.purchaseId), purchaseRow(paypalPlan.purchaseId)]);
      expect(rows.map((r) => r.status).sort()).toEqual(['active', 'cancelled']);
      const live = rows.find((r) => r.status === 'active')!;
      const [customer] = await t.ctx.db.select().from(paymentCustomers).where(eq(paymentCustomers.userId, buyer.user.userId));
      const liveAtStripe = (await stripe.subscriptions.list({ customer: customer.customerId })).data.map((s) => s.id);
      const liveAtPayPal = (await payPalStatus(paypalPlan.subscriptionId)) === 'ACTIVE' ? [paypalPlan.subscriptionId] : [];
      expect([...liveAtStripe, ...liveAtPayPal]).toEqual([live.subscriptionId]);
      expect(await hasAccess(buyer)).toBe(true);
    } finally {
      stripeEmulator.webhooks.configure({ hold: false });
      paypalEmulator.webhooks.configure({ hold: false });
    }
  });
});
