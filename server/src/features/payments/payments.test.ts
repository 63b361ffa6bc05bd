// Checkout and Stripe webhooks through the real app, against the Stripe emulator (the official SDK pointed
// at it with STRIPE_API_HOST/PORT/PROTOCOL), on PGlite and PostgreSQL (TEST_DB). Webhooks are delivered
// the way Stripe does: the event's JSON, signed with Stripe's scheme (signPayload), as one raw body.
import { signPayload, type RunningStripeEmulator } from '@pluma/emulators/stripe/index';
import { and, count, eq, like } from 'drizzle-orm';
import Stripe from 'stripe';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, discounts, invoices, mailOutbox, organizations, paymentEvents, purchases, users } from '../../db/schema';
import { encryptSecret } from '../../platform/crypto/secret-box';
import { buildDiscount, buildOrganization, buildProduct, buildPurchase, buildUser, type BuiltUser } from '../../test/factories';
import { startStripeTestApp } from '../../test/stripe-test-app';
import { createTestApp, type TestApp } from '../../test/test-app';
import { ABANDONED_ATTEMPT_AFTER_MS, applyLifecycleEvent, expireAbandonedAttempts, LIFECYCLE_EVENTS, lockPurchaseById, PURCHASE_STATES, REFUND_DUE, retryDueRefunds, TRANSITIONS } from '../purchase-lifecycle';
import { purchaseStatusFor } from './fulfil';
import { reconcilePendingPurchases } from './reconcile';
import { stripeSettingsChanged } from './stripe-client';

const SECRET_KEY = 'sk_test_pluma_payments_0123456789';
const WEBHOOK_SECRET = 'whsec_pluma_payments_test_secret';
const quietLog = { info: () => {}, warn: () => {}, error: () => {} };

