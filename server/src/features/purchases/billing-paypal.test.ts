// Cancelling an own PayPal subscription through POST /api/purchases/cancel/{id}, against the PayPal
// emulator: PayPal cancels it (at once), the purchase keeps its reason and its access to the paid end.
import { startPayPalEmulator, type RunningPayPalEmulator } from '@pluma/emulators/paypal/index';
import { Client, SubscriptionsController } from '@paypal/paypal-server-sdk';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchases } from '../../db/schema';
import { buildProduct, buildUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { seedPaymentMethods } from '../appconfig/seed';

const CLIENT_ID = 'pluma-billing-paypal-client';
const CLIENT_SECRET = 'pluma-billing-paypal-secret';

describe('billing: cancelling a PayPal subscription', () => {
  let emulator: RunningPayPalEmulator;
  let t: TestApp;
  let subscriptions: SubscriptionsController;

  beforeAll(async () => {
    emulator = await startPayPalEmulator({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
    subscriptions = new SubscriptionsController(new Client({ clientCredentialsAuthCredentials: { oAuthClientId: CLIENT_ID, oAuthClientSecret: CLIENT_SECRET }, ...emulator.sdkOptions }));
    t = await createTestApp({ PAYPAL_CLIENT_ID: CLIENT_ID, PAYPAL_CLIENT_SECRET: CLIENT_SECRET, PAYPAL_WEBHOOK_ID: 'WH-BILLING', PAYPAL_ENVIRONMENT: 'sandbox', PAYPAL_API_URL: emulator.origin });
    await seedPaymentMethods(t.ctx);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await emulator?.close();
  });

  it('cancels it at PayPal and records the reason; access stays until the paid end', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { price: 20, isSubscription: true, subscriptionPeriod: 'month', subscriptionInterval: 1, expirationDays: null });
    const created = await t.app.inject({ method: 'POST', url: '/api/paypal/subscriptions', headers: buyer.auth, payload: { product_id: product.productId } });
    expect(created.statusCode, created.body).toBe(200);
    const { subscription_id: subscriptionId, purchase_id: purchaseId } = created.json() as { subscription_id: string; purchase_id: number };
    emulator.control.approveSubscription(subscriptionId);
    // As the activation webhook leaves it (features/paypal): active, paid to the next billing time.
    await t.ctx.db.update(purchases).set({ status: 'active', expirationDays: 30 }).where(eq(purchases.purchaseId, purchaseId));

    const res = await t.app.inject({ method: 'POST', url: `/api/purchases/cancel/${purchaseId}`, headers: buyer.auth, payload: { cancel_reason: 'Too expensive for now' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled', cancel_reason: 'Too expensive for now' });
    const { result } = await subscriptions.getSubscription({ id: subscriptionId });
    expect(result.status).toBe('CANCELLED');
    expect((await t.app.inject({ url: '/api/users', headers: buyer.auth })).json().has_access).toBe(true);

    // Cancelled again (or a subscription PayPal already ended): 409, PayPal is not called twice for nothing.
    const again = await t.app.inject({ method: 'POST', url: `/api/purchases/cancel/${purchaseId}`, headers: buyer.auth, payload: { cancel_reason: 'Too expensive for now' } });
    expect(again.statusCode).toBe(409);
  });
});
