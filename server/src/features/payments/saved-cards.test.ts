// Saved cards, paying with one, plan switching, the payment mails and staff revocations, through the real
// app against the Stripe emulator (the official SDK pointed at it), as payments.test.ts does.
import type { RunningStripeEmulator } from '@pluma/emulators/stripe/index';
import { purchaseGivesAccess } from '@pluma/common/rules/purchase-expiry';
import { and, eq, like } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, mailOutbox, paymentCustomers, purchases, users } from '../../db/schema';
import { seedPaymentMethods } from '../appconfig/seed';
import { buildProduct, buildUser, type BuiltUser } from '../../test/factories';
import { deliverStripeEvent, startStripeTestApp } from '../../test/stripe-test-app';
import { createTestApp, type TestApp } from '../../test/test-app';

const SECRET_KEY = 'sk_test_pluma_cards_0123456789';
const WEBHOOK_SECRET = 'whsec_pluma_cards_test_secret';

describe('saved cards, paying with them, and switching plans', () => {
  let emulator: RunningStripeEmulator;
  let stripe: Stripe;
  let t: TestApp;

  beforeAll(async () => {
    ({ emulator, stripe, t } = await startStripeTestApp({ secretKey: SECRET_KEY, publishableKey: 'pk_test_pluma_cards', webhookSecret: WEBHOOK_SECRET }));
    await seedPaymentMethods(t.ctx);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await emulator?.close();
  });

  const call = (who: BuiltUser | null, method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: who?.auth ?? {}, ...(payload ? { payload } : {}) });
  const deliverEvent = (event: Stripe.Event | Record<string, unknown>) => deliverStripeEvent(t, event, WEBHOOK_SECRET);
  /** Delivers every event the emulator has about these objects, oldest first (what Stripe would send). */
  const deliverAbout = async (...ids: string[]) => {
    const list = await stripe.events.list({ limit: 100 });
    const events = list.data.filter((e) => ids.includes((e.data.object as { id?: string }).id ?? '')).reverse();
    for (const event of events) expect((await deliverEvent(event)).statusCode).toBe(200);
    return events;
  };
  const purchaseRow = async (purchaseId: number) => (await t.ctx.db.select().from(purchases).where(eq(purchases.purchaseId, purchaseId)))[0];
  const purchasesOf = (userId: number) => t.ctx.db.select().from(purchases).where(eq(purchases.userId, userId));
  const mailsTo = (who: BuiltUser, kind: string) => t.ctx.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, who.user.email.toLowerCase()), eq(mailOutbox.kind, kind)));
  const wordsOf = async (userId: number) => (await t.ctx.db.select({ w: users.availableWords }).from(users).where(eq(users.userId, userId)))[0].w;

  /** Saves a card the way the page does: POST /payment_sources, then Stripe.js confirms the SetupIntent. */
  const saveCard = async (who: BuiltUser, card: string) => {
    const res = await call(who, 'POST', '/api/payment_sources');
    expect(res.statusCode, res.body).toBe(200);
    const { clientSecret } = res.json() as { clientSecret: string };
    expect(clientSecret).toMatch(/^seti_.+_secret_/);
    let setup = await stripe.setupIntents.confirm(clientSecret.split('_secret_')[0], { payment_method: card });
    // A card that asks for 3-D Secure: Stripe.js runs the challenge, the customer completes it.
    if (setup.status === 'requires_action') {
      emulator.control.completeThreeDSecure(setup.id, 'succeed');
      setup = await stripe.setupIntents.retrieve(setup.id);
    }
    expect(setup.status).toBe('succeeded');
    expect(setup.usage).toBe('off_session');
    return setup.payment_method as string;
  };
  const subscriptionProduct = (price: number, words = 1000) =>
    buildProduct(t.ctx, { price, isSubscription: true, subscriptionPeriod: 'month', subscriptionInterval: 1, wordAmount: words, expirationDays: null });

  it('GET /checkout/config is public and gives the publishable key and Stripe.js URL; GET /payment_method lists the methods', async () => {
    const config = await call(null, 'GET', '/api/checkout/config');
    expect(config.statusCode).toBe(200);
    expect(config.json()).toEqual({ stripe: { publishable_key: 'pk_test_pluma_cards', js_url: 'https://js.stripe.com/endive/stripe.js' }, demo: false });
    const buyer = await buildUser(t.ctx);
    const methods = await call(buyer, 'GET', '/api/payment_method');
    expect(methods.statusCode).toBe(200);
    expect(methods.json()).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'card', payment_method_id: expect.any(Number) })]));
    expect((await call(null, 'GET', '/api/payment_method')).statusCode).toBe(401);
    expect((await call(null, 'GET', '/api/payment_sources')).statusCode).toBe(401);
  });

  it('saves, lists and deletes cards of the own Stripe customer only; anyone else gets 404', async () => {
    const buyer = await buildUser(t.ctx);
    const other = await buildUser(t.ctx);
    // No customer yet: nothing saved, and no customer is created by looking.
    expect((await call(buyer, 'GET', '/api/payment_sources')).json()).toEqual([]);
    expect(await t.ctx.db.select().from(paymentCustomers).where(eq(paymentCustomers.userId, buyer.user.userId))).toHaveLength(0);

    const master = await saveCard(buyer, 'pm_card_mastercard');
    const visa = await saveCard(buyer, 'pm_card_visa');
    const listed = (await call(buyer, 'GET', '/api/payment_sources')).json() as { payment_source_id: string; card_type: string; last_digits: string }[];
    expect(listed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ payment_source_id: master, card_type: 'mastercard', last_digits: '4444' }),
        expect.objectContaining({ payment_source_id: visa, card_type: 'visa', last_digits: '4242' }),
      ]),
    );
    expect(listed).toHaveLength(2);
    // Another user sees none of them and cannot delete them.
    expect((await call(other, 'GET', '/api/payment_sources')).json()).toEqual([]);
    const othersCard = await saveCard(other, 'pm_card_visa');
    expect((await call(other, 'DELETE', `/api/payment_sources/${visa}`)).statusCode).toBe(404);
    expect((await call(buyer, 'DELETE', `/api/payment_sources/${othersCard}`)).statusCode).toBe(404);
    expect((await call(buyer, 'DELETE', '/api/payment_sources/pm_doesnotexist')).statusCode).toBe(404);
    expect((await call(buyer, 'DELETE', '/api/payment_sources/not-a-card')).statusCode).toBe(400);
    expect((await stripe.paymentMethods.retrieve(visa)).customer).toBeTruthy();

    const removed = await call(buyer, 'DELETE', `/api/payment_sources/${visa}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await call(buyer, 'GET', '/api/payment_sources')).json()).toEqual([expect.objectContaining({ payment_source_id: master })]);
    // Deleted already: 404 (it is no longer the customer's).
    expect((await call(buyer, 'DELETE', `/api/payment_sources/${visa}`)).statusCode).toBe(404);
  });

  it('a card paying a subscription that will renew cannot be removed (409, in the user\'s language); once the subscription is cancelled at period end it can', async () => {
    const buyer = await buildUser(t.ctx, { lang: 'es' });
    const plan = await subscriptionProduct(12, 100);
    const card = await saveCard(buyer, 'pm_card_visa');
    const spare = await saveCard(buyer, 'pm_card_mastercard');
    const bought = await call(buyer, 'POST', '/api/checkout', { product_id: plan.productId, payment_source_id: card });
    expect(bought.statusCode, bought.body).toBe(200);
    const subscriptionId = (await purchaseRow(bought.json().purchase_id)).subscriptionId!;
    await deliverAbout(subscriptionId, (await stripe.subscriptions.retrieve(subscriptionId)).latest_invoice as string);

    const refused = await t.app.inject({ method: 'DELETE', url: `/api/payment_sources/${card}`, headers: { ...buyer.auth, 'accept-language': 'es' } });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toEqual({
      error: 'payment_source_in_use',
      message: 'Esta tarjeta paga tu suscripción, así que no se puede eliminar. Cancela primero la suscripción o elimina la tarjeta cuando haya terminado.',
    });
    expect((await stripe.paymentMethods.retrieve(card)).customer).toBeTruthy();
    await t.ctx.db.update(users).set({ lang: 'en' }).where(eq(users.userId, buyer.user.userId));
    const english = await t.app.inject({ method: 'DELETE', url: `/api/payment_sources/${card}`, headers: { ...buyer.auth, 'accept-language': 'en' } });
    expect(english.statusCode).toBe(409);
    expect(english.json().message).toBe('This card pays for your subscription, so it cannot be removed. Cancel the subscription first, or remove the card once it has ended.');

    // The other card pays nothing: it goes.
    expect((await call(buyer, 'DELETE', `/api/payment_sources/${spare}`)).statusCode).toBe(204);

    // A subscription without a card of its own is paid by the customer's default card: that one stays too.
    const customer = (await stripe.subscriptions.retrieve(subscriptionId)).customer as string;
    const fallback = await saveCard(buyer, 'pm_card_mastercard');
    await stripe.customers.update(customer, { invoice_settings: { default_payment_method: fallback } });
    await stripe.subscriptions.update(subscriptionId, { default_payment_method: '' });
    expect((await call(buyer, 'DELETE', `/api/payment_sources/${fallback}`)).statusCode).toBe(409);
    expect((await call(buyer, 'DELETE', `/api/payment_sources/${card}`)).statusCode).toBe(204);
    await stripe.subscriptions.update(subscriptionId, { default_payment_method: fallback });

    // Cancelled by the customer (at period end: nothing more will be charged) → the card may go.
    const cancelled = await call(buyer, 'POST', `/api/purchases/cancel/${bought.json().purchase_id}`, { cancel_reason: 'No longer needed here', status: 'cancelled' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await stripe.subscriptions.retrieve(subscriptionId)).cancel_at_period_end).toBe(true);
    expect((await call(buyer, 'DELETE', `/api/payment_sources/${fallback}`)).statusCode).toBe(204);
    expect((await call(buyer, 'GET', '/api/payment_sources')).json()).toEqual([]);
  });

  it('a card saved through POST /payment_sources is marked to be offered again (allow_redisplay always) once Stripe says the setup succeeded; nothing else is', async () => {
    const buyer = await buildUser(t.ctx);
    const saved = await saveCard(buyer, 'pm_card_visa');
    expect((await stripe.paymentMethods.retrieve(saved)).allow_redisplay).not.toBe('always');
    const customer = (await t.ctx.db.select().from(paymentCustomers).where(eq(paymentCustomers.userId, buyer.user.userId)))[0].customerId;
    const [setup] = (await stripe.events.list({ type: 'setup_intent.succeeded', limit: 100 })).data
      .map((e) => e.data.object as Stripe.SetupIntent)
      .filter((i) => i.payment_method === saved);
    expect(setup.customer).toBe(customer);
    const events = await deliverAbout(setup.id);
    expect(events.map((e) => e.type)).toContain('setup_intent.succeeded');
    expect((await stripe.paymentMethods.retrieve(saved)).allow_redisplay).toBe('always');
    // Redelivered: still 200, still always.
    const succeeded = events.find((e) => e.type === 'setup_intent.succeeded')!;
    expect((await deliverEvent(succeeded)).statusCode).toBe(200);
    expect((await stripe.paymentMethods.retrieve(saved)).allow_redisplay).toBe('always');

    // A SetupIntent that is not ours to honour changes nothing: no purpose, or naming a user whose customer it is not.
    const stranger = await buildUser(t.ctx);
    const notOurs: Stripe.MetadataParam[] = [{}, { purpose: 'payment_source', user_id: String(stranger.user.userId) }];
    for (const metadata of notOurs) {
      const other = await stripe.setupIntents.create({ customer, usage: 'off_session', metadata });
      const confirmed = await stripe.setupIntents.confirm(other.id, { payment_method: 'pm_card_mastercard' });
      expect(confirmed.status).toBe('succeeded');
      await deliverAbout(other.id);
      expect((await stripe.paymentMethods.retrieve(confirmed.payment_method as string)).allow_redisplay).not.toBe('always');
    }
  });

  it('a card the buyer chose to save at checkout is kept, and POST /checkout buys again with it (server-priced, fulfilled by the webhook)', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { price: 20, salePrice: 16, wordAmount: 400 });
    const first = (await call(buyer, 'POST', '/api/checkout/attempt', { product_id: product.productId })).json() as { purchase_id: number };
    const intentId = (await purchaseRow(first.purchase_id)).paymentProcessorId!;
    // The PaymentIntent does not save the card by itself: the Payment Element's ticked save box does, at
    // confirmation, with the customer session's payment_method_save_usage (customer-session.ts).
    expect((await stripe.paymentIntents.retrieve(intentId)).setup_future_usage).toBeNull();
    const paid = await stripe.paymentIntents.confirm(intentId, { payment_method: 'pm_card_visa', setup_future_usage: 'off_session' });
    await deliverAbout(intentId);
    expect((await purchaseRow(first.purchase_id)).status).toBe('completed');
    const [saved] = (await call(buyer, 'GET', '/api/payment_sources')).json() as { payment_source_id: string }[];
    expect(saved.payment_source_id).toBe(paid.payment_method);

    const again = await call(buyer, 'POST', '/api/checkout', { product_id: product.productId, payment_source_id: saved.payment_source_id, total_payment: 0.01 });
    expect(again.statusCode, again.body).toBe(200);
    const body = again.json() as { purchase_id: number; kind: string; clientSecret: string | null; total_payment: number };
    expect(body).toMatchObject({ kind: 'none', clientSecret: null, total_payment: 16 });
    const second = await purchaseRow(body.purchase_id);
    const intent = await stripe.paymentIntents.retrieve(second.paymentProcessorId!);
    expect(intent).toMatchObject({ status: 'succeeded', amount: 1600, payment_method: saved.payment_source_id });
    await deliverAbout(intent.id);
    expect((await purchaseRow(body.purchase_id)).status).toBe('completed');
    expect(await wordsOf(buyer.user.userId)).toBe(800);
    // One receipt per payment, however often the events come.
    await deliverAbout(intent.id);
    expect(await mailsTo(buyer, 'receipt')).toHaveLength(2);
  });

  it("POST /checkout refuses another customer's card (404, nothing written), asks for 3-D Secure, and a decline is 402 with nothing left", async () => {
    const buyer = await buildUser(t.ctx);
    const stranger = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { price: 9, wordAmount: 90 });
    const strangersCard = await saveCard(stranger, 'pm_card_visa');
    await saveCard(buyer, 'pm_card_visa');
    const refused = await call(buyer, 'POST', '/api/checkout', { product_id: product.productId, payment_source_id: strangersCard });
    expect(refused.statusCode).toBe(404);
    expect((await call(buyer, 'POST', '/api/checkout', { product_id: product.productId, payment_source_id: 'nope' })).statusCode).toBe(400);
    expect((await call(buyer, 'POST', '/api/checkout', { product_id: 2_000_000, payment_source_id: strangersCard })).statusCode).toBe(404);
    expect(await purchasesOf(buyer.user.userId)).toHaveLength(0);

    // The bank asks for 3-D Secure: the page gets the client secret and runs the challenge.
    const secure = await saveCard(buyer, 'pm_card_authenticationRequired');
    const challenged = await call(buyer, 'POST', '/api/checkout', { product_id: product.productId, payment_source_id: secure });
    expect(challenged.statusCode, challenged.body).toBe(200);
    const body = challenged.json() as { purchase_id: number; kind: string; clientSecret: string };
    expect(body.kind).toBe('payment');
    const intentId = body.clientSecret.split('_secret_')[0];
    expect((await stripe.paymentIntents.retrieve(intentId)).status).toBe('requires_action');
    expect((await purchaseRow(body.purchase_id)).status).toBe('pending');
    emulator.control.completeThreeDSecure(intentId, 'succeed');
    await deliverAbout(intentId);
    expect((await purchaseRow(body.purchase_id)).status).toBe('completed');

    // Declined: 402, and no pending purchase stays behind.
    const failing = await saveCard(buyer, 'pm_card_chargeCustomerFail');
    const before = (await purchasesOf(buyer.user.userId)).length;
    const declined = await call(buyer, 'POST', '/api/checkout', { product_id: product.productId, payment_source_id: failing });
    expect(declined.statusCode, declined.body).toBe(402);
    expect(declined.json().error).toBe('payments_provider_error');
    expect(await purchasesOf(buyer.user.userId)).toHaveLength(before);
    // A subscription declined the same way leaves no live subscription at Stripe.
    const plan = await subscriptionProduct(11);
    const declinedPlan = await call(buyer, 'POST', '/api/checkout', { product_id: plan.productId, payment_source_id: failing });
    expect(declinedPlan.statusCode, declinedPlan.body).toBe(402);
    expect(await purchasesOf(buyer.user.userId)).toHaveLength(before);
    const customer = (await t.ctx.db.select().from(paymentCustomers).where(eq(paymentCustomers.userId, buyer.user.userId)))[0].customerId;
    expect((await stripe.subscriptions.list({ customer })).data).toHaveLength(0);
  });

  it('switching plans: the new plan once paid cancels the old subscription at Stripe; only the new one gives access', async () => {
    const buyer = await buildUser(t.ctx, { lang: 'es' });
    const basic = await subscriptionProduct(10, 1000);
    const pro = await subscriptionProduct(25, 5000);
    const card = await saveCard(buyer, 'pm_card_visa');

    const first = await call(buyer, 'POST', '/api/checkout', { product_id: basic.productId, payment_source_id: card });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ kind: 'none', total_payment: 10 });
    const old = await purchaseRow(first.json().purchase_id);
    const oldSubscription = await stripe.subscriptions.retrieve(old.subscriptionId!);
    expect(oldSubscription).toMatchObject({ status: 'active', default_payment_method: card });
    await deliverAbout(old.subscriptionId!, oldSubscription.latest_invoice as string);
    expect((await purchaseRow(old.purchaseId)).status).toBe('active');

    // A second plan is allowed now (the page warns about downgrades first).
    const second = await call(buyer, 'POST', '/api/checkout', { product_id: pro.productId, payment_source_id: card });
    expect(second.statusCode, second.body).toBe(200);
    const next = await purchaseRow(second.json().purchase_id);
    // Until the new plan is paid and live, the old one stays.
    expect((await purchaseRow(old.purchaseId)).status).toBe('active');
    const newSubscription = await stripe.subscriptions.retrieve(next.subscriptionId!);
    await deliverAbout(next.subscriptionId!, newSubscription.latest_invoice as string);

    expect((await purchaseRow(next.purchaseId)).status).toBe('active');
    const cancelled = await purchaseRow(old.purchaseId);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.cancelledAt).not.toBeNull();
    expect((await stripe.subscriptions.retrieve(old.subscriptionId!)).status).toBe('canceled');
    expect((await stripe.subscriptions.list({ customer: oldSubscription.customer as string })).data.map((s) => s.id)).toEqual([next.subscriptionId]);
    const now = new Date();
    expect(purchaseGivesAccess(cancelled, now)).toBe(false);
    expect(purchaseGivesAccess(await purchaseRow(next.purchaseId), now)).toBe(true);

    // Stripe's events about the old subscription (its cancellation) change nothing more.
    await deliverAbout(old.subscriptionId!);
    expect(await purchaseRow(old.purchaseId)).toMatchObject({ status: 'cancelled', expirationDays: cancelled.expirationDays });
    expect(await wordsOf(buyer.user.userId)).toBe(6000);
    const me = (await call(buyer, 'GET', '/api/users')).json();
    expect(me).toMatchObject({ has_access: true });
    // Two payments, two receipts, in the customer's language.
    const receipts = await mailsTo(buyer, 'receipt');
    expect(receipts).toHaveLength(2);
    expect(receipts[0].subject).toContain('Tu recibo');
  });

  it('two plans bought at once and fulfilled concurrently leave exactly one live plan, at Stripe too', async () => {
    const buyer = await buildUser(t.ctx);
    const [a, b] = [await subscriptionProduct(13, 100), await subscriptionProduct(14, 200)];
    const card = await saveCard(buyer, 'pm_card_visa');
    const answers = await Promise.all([a, b].map((p) => call(buyer, 'POST', '/api/checkout', { product_id: p.productId, payment_source_id: card })));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    const rows = await Promise.all(answers.map((r) => purchaseRow(r.json().purchase_id)));
    const ids = (await Promise.all(rows.map((r) => stripe.subscriptions.retrieve(r.subscriptionId!)))).flatMap((s) => [s.id, s.latest_invoice as string]);
    const list = await stripe.events.list({ limit: 100 });
    const events = list.data.filter((e) => ids.includes((e.data.object as { id?: string }).id ?? ''));
    const delivered = await Promise.all(events.map((e) => deliverEvent(e)));
    expect(delivered.map((d) => d.statusCode).every((s) => s === 200)).toBe(true);
    // Redelivering everything settles the same way (cancellation events included).
    for (const e of (await stripe.events.list({ limit: 100 })).data.filter((e) => ids.includes((e.data.object as { id?: string }).id ?? ''))) await deliverEvent(e);
    const after = await Promise.all(rows.map((r) => purchaseRow(r.purchaseId)));
    expect(after.map((r) => r.status).sort()).toEqual(['active', 'cancelled']);
    const customer = (await stripe.subscriptions.retrieve(rows[0].subscriptionId!)).customer as string;
    const live = (await stripe.subscriptions.list({ customer })).data;
    expect(live).toHaveLength(1);
    expect(live[0].id).toBe(after.find((r) => r.status === 'active')!.subscriptionId);
  });

  it('a failed renewal keeps access and sends one "update your card" mail per invoice, whatever the retries', async () => {
    const buyer = await buildUser(t.ctx);
    const plan = await subscriptionProduct(7, 700);
    const card = await saveCard(buyer, 'pm_card_visa');
    const bought = (await call(buyer, 'POST', '/api/checkout', { product_id: plan.productId, payment_source_id: card })).json() as { purchase_id: number };
    const subscriptionId = (await purchaseRow(bought.purchase_id)).subscriptionId!;
    await deliverAbout(subscriptionId, (await stripe.subscriptions.retrieve(subscriptionId)).latest_invoice as string);
    expect((await purchaseRow(bought.purchase_id)).status).toBe('active');

    const failing = await saveCard(buyer, 'pm_card_chargeCustomerFail');
    await stripe.subscriptions.update(subscriptionId, { default_payment_method: failing });
    emulator.control.advanceSubscription(subscriptionId, { outcome: 'fail' });
    const renewal = (await stripe.subscriptions.retrieve(subscriptionId)).latest_invoice as string;
    const [failed] = (await stripe.events.list({ type: 'invoice.payment_failed', limit: 100 })).data.filter((e) => (e.data.object as { id: string }).id === renewal);
    expect(failed).toBeTruthy();
    expect((await deliverEvent(failed)).statusCode).toBe(200);
    expect((await deliverEvent(failed)).statusCode).toBe(200);
    // Stripe's next attempt is another event about the same invoice.
    expect((await deliverEvent({ ...failed, id: `${failed.id}_retry` })).statusCode).toBe(200);
    const mails = await mailsTo(buyer, 'card_update');
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('/billing');
    expect(mails[0].text).toContain('7.00');
    expect((await purchaseRow(bought.purchase_id)).status).toBe('active');
  });

  it('a purchase staff revoked stays revoked whatever Stripe says later; Stripe\'s own revocation can come back', async () => {
    const admin = await buildUser(t.ctx, { staffRole: 'admin' });
    const buyer = await buildUser(t.ctx);
    const plan = await subscriptionProduct(5, 500);
    const card = await saveCard(buyer, 'pm_card_visa');
    const bought = (await call(buyer, 'POST', '/api/checkout', { product_id: plan.productId, payment_source_id: card })).json() as { purchase_id: number };
    const subscriptionId = (await purchaseRow(bought.purchase_id)).subscriptionId!;
    await deliverAbout(subscriptionId, (await stripe.subscriptions.retrieve(subscriptionId)).latest_invoice as string);
    expect((await purchaseRow(bought.purchase_id)).status).toBe('active');

    // Stripe gives up on the card: revoked by Stripe, and back once Stripe says active again.
    emulator.control.setSubscriptionStatus(subscriptionId, 'unpaid');
    await deliverAbout(subscriptionId);
    expect((await purchaseRow(bought.purchase_id)).status).toBe('revoked');
    emulator.control.setSubscriptionStatus(subscriptionId, 'active');
    await deliverAbout(subscriptionId);
    expect(await purchaseRow(bought.purchase_id)).toMatchObject({ status: 'active', cancelledAt: null });

    // Staff revoke it: every later event (renewals included) leaves it revoked, and no words are added.
    const revoked = await call(admin, 'PUT', '/api/users/revokeAccess', { purchase_id: bought.purchase_id });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const words = await wordsOf(buyer.user.userId);
    await deliverAbout(subscriptionId);
    emulator.control.advanceSubscription(subscriptionId, { outcome: 'succeed' });
    await deliverAbout(subscriptionId, (await stripe.subscriptions.retrieve(subscriptionId)).latest_invoice as string);
    expect((await purchaseRow(bought.purchase_id)).status).toBe('revoked');
    expect(await wordsOf(buyer.user.userId)).toBe(words);
    expect((await call(buyer, 'GET', '/api/users')).json()).toMatchObject({ has_access: false });

    // A pending purchase staff revoked is not activated by a late payment either.
    const oneTime = await buildProduct(t.ctx, { price: 3, wordAmount: 30 });
    const pending = (await call(buyer, 'POST', '/api/checkout/attempt', { product_id: oneTime.productId })).json() as { purchase_id: number };
    expect((await call(admin, 'PUT', '/api/users/revokeAccess', { purchase_id: pending.purchase_id })).statusCode).toBe(200);
    const intentId = (await purchaseRow(pending.purchase_id)).paymentProcessorId!;
    await stripe.paymentIntents.confirm(intentId, { payment_method: 'pm_card_visa' });
    await deliverAbout(intentId);
    expect((await purchaseRow(pending.purchase_id)).status).toBe('revoked');
    const grants = await t.ctx.db.select().from(creditLedger).where(and(eq(creditLedger.sourceType, 'purchase'), like(creditLedger.sourceId, `${pending.purchase_id}%`)));
    expect(grants).toHaveLength(0);
  });
});

describe('payment sources when Stripe fails or is not configured', () => {
  let t: TestApp;
  let unconfigured: TestApp;
  beforeAll(async () => {
    // Stripe unreachable: a port nothing listens on.
    t = await createTestApp({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_API_HOST: '127.0.0.1', STRIPE_API_PORT: '9', STRIPE_API_PROTOCOL: 'http' });
    unconfigured = await createTestApp();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await unconfigured?.close();
  });

  it("deleting a card when Stripe fails gives the spec's error, in the user's language", async () => {
    const buyer = await buildUser(t.ctx, { lang: 'es' });
    await t.ctx.db.insert(paymentCustomers).values({ userId: buyer.user.userId, provider: 'stripe', customerId: 'cus_unreachable' });
    const res = await t.app.inject({ method: 'DELETE', url: '/api/payment_sources/pm_card123', headers: { ...buyer.auth, 'accept-language': 'es' } });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ error: 'payment_source_delete_failed', message: 'No pudimos eliminar esta tarjeta. Inténtalo de nuevo más tarde.' });
  }, 30_000);

  it('without keys: config says so, there are no saved cards, and saving one is 409 not configured', async () => {
    const buyer = await buildUser(unconfigured.ctx);
    expect((await unconfigured.app.inject('/api/checkout/config')).json()).toEqual({ stripe: null, demo: false });
    expect((await unconfigured.app.inject({ url: '/api/payment_sources', headers: buyer.auth })).json()).toEqual([]);
    const save = await unconfigured.app.inject({ method: 'POST', url: '/api/payment_sources', headers: buyer.auth });
    expect(save.statusCode).toBe(409);
    expect(save.json().error).toBe('payments_not_configured');
  });
});
