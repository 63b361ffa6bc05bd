// An organization's products sold with the organization's own Stripe keys (issue 12 item 5; spec part 2 §2
// /organization/admin/products, §3 Organization stripe_public/stripe_secret/stripe_webhook_secret, "Payment
// provider" lookups from organization product screens), through the real app on PGlite and PostgreSQL.
// The Stripe emulator accepts ONLY the organization's secret key: any call made with the operator's key is
// refused with 401, so a checkout that works proves the organization's key was used.
import { signPayload, startStripeEmulator, type RunningStripeEmulator } from '@pluma/emulators/stripe/index';
import { customerWithCard, monthlyPrice } from '@pluma/emulators/stripe/test-kit';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations, purchases } from '../../db/schema';
import { encryptSecret } from '../../platform/crypto/secret-box';
import { buildOrganization, buildProduct, buildPurchase, buildUser, type BuiltUser } from '../../test/factories';
import { stripeEmulatorEnv } from '../../test/stripe-test-app';
import { createTestApp, type TestApp } from '../../test/test-app';
import { applyPaymentIntent } from './fulfil';

const OPERATOR = { secretKey: 'sk_test_operator_0123456789', publishableKey: 'pk_test_operator_0123456789', webhookSecret: 'whsec_operator_secret' };
const ORG = { secret: 'sk_test_organization_abcdefghij', public: 'pk_test_organization_abcdefghij', webhook: 'whsec_organization_secret' };