describe('Stripe checkout and webhooks', () => {
  let emulator: RunningStripeEmulator;
  let stripe: Stripe;
  let t: TestApp;
  /** The products' lead-connector endpoint: every body it got. */
  let leads: Server;
  const leadBodies: Record<string, unknown>[] = [];
  let leadUrl = '';

  beforeAll(async () => {
    leads = createServer((req, res) => {
      let data = '';
      req.on('data', (c: Buffer) => (data += c.toString('utf8')));
      req.on('end', () => {
        leadBodies.push(JSON.parse(data) as Record<string, unknown>);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => leads.listen(0, '127.0.0.1', resolve));
    leadUrl = `http://127.0.0.1:${(leads.address() as AddressInfo).port}/lead`;
    ({ emulator, stripe, t } = await startStripeTestApp({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET }, { OUTBOUND_ALLOW_HOSTS: '127.0.0.1' }));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await emulator?.close();
    await new Promise<void>((resolve) => leads?.close(() => resolve()));
  });

  const attempt = (who: BuiltUser, body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/checkout/attempt', headers: who.auth, payload: body });
  const get = (who: BuiltUser, url: string) => t.app.inject({ url, headers: who.auth });

  /** Delivers `payload` signed as Stripe would (or as told: another secret, another time, another body). */
  const deliver = (payload: string, options: { secret?: string; at?: number; signedBody?: string; header?: string | null } = {}) => {
    const header = options.header === undefined ? signPayload(options.signedBody ?? payload, options.secret ?? WEBHOOK_SECRET, options.at) : options.header;
    return t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json; charset=utf-8', ...(header === null ? {} : { 'stripe-signature': header }) },
      payload,
    });
  };

  /** The emulator's events of `type` about the object `id`, oldest first. */
  const eventsAbout = async (type: string, id: string): Promise<Stripe.Event[]> => {
    const list = await stripe.events.list({ type, limit: 100 });
    return list.data.filter((e) => (e.data.object as { id?: string }).id === id).reverse();
  };
  const eventAbout = async (type: string, id: string) => {
    const [event] = await eventsAbout(type, id);
    expect(event, `${type} for ${id}`).toBeTruthy();
    return event;
  };

  const purchaseRow = async (purchaseId: number) => (await t.ctx.db.select().from(purchases).where(eq(purchases.purchaseId, purchaseId)))[0];
  const invoicesOf = (purchaseId: number) => t.ctx.db.select().from(invoices).where(eq(invoices.purchaseId, purchaseId));
  const grantsOf = (purchaseId: number) =>
    t.ctx.db.select().from(creditLedger).where(and(eq(creditLedger.sourceType, 'purchase'), like(creditLedger.sourceId, `${purchaseId}%`)));
  const wordsOf = async (userId: number) => (await t.ctx.db.select({ w: users.availableWords }).from(users).where(eq(users.userId, userId)))[0].w;
  const eventRows = async () => (await t.ctx.db.select({ n: count() }).from(paymentEvents))[0].n;

  it('one-time: the server prices it (sale price, discount), Stripe charges exactly that, and 50 concurrent deliveries fulfil once', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { price: 19.99, salePrice: 15, wordAmount: 2500, expirationDays: 30, webhookUrl: leadUrl, productSku: 'SKU-ONE' });
    const discount = await buildDiscount(t.ctx, { isPercent: true, amount: 10, productId: product.productId });

    // The client sends no price: extra fields (a price, an amount) are ignored.
    const res = await attempt(buyer, { product_id: product.productId, discountCode: discount.code, price: 0.01, amount: 1, total_payment: 0 });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { purchase_id: number; kind: string; clientSecret: string; total_payment: number };
    expect(body).toMatchObject({ kind: 'payment', total_payment: 13.5 });
    const pending = await purchaseRow(body.purchase_id);
    expect(pending).toMatchObject({ status: 'pending', userId: buyer.user.userId, amount: 15, totalPayment: 13.5, discountCode: discount.code });
    const intent = await stripe.paymentIntents.retrieve(pending.paymentProcessorId!);
    expect(intent.client_secret).toBe(body.clientSecret);
    expect(intent.amount).toBe(1350);
    expect(intent.currency).toBe('usd');
    expect(intent.metadata).toMatchObject({ purchase_id: String(body.purchase_id), user_id: String(buyer.user.userId) });
    // The thank-you page polls it: pending until Stripe says paid.
    expect((await get(buyer, `/api/purchases/${body.purchase_id}`)).json()).toMatchObject({ status: 'pending', total_payment: 13.5 });

    await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
    const event = await eventAbout('payment_intent.succeeded', intent.id);
    const payload = JSON.stringify(event);
    const before = await eventRows();
    const answers = await Promise.all(Array.from({ length: 50 }, () => deliver(payload)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(200));
    expect(answers.filter((a) => a.json().duplicate === false)).toHaveLength(1);

    expect(await eventRows()).toBe(before + 1);
    expect(await purchaseRow(body.purchase_id)).toMatchObject({ status: 'completed' });
    const recorded = await invoicesOf(body.purchase_id);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ orderId: intent.id, amount: 13.5, status: 'completed', userId: buyer.user.userId });
    expect(await grantsOf(body.purchase_id)).toHaveLength(1);
    expect(await wordsOf(buyer.user.userId)).toBe(2500);
    expect((await t.ctx.db.select().from(discounts).where(eq(discounts.discountId, discount.discountId)))[0].redemptions).toBe(1);
    const mails = await t.ctx.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, buyer.user.email.toLowerCase()), eq(mailOutbox.kind, 'receipt')));
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('13.50');
    // The product's lead connector heard of it once, with its SKU.
    const lead = leadBodies.filter((b) => b.purchase_id === body.purchase_id);
    expect(lead).toEqual([expect.objectContaining({ event: 'purchase', product_sku: 'SKU-ONE', email: buyer.user.email, amount: 13.5 })]);

    // Own lists and the single purchase; another customer gets 404 for it.
    const mine = await get(buyer, `/api/purchases/${body.purchase_id}`);
    expect(mine.json()).toMatchObject({ purchase_id: body.purchase_id, status: 'completed', product: { name: product.name }, discount: { code: discount.code } });
    expect((await get(buyer, '/api/purchases')).json().map((p: { purchase_id: number }) => p.purchase_id)).toContain(body.purchase_id);
    expect((await get(buyer, '/api/invoices/')).json()).toEqual([expect.objectContaining({ purchase_id: body.purchase_id, order_id: intent.id, total_payment: 13.5 })]);
    const stranger = await buildUser(t.ctx);
    expect((await get(stranger, `/api/purchases/${body.purchase_id}`)).statusCode).toBe(404);
    expect((await get(stranger, '/api/purchases')).json()).toEqual([]);
    expect((await get(stranger, '/api/invoices/')).json()).toEqual([]);
    // access shows at once (cached actors dropped)
    expect((await get(buyer, '/api/users')).json()).toMatchObject({ has_access: true, available_words: 2500 });
  });

  it('refuses deliveries that are not signed right (tampered body, wrong secret, stale, missing) with 400 and writes nothing', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { price: 5, wordAmount: 100 });
    const { purchase_id } = (await attempt(buyer, { product_id: product.productId })).json() as { purchase_id: number };
    const intentId = (await purchaseRow(purchase_id)).paymentProcessorId!;
    await stripe.paymentIntents.confirm(intentId, { payment_method: 'pm_card_visa' });
    const payload = JSON.stringify(await eventAbout('payment_intent.succeeded', intentId));
    const before = await eventRows();

    const tampered = payload.replace('"amount":500', '"amount":1');
    expect(tampered).not.toBe(payload);
    const refusals = [
      await deliver(tampered, { signedBody: payload }),
      await deliver(payload, { secret: 'whsec_someone_else' }),
      await deliver(payload, { at: Math.floor(Date.now() / 1000) - 3600 }),
      await deliver(payload, { header: null }),
      await deliver(payload, { header: 'garbage' }),
      await deliver('', {}),
    ];
    for (const r of refusals) {
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().error).toBe('payments_webhook_signature_invalid');
    }
    expect(await eventRows()).toBe(before);
    expect(await purchaseRow(purchase_id)).toMatchObject({ status: 'pending' });
    expect(await grantsOf(purchase_id)).toHaveLength(0);

    // An event we do not handle is stored and answered 2xx.
    const unknown = JSON.stringify({ id: `evt_unknown_${Date.now()}`, object: 'event', type: 'charge.dispute.created', data: { object: { id: 'dp_1' } }, created: 1, livemode: false });
    const ok = await deliver(unknown);
    expect(ok.statusCode).toBe(200);
    expect(await eventRows()).toBe(before + 1);
  });

  it('subscription with a trial: a SetupIntent to confirm, the trial words on activation, renewals and Stripe revocations', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, {
      price: 30, isSubscription: true, subscriptionPeriod: 'month', subscriptionInterval: 1, freeTrialPeriod: 'days', freeTrialLength: 7,
      freeTrialWords: 500, wordAmount: 5000, expirationDays: null,
    });
    const res = await attempt(buyer, { product_id: product.productId });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { purchase_id: number; kind: string; clientSecret: string; total_payment: number };
    expect(body).toMatchObject({ kind: 'setup', total_payment: 0 });
    expect(body.clientSecret).toMatch(/^seti_/);
    const pending = await purchaseRow(body.purchase_id);
    expect(pending).toMatchObject({ status: 'pending', freeTrialLength: 7, subscriptionPeriod: 'month', subscriptionInterval: 1 });
    const subscription = await stripe.subscriptions.retrieve(pending.subscriptionId!);
    expect(subscription.status).toBe('trialing');
    expect(subscription.metadata).toMatchObject({ purchase_id: String(body.purchase_id) });
    expect(subscription.items.data[0].price.unit_amount).toBe(3000);
    expect(subscription.payment_settings?.save_default_payment_method).toBe('on_subscription');

    // Before the card is taken, the trial has not started.
    const created = await eventAbout('customer.subscription.created', subscription.id);
    expect((await deliver(JSON.stringify(created))).statusCode).toBe(200);
    expect((await purchaseRow(body.purchase_id)).status).toBe('pending');
    expect(await wordsOf(buyer.user.userId)).toBe(0);

    const setupIntentId = body.clientSecret.split('_secret_')[0];
    await stripe.setupIntents.confirm(setupIntentId, { payment_method: 'pm_card_visa' });
    const [updated] = await eventsAbout('customer.subscription.updated', subscription.id);
    expect((await deliver(JSON.stringify(updated))).statusCode).toBe(200);
    const active = await purchaseRow(body.purchase_id);
    expect(active.status).toBe('active');
    expect(active.expirationDays).toBe(7);
    expect(await wordsOf(buyer.user.userId)).toBe(500);
    expect(await grantsOf(body.purchase_id)).toHaveLength(1);

    // The trial ends and the first paid period is billed: its words once, however often it is delivered.
    emulator.control.endTrial(subscription.id);
    const renewal = (await stripe.subscriptions.retrieve(subscription.id)).latest_invoice as string;
    const paid = JSON.stringify(await eventAbout('invoice.paid', renewal));
    for (let i = 0; i < 3; i++) expect((await deliver(paid)).statusCode).toBe(200);
    expect(await wordsOf(buyer.user.userId)).toBe(5500);
    expect(await grantsOf(body.purchase_id)).toHaveLength(2);
    expect((await invoicesOf(body.purchase_id)).map((i) => i.amount).sort()).toEqual([0, 30]);
    expect((await purchaseRow(body.purchase_id)).status).toBe('active');

    // Stripe gives up on the card (unpaid): access goes; paid again: back.
    emulator.control.setSubscriptionStatus(subscription.id, 'unpaid');
    const [unpaid] = (await eventsAbout('customer.subscription.updated', subscription.id)).slice(-1);
    expect((await deliver(JSON.stringify(unpaid))).statusCode).toBe(200);
    expect((await purchaseRow(body.purchase_id)).status).toBe('revoked');
    expect((await get(buyer, '/api/users')).json()).toMatchObject({ has_access: false });
    emulator.control.setSubscriptionStatus(subscription.id, 'active');
    const [again] = (await eventsAbout('customer.subscription.updated', subscription.id)).slice(-1);
    expect((await deliver(JSON.stringify(again))).statusCode).toBe(200);
    expect((await purchaseRow(body.purchase_id)).status).toBe('active');
    expect(await grantsOf(body.purchase_id)).toHaveLength(2);

  });

  it('subscription.deleted delivered before the payment event ends cancelled, paid once, without access', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { price: 12, isSubscription: true, subscriptionPeriod: 'month', subscriptionInterval: 1, wordAmount: 3000, expirationDays: null });
    const res = await attempt(buyer, { product_id: product.productId });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { purchase_id: number; kind: string; clientSecret: string };
    expect(body.kind).toBe('payment');
    const subscriptionId = (await purchaseRow(body.purchase_id)).subscriptionId!;
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const invoiceId = subscription.latest_invoice as string;
    await stripe.invoices.pay(invoiceId, { payment_method: 'pm_card_visa' });
    await stripe.subscriptions.cancel(subscriptionId);

    const deleted = await eventAbout('customer.subscription.deleted', subscriptionId);
    const paid = await eventAbout('invoice.paid', invoiceId);
    expect((await deliver(JSON.stringify(deleted))).statusCode).toBe(200);
    expect((await deliver(JSON.stringify(paid))).statusCode).toBe(200);
    for (const e of await eventsAbout('customer.subscription.updated', subscriptionId)) expect((await deliver(JSON.stringify(e))).statusCode).toBe(200);

    const final = await purchaseRow(body.purchase_id);
    expect(final.status).toBe('cancelled');
    expect(final.cancelledAt).not.toBeNull();
    expect(await invoicesOf(body.purchase_id)).toHaveLength(1);
    expect(await grantsOf(body.purchase_id)).toHaveLength(1);
    expect((await get(buyer, '/api/users')).json()).toMatchObject({ has_access: false });
  });

  it('a lost webhook is repaired by the reconciliation sweep, through the same exactly-once path', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { price: 8, wordAmount: 800 });
    const { purchase_id } = (await attempt(buyer, { product_id: product.productId })).json() as { purchase_id: number };
    const intentId = (await purchaseRow(purchase_id)).paymentProcessorId!;
    await stripe.paymentIntents.confirm(intentId, { payment_method: 'pm_card_visa' });

    // Another provider's pending purchases (PayPal's I-… subscriptions and order ids) are not Stripe's to
    // read: the sweep never asks Stripe about them, so nothing is logged as failed.
    const paypalBuyer = await buildUser(t.ctx);
    await buildPurchase(t.ctx, { userId: paypalBuyer.user.userId, productId: product.productId, status: 'pending', subscriptionId: 'I-PAYPAL123' });
    await buildPurchase(t.ctx, { userId: paypalBuyer.user.userId, productId: product.productId, status: 'pending', paymentProcessorId: '5O190127TN364715T' });
    const warnings: unknown[] = [];
    const watchingLog = { ...quietLog, warn: (...args: unknown[]) => warnings.push(args) };

    // Not yet old enough for the sweep: untouched.
    await reconcilePendingPurchases(t.ctx, quietLog);
    expect((await purchaseRow(purchase_id)).status).toBe('pending');
    expect(await reconcilePendingPurchases(t.ctx, watchingLog, { afterMs: -60_000 })).toBeGreaterThanOrEqual(1);
    expect(warnings).toEqual([]);
    expect((await purchaseRow(purchase_id)).status).toBe('completed');
    // The webhook arriving late changes nothing more.
    expect((await deliver(JSON.stringify(await eventAbout('payment_intent.succeeded', intentId)))).statusCode).toBe(200);
    expect(await invoicesOf(purchase_id)).toHaveLength(1);
    expect(await grantsOf(purchase_id)).toHaveLength(1);
    expect(await wordsOf(buyer.user.userId)).toBe(800);
  });

  it("an organization's product is bought in its context; the purchase is seen there only; non-members get 404", async () => {
    const member = await buildUser(t.ctx);
    const outsider = await buildUser(t.ctx);
    const organization = await buildOrganization(t.ctx, [{ user: member, role: 'member' }]);
    const product = await buildProduct(t.ctx, { price: 4, organizationId: organization.organizationId });
    // Sold with the organization's own keys (organization-payments.test.ts): none saved yet is a 409.
    expect((await attempt(member, { product_id: product.productId, organization_id: organization.organizationId })).json().error).toBe('organization_payments_not_configured');
    await t.ctx.db
      .update(organizations)
      .set({ stripeSecretSealed: encryptSecret(t.ctx.env.APP_SECRET, SECRET_KEY) })
      .where(eq(organizations.organizationId, organization.organizationId));
    stripeSettingsChanged(t.ctx, organization.organizationId);
    expect((await attempt(member, { product_id: product.productId })).statusCode).toBe(404);
    expect((await attempt(outsider, { product_id: product.productId, organization_id: organization.organizationId })).statusCode).toBe(404);
    const res = await attempt(member, { product_id: product.productId, organization_id: organization.organizationId });
    expect(res.statusCode, res.body).toBe(200);
    const { purchase_id } = res.json() as { purchase_id: number };
    expect((await purchaseRow(purchase_id)).organizationId).toBe(organization.organizationId);
    expect((await get(member, `/api/purchases/${purchase_id}?organization_id=${organization.organizationId}`)).statusCode).toBe(200);
    expect((await get(member, `/api/purchases/${purchase_id}`)).statusCode).toBe(404);
  });

  it('a failed renewal keeps access while Stripe retries (past_due) and records no invoice', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { price: 7, isSubscription: true, subscriptionPeriod: 'month', subscriptionInterval: 1, wordAmount: 700, expirationDays: null });
    const body = (await attempt(buyer, { product_id: product.productId })).json() as { purchase_id: number };
    const subscriptionId = (await purchaseRow(body.purchase_id)).subscriptionId!;
    const first = (await stripe.subscriptions.retrieve(subscriptionId)).latest_invoice as string;
    await stripe.invoices.pay(first, { payment_method: 'pm_card_chargeCustomerFail' }).catch(() => null);
    // The first charge was declined: the attempt failed (issue 28), nothing granted; paid later, it goes live.
    expect((await deliver(JSON.stringify(await eventAbout('invoice.payment_failed', first)))).statusCode).toBe(200);
    expect((await purchaseRow(body.purchase_id)).status).toBe('failed');
    await stripe.invoices.pay(first, { payment_method: 'pm_card_visa' });
    expect((await deliver(JSON.stringify(await eventAbout('invoice.paid', first)))).statusCode).toBe(200);
    expect((await purchaseRow(body.purchase_id)).status).toBe('active');
    expect(await wordsOf(buyer.user.userId)).toBe(700);

    await stripe.subscriptions.update(subscriptionId, { default_payment_method: (await stripe.paymentMethods.attach('pm_card_chargeCustomerFail', { customer: (await stripe.subscriptions.retrieve(subscriptionId)).customer as string })).id });
    emulator.control.advanceSubscription(subscriptionId, { outcome: 'fail' });
    const renewal = (await stripe.subscriptions.retrieve(subscriptionId)).latest_invoice as string;
    expect(renewal).not.toBe(first);
    expect((await deliver(JSON.stringify(await eventAbout('invoice.payment_failed', renewal)))).statusCode).toBe(200);
    expect((await stripe.subscriptions.retrieve(subscriptionId)).status).toBe('past_due');
    expect((await purchaseRow(body.purchase_id)).status).toBe('active');
    expect(await invoicesOf(body.purchase_id)).toHaveLength(1);
    expect(await wordsOf(buyer.user.userId)).toBe(700);
  });

  it('over HTTP: the emulator delivers the event 50 times at once to the listening app, which fulfils once', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const endpoint = emulator.webhooks.addEndpoint({ url: `${address}/api/stripe/webhook`, secret: WEBHOOK_SECRET, events: ['payment_intent.succeeded'] });
    emulator.webhooks.configure({ duplicates: 50, concurrent: true });
    try {
      const buyer = await buildUser(t.ctx);
      const product = await buildProduct(t.ctx, { price: 3, wordAmount: 300 });
      const { purchase_id } = (await attempt(buyer, { product_id: product.productId })).json() as { purchase_id: number };
      const intentId = (await purchaseRow(purchase_id)).paymentProcessorId!;
      await stripe.paymentIntents.confirm(intentId, { payment_method: 'pm_card_visa' });
      await emulator.webhooks.flush();
      const deliveries = emulator.webhooks.deliveries.filter((d) => d.endpoint_id === endpoint.id);
      expect(deliveries).toHaveLength(50);
      expect(deliveries.map((d) => d.status)).toEqual(Array(50).fill(200));
      expect((await purchaseRow(purchase_id)).status).toBe('completed');
      expect(await invoicesOf(purchase_id)).toHaveLength(1);
      expect(await grantsOf(purchase_id)).toHaveLength(1);
      expect(await wordsOf(buyer.user.userId)).toBe(300);
    } finally {
      emulator.webhooks.removeEndpoint(endpoint.id);
      emulator.webhooks.configure({ duplicates: 1, concurrent: false });
    }
  });

  it("staff admins read the Stripe catalog (GET /stripe/products, /stripe/prices/{id}); others can't", async () => {
    const admin = await buildUser(t.ctx, { staffRole: 'admin' });
    const customer = await buildUser(t.ctx);
    const made = await stripe.products.create({ name: 'Catalog plan' });
    await stripe.prices.create({ product: made.id, unit_amount: 4200, currency: 'usd', recurring: { interval: 'year', interval_count: 1 } });
    const listed = await get(admin, '/api/stripe/products');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toContainEqual(expect.objectContaining({ id: made.id, name: 'Catalog plan', active: true }));
    const prices = await get(admin, `/api/stripe/prices/${made.id}`);
    expect(prices.json()).toEqual([expect.objectContaining({ product: made.id, unit_amount: 4200, currency: 'usd', recurring: { interval: 'year', interval_count: 1 } })]);
    expect((await get(admin, '/api/stripe/prices/prod_doesnotexist')).statusCode).toBe(200);
    expect((await get(admin, '/api/stripe/prices/not-a-product')).statusCode).toBe(400);
    expect((await get(customer, '/api/stripe/products')).statusCode).toBe(403);
  });

  it('a 100 % discount completes a one-time purchase without Stripe; unknown products are 404', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { price: 9, wordAmount: null });
    const discount = await buildDiscount(t.ctx, { isPercent: true, amount: 100, productId: product.productId });
    const res = await attempt(buyer, { product_id: product.productId, discountCode: discount.code });
    expect(res.json()).toMatchObject({ kind: 'none', clientSecret: null, total_payment: 0 });
    expect(await purchaseRow(res.json().purchase_id)).toMatchObject({ status: 'completed' });
    expect(await wordsOf(buyer.user.userId)).toBe(1_000_000);
    expect((await attempt(buyer, { product_id: 2_000_000 })).statusCode).toBe(404);
  });
  // ---- The purchase lifecycle (issue 28): failures end, limits hold at fulfilment, one open attempt.

  const attemptOf = async (who: BuiltUser, body: Record<string, unknown>) => {
    const res = await attempt(who, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { purchase_id: number; kind: string; clientSecret: string; total_payment: number };
  };
  const intentOf = async (purchaseId: number) => (await purchaseRow(purchaseId)).paymentProcessorId!;
  /** A fresh delivery of Stripe's `event` (a new event id: Stripe sends each change as its own event). */
  const redeliver = (event: Stripe.Event, suffix: string) => deliver(JSON.stringify({ ...event, id: `${event.id}_${suffix}` }));
  const refundsOf = async (intentId: string) => (await stripe.refunds.list({ payment_intent: intentId })).data;

  it('a declined card fails the purchase with Stripe\'s reason; out of order and repeated events change nothing wrong; /purchases shows it apart', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { price: 9, wordAmount: 900, expirationDays: 30 });
    const { purchase_id: purchaseId } = await attemptOf(buyer, { product_id: product.productId });
    const intentId = await intentOf(purchaseId);
    await expect(stripe.paymentIntents.confirm(intentId, { payment_method: 'pm_card_chargeDeclined' })).rejects.toMatchObject({ code: 'card_declined' });
    const failed = await eventAbout('payment_intent.payment_failed', intentId);
    expect((await deliver(JSON.stringify(failed))).statusCode).toBe(200);
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: 'failed', failureReason: 'generic_decline' });
    // The same event again, and a second failure event: nothing more.
    expect((await deliver(JSON.stringify(failed))).json()).toMatchObject({ duplicate: true });
    expect((await redeliver(failed, 'again')).statusCode).toBe(200);
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: 'failed', failureReason: 'generic_decline' });
    expect(await grantsOf(purchaseId)).toHaveLength(0);

    // The customer's billing shows it failed, with the reason (no phantom pending).
    const own = (await get(buyer, '/api/purchases')).json() as { purchase_id: number; status: string; failure_reason: string | null }[];
    expect(own.find((p) => p.purchase_id === purchaseId)).toMatchObject({ status: 'failed', failure_reason: 'generic_decline' });

    // Paying again is a new attempt (the failed one is not open); the declined intent paid with another
    // card later (succeeded after failed) is honoured once: completed, words once, one invoice.
    const retry = await attemptOf(buyer, { product_id: product.productId });
    expect(retry.purchase_id).not.toBe(purchaseId);
    await stripe.paymentIntents.confirm(intentId, { payment_method: 'pm_card_visa' });
    const succeeded = await eventAbout('payment_intent.succeeded', intentId);
    expect((await deliver(JSON.stringify(succeeded))).statusCode).toBe(200);
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: 'completed', failureReason: null });
    // A failure delivered after the success (Stripe re-read: succeeded) and the success again: no change.
    expect((await redeliver(failed, 'late')).statusCode).toBe(200);
    expect((await redeliver(succeeded, 'again')).statusCode).toBe(200);
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: 'completed' });
    expect(await grantsOf(purchaseId)).toHaveLength(1);
    expect(await invoicesOf(purchaseId)).toHaveLength(1);
    expect(await wordsOf(buyer.user.userId)).toBe(900);
  });

  it('Pay again right after a decline, before its webhook: the declined attempt fails with its code and a new one is made', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { price: 9, wordAmount: 900, expirationDays: 30 });
    const first = await attemptOf(buyer, { product_id: product.productId });
    await expect(stripe.paymentIntents.confirm(await intentOf(first.purchase_id), { payment_method: 'pm_card_chargeDeclined' })).rejects.toMatchObject({ code: 'card_declined' });
    // No webhook delivered yet: the next attempt reads the intent, sees the decline and starts afresh.
    const second = await attemptOf(buyer, { product_id: product.productId });
    expect(second.purchase_id).not.toBe(first.purchase_id);
    expect(await purchaseRow(first.purchase_id)).toMatchObject({ status: 'failed', failureReason: 'generic_decline' });
    expect(await purchaseRow(second.purchase_id)).toMatchObject({ status: 'pending' });
    // A third press reuses the second, still open attempt.
    expect((await attemptOf(buyer, { product_id: product.productId })).purchase_id).toBe(second.purchase_id);
  });

  it('a subscription whose first payment is declined fails with the decline code; paid later with another card it goes live', async () => {
    const buyer = await buildUser(t.ctx);
    const plan = await buildProduct(t.ctx, { price: 15, wordAmount: 800, isSubscription: true, subscriptionPeriod: 'month', subscriptionInterval: 1, expirationDays: null });
    const body = await attemptOf(buyer, { product_id: plan.productId });
    expect(body.kind).toBe('payment');
    const { subscriptionId } = await purchaseRow(body.purchase_id);
    const subscription = await stripe.subscriptions.retrieve(subscriptionId!, { expand: ['latest_invoice.payments.data.payment.payment_intent'] });
    const invoice = subscription.latest_invoice as Stripe.Invoice;
    const intent = invoice.payments!.data[0].payment!.payment_intent as Stripe.PaymentIntent;
    await expect(stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_chargeDeclined' })).rejects.toMatchObject({ code: 'card_declined' });
    expect((await deliver(JSON.stringify(await eventAbout('invoice.payment_failed', invoice.id!)))).statusCode).toBe(200);
    expect(await purchaseRow(body.purchase_id)).toMatchObject({ status: 'failed', failureReason: 'generic_decline' });
    expect(await grantsOf(body.purchase_id)).toHaveLength(0);

    await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
    expect((await deliver(JSON.stringify(await eventAbout('invoice.paid', invoice.id!)))).statusCode).toBe(200);
    expect(await purchaseRow(body.purchase_id)).toMatchObject({ status: 'active', failureReason: null });
    expect(await wordsOf(buyer.user.userId)).toBe(800);
  });

  it('an attempt left unpaid expires after the timeout (not before); /purchases hides it; the back-office lists it under Failed', async () => {
    const buyer = await buildUser(t.ctx);
    const admin = await buildUser(t.ctx, { staffRole: 'admin' });
    const product = await buildProduct(t.ctx, { price: 4, wordAmount: 100 });
    const { purchase_id: purchaseId } = await attemptOf(buyer, { product_id: product.productId });
    expect(await expireAbandonedAttempts(t.ctx, quietLog)).not.toContain(purchaseId);
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: 'pending' });
    // The clock moves past the timeout (the sweep's `now`), nothing sleeps.
    const later = new Date(Date.now() + ABANDONED_ATTEMPT_AFTER_MS + 60_000);
    const swept = await expireAbandonedAttempts(t.ctx, quietLog, { now: later });
    expect(swept).toContain(purchaseId);
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: 'expired' });
    expect(((await get(buyer, '/api/purchases')).json() as { purchase_id: number }[]).map((p) => p.purchase_id)).not.toContain(purchaseId);
    expect((await get(buyer, `/api/purchases/${purchaseId}`)).json()).toMatchObject({ status: 'expired', failure_reason: null });
    const day = new Date().toISOString().slice(0, 10);
    const tab = (await get(admin, `/api/purchases/admin?status=failed&type=purchases&start_date=${day}&end_date=${day}&query=${encodeURIComponent(buyer.user.email)}`)).json() as { rows: { purchase_id: number; status: string }[] };
    expect(tab.rows.map((r) => [r.purchase_id, r.status])).toContainEqual([purchaseId, 'expired']);
  });

  it('10 concurrent attempts by one user: one purchase and one PaymentIntent; a retry reuses them', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { price: 6, wordAmount: 100 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => attemptOf(buyer, { product_id: product.productId })));
    expect(new Set(answers.map((a) => a.purchase_id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.clientSecret)).size).toBe(1);
    const rows = await t.ctx.db.select().from(purchases).where(eq(purchases.userId, buyer.user.userId));
    expect(rows).toHaveLength(1);
    const customer = (await stripe.paymentIntents.retrieve(rows[0].paymentProcessorId!)).customer as string;
    expect((await stripe.paymentIntents.list({ customer, limit: 100 })).data).toHaveLength(1);
    expect((await attemptOf(buyer, { product_id: product.productId })).purchase_id).toBe(rows[0].purchaseId);
  });

  it('6 paid checkouts of a once-per-customer product delivered at once: one kept, five failed over_limit and refunded at Stripe', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { price: 10, wordAmount: 500, limitPerUser: 1 });
    // Six tabs, six open checkouts (each on other terms: its own code, so its own attempt and PaymentIntent).
    const codes = [null, ...(await Promise.all(Array.from({ length: 5 }, (_, i) => buildDiscount(t.ctx, { amount: i + 1, productId: product.productId })))).map((d) => d.code)];
    const attempts = [];
    for (const code of codes) attempts.push(await attemptOf(buyer, { product_id: product.productId, ...(code ? { discountCode: code } : {}) }));
    const intents = await Promise.all(attempts.map((a) => intentOf(a.purchase_id)));
    expect(new Set(intents).size).toBe(6);
    for (const id of intents) await stripe.paymentIntents.confirm(id, { payment_method: 'pm_card_visa' });
    const events = await Promise.all(intents.map((id) => eventAbout('payment_intent.succeeded', id)));
    const answers = await Promise.all(events.map((e) => deliver(JSON.stringify(e))));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(200));

    const rows = await Promise.all(attempts.map((a) => purchaseRow(a.purchase_id)));
    expect(rows.filter((r) => r.status === 'completed')).toHaveLength(1);
    const refused = rows.filter((r) => r.status === 'failed');
    expect(refused).toHaveLength(5);
    for (const row of refused) {
      expect(row.failureReason).toBe('over_limit');
      expect(await refundsOf(row.paymentProcessorId!)).toHaveLength(1);
      expect(await invoicesOf(row.purchaseId)).toHaveLength(0);
    }
    const kept = rows.find((r) => r.status === 'completed')!;
    expect(await refundsOf(kept.paymentProcessorId!)).toHaveLength(0);
    expect(await wordsOf(buyer.user.userId)).toBe(500);
    // Redelivered, a refused payment stays refused and is not refunded twice.
    await redeliver(events[intents.indexOf(refused[0].paymentProcessorId!)], 'again');
    expect(await refundsOf(refused[0].paymentProcessorId!)).toHaveLength(1);
    expect((await attempt(buyer, { product_id: product.productId })).statusCode).toBe(409);
    // Each refund was made sure of by a marker, processed once Stripe refunded it.
    const markers = await t.ctx.db.select().from(paymentEvents).where(and(eq(paymentEvents.type, REFUND_DUE), like(paymentEvents.eventId, 'pluma:refund:%')));
    for (const row of refused) expect(markers.find((m) => m.eventId === `pluma:refund:${row.paymentProcessorId}`)?.processedAt, row.paymentProcessorId!).toBeTruthy();

    // A refund whose call failed (left due) is retried by the sweep until Stripe has it.
    const { customer } = await stripe.paymentIntents.retrieve(kept.paymentProcessorId!);
    const stray = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd', customer: customer as string, payment_method: 'pm_card_visa', confirm: true, automatic_payment_methods: { enabled: true, allow_redirects: 'never' } });
    await t.ctx.db.insert(paymentEvents).values({
      provider: 'stripe',
      eventId: `pluma:refund:${stray.id}`,
      type: REFUND_DUE,
      payload: { paymentId: stray.id, purchaseId: refused[0].purchaseId, organizationId: null, subscription: false },
      receivedAt: new Date(Date.now() - 120_000),
    });
    expect(await retryDueRefunds(t.ctx, quietLog)).toBe(1);
    expect(await refundsOf(stray.id)).toHaveLength(1);
    expect(await retryDueRefunds(t.ctx, quietLog)).toBe(0);
  });

  it('a one-use code paid by 3 buyers at once is redeemed once; the other two are refused (discount_used_up) and refunded', async () => {
    const product = await buildProduct(t.ctx, { price: 20, wordAmount: 100 });
    const discount = await buildDiscount(t.ctx, { amount: 50, maxRedemptions: 1, productId: product.productId });
    const buyers = await Promise.all([1, 2, 3].map(() => buildUser(t.ctx)));
    const attempts = [];
    for (const buyer of buyers) attempts.push(await attemptOf(buyer, { product_id: product.productId, discountCode: discount.code }));
    const intents = await Promise.all(attempts.map((a) => intentOf(a.purchase_id)));
    for (const id of intents) await stripe.paymentIntents.confirm(id, { payment_method: 'pm_card_visa' });
    const events = await Promise.all(intents.map((id) => eventAbout('payment_intent.succeeded', id)));
    await Promise.all(events.map((e) => deliver(JSON.stringify(e))));
    const rows = await Promise.all(attempts.map((a) => purchaseRow(a.purchase_id)));
    expect(rows.map((r) => r.status).sort()).toEqual(['completed', 'failed', 'failed']);
    for (const row of rows.filter((r) => r.status === 'failed')) {
      expect(row.failureReason).toBe('discount_used_up');
      expect(await refundsOf(row.paymentProcessorId!)).toHaveLength(1);
    }
    expect((await t.ctx.db.select().from(discounts).where(eq(discounts.discountId, discount.discountId)))[0].redemptions).toBe(1);
  });

  it('every transition of the lifecycle table, and every refused one, applied to a purchase row', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { price: 3, wordAmount: 10 });
    for (const from of PURCHASE_STATES) {
      for (const event of LIFECYCLE_EVENTS) {
        const row = await buildPurchase(t.ctx, { userId: buyer.user.userId, productId: product.productId, status: from });
        const move = TRANSITIONS.find((m) => m.from === from && m.on === event);
        const applied = await t.ctx.db.transaction(async (tx) => {
          const locked = (await lockPurchaseById(tx, row.purchaseId))!;
          return applyLifecycleEvent(tx, locked, event, { product, failureReason: 'test_reason', payment: { provider: 'stripe', id: `pi_table_${row.purchaseId}`, amount: 3 } });
        });
        const after = await purchaseRow(row.purchaseId);
        const label = `${from} --${event}-->`;
        if (!move) {
          expect(applied.to, label).toBeNull();
          expect(applied.effects, label).toEqual([]);
          expect(after.status, label).toBe(from);
          continue;
        }
        expect(applied.to, label).toBe(move.to);
        expect(after.status, label).toBe(move.to);
        expect(after.failureReason, label).toBe(move.effects.includes('record_failure') ? 'test_reason' : null);
        expect(await grantsOf(row.purchaseId), label).toHaveLength(move.effects.includes('fulfil') ? 1 : 0);
        expect(applied.effects.some((e) => e.kind === 'activated'), label).toBe(move.effects.includes('receipt'));
      }
    }
    // A payment refunded over a limit stays failed whatever its provider says later (the 'declined' guard).
    for (const reason of ['over_limit', 'discount_used_up']) {
      for (const event of ['paid', 'subscribed'] as const) {
        const row = await buildPurchase(t.ctx, { userId: buyer.user.userId, productId: product.productId, status: 'failed', failureReason: reason });
        const applied = await t.ctx.db.transaction(async (tx) => applyLifecycleEvent(tx, (await lockPurchaseById(tx, row.purchaseId))!, event, { product }));
        expect(applied.to, `failed (${reason}) --${event}-->`).toBeNull();
        expect(await purchaseRow(row.purchaseId)).toMatchObject({ status: 'failed', failureReason: reason });
      }
    }
  });

});