describe("an organization's products, sold with its own Stripe keys", () => {
  let emulator: RunningStripeEmulator;
  /** The SDK with the organization's key: what its Stripe account holds. */
  let orgStripe: Stripe;
  let t: TestApp;
  let orgAdmin: BuiltUser;
  let orgManager: BuiltUser;
  let member: BuiltUser;
  let otherAdmin: BuiltUser;
  let outsider: BuiltUser;
  let staffAdmin: BuiltUser;
  let staffManager: BuiltUser;
  let spanishMember: BuiltUser;
  let organizationId: number;
  let otherOrganizationId: number;
  /** A third organization that saved the same Stripe keys (one account, two webhook endpoints). */
  let twinOrganizationId: number;

  beforeAll(async () => {
    emulator = await startStripeEmulator({ apiKey: ORG.secret });
    orgStripe = new Stripe(ORG.secret, { ...emulator.sdkOptions, maxNetworkRetries: 0 });
    t = await createTestApp(stripeEmulatorEnv(emulator, OPERATOR));
    [orgAdmin, orgManager, member, otherAdmin, outsider] = await Promise.all(Array.from({ length: 5 }, () => buildUser(t.ctx)));
    staffAdmin = await buildUser(t.ctx, { staffRole: 'admin' });
    staffManager = await buildUser(t.ctx, { staffRole: 'manager' });
    spanishMember = await buildUser(t.ctx, { lang: 'es' });
    organizationId = (
      await buildOrganization(t.ctx, [
        { user: orgAdmin, role: 'admin' },
        { user: orgManager, role: 'manager' },
        { user: member, role: 'member' },
      ])
    ).organizationId;
    // Another organization, with no Stripe keys.
    otherOrganizationId = (await buildOrganization(t.ctx, [{ user: otherAdmin, role: 'admin' }, { user: member, role: 'member' }, { user: spanishMember, role: 'member' }])).organizationId;
    // The organization's Admin saves its keys through the settings form (sealed at rest).
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/organizations/update',
      headers: orgAdmin.auth,
      payload: { organization_id: organizationId, name: 'Keyed org', stripe_public: ORG.public, stripe_secret: ORG.secret, stripe_webhook_secret: ORG.webhook },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    twinOrganizationId = (await buildOrganization(t.ctx)).organizationId;
    await t.ctx.db
      .update(organizations)
      .set({ stripeSecretSealed: encryptSecret(t.ctx.env.APP_SECRET, ORG.secret), stripeWebhookSecretSealed: encryptSecret(t.ctx.env.APP_SECRET, ORG.webhook) })
      .where(eq(organizations.organizationId, twinOrganizationId));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await emulator?.close();
  });

  const inOrg = (id: number) => `organization_id=${id}`;
  const call = (who: BuiltUser | null, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: who ? who.auth : {}, ...(payload ? { payload } : {}) });
  const deliverTo = (url: string, event: unknown, secret: string) => {
    const payload = JSON.stringify(event);
    return t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(payload, secret) }, payload });
  };
  const orgWebhook = (id: number) => `/api/stripe/webhook/organizations/${id}`;
  const eventAbout = async (type: string, id: string) => {
    const list = await orgStripe.events.list({ type, limit: 100 });
    const event = list.data.find((e) => (e.data.object as { id?: string }).id === id);
    expect(event, `${type} for ${id}`).toBeTruthy();
    return event!;
  };
  const purchaseRow = async (purchaseId: number) => (await t.ctx.db.select().from(purchases).where(eq(purchases.purchaseId, purchaseId)))[0];

  it('the Admin creates a product; a member buys it with the organization\'s keys; its webhook completes it; it counts in its analytics', async () => {
    const created = await call(orgAdmin, 'POST', `/api/products?${inOrg(organizationId)}`, { name: 'Org seat', description: 'A seat', price: 12.5, word_amount: 5000 });
    expect(created.statusCode, created.body).toBe(201);
    const productId = created.json().product_id as number;
    expect(created.json().organization_id).toBe(organizationId);

    // The browser's publishable key: the organization's inside it, the operator's in Personal.
    expect((await call(member, 'GET', `/api/checkout/config?${inOrg(organizationId)}`)).json().stripe).toMatchObject({ publishable_key: ORG.public });
    expect((await call(null, 'GET', '/api/checkout/config')).json().stripe).toMatchObject({ publishable_key: OPERATOR.publishableKey });
    // Naming an organization needs a member: a visitor 401, a stranger 404.
    expect((await call(null, 'GET', `/api/checkout/config?${inOrg(organizationId)}`)).statusCode).toBe(401);
    expect((await call(outsider, 'GET', `/api/checkout/config?${inOrg(organizationId)}`)).statusCode).toBe(404);

    const attempt = await call(member, 'POST', `/api/checkout/attempt?${inOrg(organizationId)}`, { product_id: productId });
    expect(attempt.statusCode, attempt.body).toBe(200);
    const { purchase_id: purchaseId, clientSecret } = attempt.json() as { purchase_id: number; clientSecret: string };
    const pending = await purchaseRow(purchaseId);
    expect(pending).toMatchObject({ status: 'pending', organizationId, totalPayment: 12.5 });
    // The intent and the customer live in the organization's account (the emulator accepts no other key).
    const intent = await orgStripe.paymentIntents.retrieve(pending.paymentProcessorId!);
    expect(intent.client_secret).toBe(clientSecret);
    expect(intent.metadata).toMatchObject({ purchase_id: String(purchaseId), organization_id: String(organizationId) });
    const customer = (await orgStripe.customers.retrieve(intent.customer as string)) as Stripe.Customer;
    expect(customer.metadata).toMatchObject({ user_id: String(member.user.userId), organization_id: String(organizationId) });
    // A second checkout finds the same customer there.
    const again = await call(member, 'POST', `/api/checkout/attempt?${inOrg(organizationId)}`, { product_id: productId });
    expect(again.statusCode, again.body).toBe(200);
    const second = await orgStripe.paymentIntents.retrieve((await purchaseRow(again.json().purchase_id)).paymentProcessorId!);
    expect(second.customer).toBe(intent.customer);

    await orgStripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
    const event = await eventAbout('payment_intent.succeeded', intent.id);
    // The operator's secret, or another organization's route, does not verify: 400, nothing changes.
    expect((await deliverTo(orgWebhook(organizationId), event, OPERATOR.webhookSecret)).statusCode).toBe(400);
    expect((await deliverTo(orgWebhook(organizationId), event, 'whsec_somebody_else')).statusCode).toBe(400);
    expect((await deliverTo(orgWebhook(987_654), event, ORG.webhook)).statusCode).toBe(404);
    // An organization without a webhook secret: 500, so Stripe keeps retrying until its Admin saves one.
    expect((await deliverTo(orgWebhook(otherOrganizationId), event, ORG.webhook)).statusCode).toBe(500);
    expect((await purchaseRow(purchaseId)).status).toBe('pending');
    // Another organization with the same account and secret: verified there, but its scope has no such
    // purchase, so nothing changes; and that delivery does not mark the event done for the right endpoint.
    const twin = await deliverTo(orgWebhook(twinOrganizationId), event, ORG.webhook);
    expect(twin.statusCode, twin.body).toBe(200);
    expect((await purchaseRow(purchaseId)).status).toBe('pending');
    // The organization's secret verifies, and the state is re-read with its key.
    const delivered = await deliverTo(orgWebhook(organizationId), event, ORG.webhook);
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect(delivered.json()).toEqual({ received: true, duplicate: false });
    expect(await purchaseRow(purchaseId)).toMatchObject({ status: 'completed', organizationId });

    const analytics = await call(orgAdmin, 'GET', `/api/organizations/${organizationId}/analytics`);
    expect(analytics.statusCode, analytics.body).toBe(200);
    expect(analytics.json().products).toContainEqual({ product_id: productId, name: 'Org seat', purchases: 1, total_paid: 12.5 });
    expect(analytics.json().active.users.map((u: { user_id: number }) => u.user_id)).toContain(member.user.userId);
  });

  it("one account's state never changes another account's purchase (the webhook's scope check)", async () => {
    const product = await buildProduct(t.ctx, { organizationId, price: 9 });
    const attempt = await call(member, 'POST', `/api/checkout/attempt?${inOrg(organizationId)}`, { product_id: product.productId });
    expect(attempt.statusCode, attempt.body).toBe(200);
    const purchase = await purchaseRow(attempt.json().purchase_id);
    const intent = await orgStripe.paymentIntents.confirm(purchase.paymentProcessorId!, { payment_method: 'pm_card_visa' });
    // Read as if from the operator's account (scope null) or another organization's: nothing happens.
    for (const scope of [null, otherOrganizationId]) expect(await t.ctx.db.transaction((tx) => applyPaymentIntent(tx, intent, scope))).toEqual([]);
    expect((await purchaseRow(purchase.purchaseId)).status).toBe('pending');
    expect(await t.ctx.db.transaction((tx) => applyPaymentIntent(tx, intent, organizationId))).toHaveLength(1);
    expect((await purchaseRow(purchase.purchaseId)).status).toBe('completed');
  });

  it("an organization without keys: its checkout is refused with a clear, translated 409, never the operator's keys", async () => {
    const product = await buildProduct(t.ctx, { organizationId: otherOrganizationId, price: 5 });
    expect((await call(member, 'GET', `/api/checkout/config?${inOrg(otherOrganizationId)}`)).json().stripe).toBeNull();
    const refused = await call(member, 'POST', `/api/checkout/attempt?${inOrg(otherOrganizationId)}`, { product_id: product.productId });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'organization_payments_not_configured', message: expect.stringContaining('organization has not set up its payments') });
    const es = await t.app.inject({
      method: 'POST',
      url: `/api/checkout/attempt?${inOrg(otherOrganizationId)}`,
      headers: { ...spanishMember.auth, 'accept-language': 'es' },
      payload: { product_id: product.productId },
    });
    expect(es.statusCode).toBe(409);
    expect(es.json().message).toContain('organización');
    // Nothing was left behind.
    expect(await t.ctx.db.select().from(purchases).where(eq(purchases.productId, product.productId))).toHaveLength(0);
    expect((await call(otherAdmin, 'GET', `/api/stripe/products?${inOrg(otherOrganizationId)}`)).json().error).toBe('organization_payments_not_configured');
  });

  it("an organization product is bought only inside its organization (404 elsewhere)", async () => {
    const product = await buildProduct(t.ctx, { organizationId, price: 7 });
    expect((await call(member, 'POST', '/api/checkout/attempt', { product_id: product.productId })).statusCode).toBe(404);
    expect((await call(member, 'POST', `/api/checkout/attempt?${inOrg(otherOrganizationId)}`, { product_id: product.productId })).statusCode).toBe(404);
    expect((await call(outsider, 'POST', `/api/checkout/attempt?${inOrg(organizationId)}`, { product_id: product.productId })).statusCode).toBe(404);
  });

  it("the Stripe catalog of the organization's product screens: its Admin (or a staff admin) only, from its own account", async () => {
    const stripeProduct = await orgStripe.products.create({ name: 'Org catalog item' });
    await orgStripe.prices.create({ product: stripeProduct.id, unit_amount: 1500, currency: 'usd' });
    for (const who of [orgAdmin, staffAdmin]) {
      const products = await call(who, 'GET', `/api/stripe/products?${inOrg(organizationId)}`);
      expect(products.statusCode, products.body).toBe(200);
      expect(products.json().map((p: { id: string }) => p.id)).toContain(stripeProduct.id);
      const prices = await call(who, 'GET', `/api/stripe/prices/${stripeProduct.id}?${inOrg(organizationId)}`);
      expect(prices.statusCode, prices.body).toBe(200);
      expect(prices.json()).toEqual([expect.objectContaining({ product: stripeProduct.id, unit_amount: 1500 })]);
    }
    // Members who are not its Admin: 403; strangers (another organization's Admin, a staff manager): 404.
    for (const who of [orgManager, member]) expect((await call(who, 'GET', `/api/stripe/products?${inOrg(organizationId)}`)).statusCode).toBe(403);
    for (const who of [otherAdmin, outsider, staffManager]) {
      expect((await call(who, 'GET', `/api/stripe/products?${inOrg(organizationId)}`)).statusCode).toBe(404);
      expect((await call(who, 'GET', `/api/stripe/prices/${stripeProduct.id}?${inOrg(organizationId)}`)).statusCode).toBe(404);
    }
    // In Personal the catalog is the operator's, for staff admins only: the organization's Admin gets 403, and the
    // operator's key (refused by this emulator) is what a staff admin's lookup uses there.
    expect((await call(orgAdmin, 'GET', '/api/stripe/products')).statusCode).toBe(403);
    expect((await call(staffAdmin, 'GET', '/api/stripe/products')).statusCode).toBe(502);
    expect((await call(null, 'GET', `/api/stripe/products?${inOrg(organizationId)}`)).statusCode).toBe(401);
  });

  it("managing the organization's products: its Admin only (a Manager and a Member 403, strangers 404)", async () => {
    const body = { name: 'Not allowed', description: 'x', price: 1, word_amount: 1 };
    for (const who of [orgManager, member]) expect((await call(who, 'POST', `/api/products?${inOrg(organizationId)}`, body)).statusCode).toBe(403);
    for (const who of [otherAdmin, outsider, staffManager]) expect((await call(who, 'POST', `/api/products?${inOrg(organizationId)}`, body)).statusCode).toBe(404);
    for (const who of [orgManager, member]) expect((await call(who, 'GET', `/api/products?${inOrg(organizationId)}`)).statusCode).toBe(403);
    expect((await call(orgAdmin, 'GET', `/api/products?${inOrg(organizationId)}`)).statusCode).toBe(200);
  });

  it("a member cancels an organization subscription in the organization's Stripe account (the operator's key would be refused)", async () => {
    const price = await monthlyPrice(orgStripe, 1500);
    const { customer } = await customerWithCard(orgStripe);
    const sub = await orgStripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] });
    const product = await buildProduct(t.ctx, { organizationId, isSubscription: true, subscriptionInterval: 1, subscriptionPeriod: 'month', expirationDays: null, price: 15 });
    const purchase = await buildPurchase(t.ctx, {
      userId: member.user.userId,
      productId: product.productId,
      organizationId,
      status: 'active',
      subscriptionId: sub.id,
      subscriptionInterval: 1,
      subscriptionPeriod: 'month',
      expirationDays: 30,
    });
    const res = await call(member, 'POST', `/api/purchases/cancel/${purchase.purchaseId}?${inOrg(organizationId)}`, { cancel_reason: 'The team no longer needs it', status: 'cancelled' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await orgStripe.subscriptions.retrieve(sub.id)).cancel_at_period_end).toBe(true);
    expect(await purchaseRow(purchase.purchaseId)).toMatchObject({ status: 'cancelled', cancelReason: 'The team no longer needs it' });
  });
});