describe('subscription status → purchase status (docs/decisions.md)', () => {
  it('maps every Stripe status', () => {
    const mapped = Object.fromEntries(
      (['trialing', 'active', 'past_due', 'unpaid', 'canceled', 'incomplete', 'incomplete_expired', 'paused'] as const).map((s) => [s, [purchaseStatusFor(s, true), purchaseStatusFor(s, false)]]),
    );
    expect(mapped).toEqual({
      trialing: ['active', 'active'],
      active: ['active', 'active'],
      past_due: ['active', 'active'],
      unpaid: ['revoked', 'revoked'],
      canceled: ['cancelled', 'revoked'],
      incomplete: ['pending', 'pending'],
      incomplete_expired: ['revoked', 'revoked'],
      paused: ['revoked', 'revoked'],
    });
  });
});

describe('payments not configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(() => t?.close());

  it('checkout says so (409, translated); a signed webhook gets 500 so Stripe retries; an unsigned one 400', async () => {
    const buyer = await buildUser(t.ctx, { lang: 'es' });
    const product = await buildProduct(t.ctx);
    const res = await t.app.inject({ method: 'POST', url: '/api/checkout/attempt', headers: { ...buyer.auth, 'accept-language': 'es' }, payload: { product_id: product.productId } });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('payments_not_configured');
    expect((await t.ctx.db.select().from(purchases).where(eq(purchases.userId, buyer.user.userId))).length).toBe(0);
    const payload = JSON.stringify({ id: 'evt_1', type: 'payment_intent.succeeded', data: { object: { id: 'pi_1' } } });
    const signed = await t.app.inject({ method: 'POST', url: '/api/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(payload, 'whsec_x') }, payload });
    expect(signed.statusCode).toBe(500);
    const unsigned = await t.app.inject({ method: 'POST', url: '/api/stripe/webhook', headers: { 'content-type': 'application/json' }, payload });
    expect(unsigned.statusCode).toBe(400);
  });
});
