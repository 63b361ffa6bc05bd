// Webhook delivery with PayPal's transmission headers, verify-webhook-signature (SUCCESS only for a
// genuine delivery), duplicates, held events released out of order, retries, the Notifications
// API and the HTTP control routes.
import { CheckoutPaymentIntent, type OrdersController } from '@paypal/paypal-server-sdk';
import { createPublicKey, verify } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPayPalEmulator } from './server';
import { fetcher, startReceiver, startWithClient, verifyBody, type Received } from './test-kit';
import { signedMessage } from './webhooks';

let emulator: RunningPayPalEmulator;
let orders: OrdersController;
let call: ReturnType<typeof fetcher>;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
const WEBHOOK_ID = '4JH86294D6297924G';

beforeAll(async () => {
  ({ emulator, orders } = await startWithClient());
  call = fetcher(emulator);
});
afterAll(() => emulator.close());
afterEach(async () => {
  for (const id of [...emulator.webhooks.endpoints.keys()]) emulator.webhooks.removeEndpoint(id);
  emulator.webhooks.configure({ delayMs: 0, duplicates: 1, concurrent: false, hold: false, maxAttempts: 3 });
  await emulator.webhooks.flush();
  emulator.webhooks.clear();
  await receiver?.close();
  receiver = undefined;
});

async function listen(events?: string[], answer?: Parameters<typeof startReceiver>[0]) {
  receiver = await startReceiver(answer);
  emulator.webhooks.addEndpoint({ url: receiver.url, id: WEBHOOK_ID, events });
  return receiver;
}

async function approvedAndCaptured(customId = '77') {
  const { result } = await orders.createOrder({ body: { intent: CheckoutPaymentIntent.Capture, purchaseUnits: [{ customId, amount: { currencyCode: 'USD', value: '10.00' } }] } });
  emulator.control.approveOrder(result.id!);
  await orders.captureOrder({ id: result.id! });
  await emulator.webhooks.flush();
  return result.id!;
}

const verifyStatus = async (body: string) => (await call('POST', '/v1/notifications/verify-webhook-signature', body)).body.verification_status;

describe('webhook delivery and verification', () => {
  it('delivers with PayPal headers; verify-webhook-signature says SUCCESS for the genuine delivery only', async () => {
    await listen(['PAYMENT.CAPTURE.COMPLETED']);
    const orderId = await approvedAndCaptured();
    expect(receiver!.received).toHaveLength(1);
    const [delivery] = receiver!.received;
    expect(delivery.headers).toMatchObject({
      'content-type': 'application/json',
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': emulator.certUrl,
      'paypal-transmission-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
      'paypal-transmission-time': expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      'paypal-transmission-sig': expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
    });
    const event = receiver!.events()[0];
    expect(event).toMatchObject({ event_type: 'PAYMENT.CAPTURE.COMPLETED', event_version: '1.0', resource_type: 'capture', resource_version: '2.0' });
    expect(event.id).toMatch(/^WH-[A-Z0-9]{17}-[A-Z0-9]{17}$/);
    expect(event.resource).toMatchObject({ status: 'COMPLETED', custom_id: '77', supplementary_data: { related_ids: { order_id: orderId } } });

    expect(await verifyStatus(verifyBody(delivery, WEBHOOK_ID))).toBe('SUCCESS');
    // Re-serialised (other key order, spacing) is still the same event.
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(delivery.body) as object).reverse()), null, 2);
    expect(await verifyStatus(verifyBody(delivery, WEBHOOK_ID, reordered))).toBe('SUCCESS');

    expect(await verifyStatus(verifyBody(delivery, WEBHOOK_ID, delivery.body.replace('"10.00"', '"1000.00"')))).toBe('FAILURE');
    expect(await verifyStatus(verifyBody(delivery, 'WRONGWEBHOOKID00'))).toBe('FAILURE');
    const forged: Received = { headers: { ...delivery.headers, 'paypal-transmission-sig': Buffer.from('forged').toString('base64') }, body: delivery.body };
    expect(await verifyStatus(verifyBody(forged, WEBHOOK_ID))).toBe('FAILURE');
    const otherCert: Received = { headers: { ...delivery.headers, 'paypal-cert-url': 'https://evil.example/cert' }, body: delivery.body };
    expect(await verifyStatus(verifyBody(otherCert, WEBHOOK_ID))).toBe('FAILURE');
    const unknownEvent = delivery.body.replace(event.id, 'WH-00000000000000000-00000000000000000');
    expect(await verifyStatus(verifyBody(delivery, WEBHOOK_ID, unknownEvent))).toBe('FAILURE');

    const missing = await call('POST', '/v1/notifications/verify-webhook-signature', { webhook_id: WEBHOOK_ID });
    expect(missing.status).toBe(400);
    expect(missing.body.details?.map((d) => d.field)).toContain('/transmission_sig');
  });

  it('signs with PayPal\'s scheme, checkable offline with the key at paypal-cert-url', async () => {
    await listen(['CHECKOUT.ORDER.APPROVED']);
    await approvedAndCaptured();
    const [delivery] = receiver!.received;
    const h = (name: string) => String(delivery.headers[name]);
    const pem = await (await fetch(h('paypal-cert-url'))).text();
    const message = signedMessage(h('paypal-transmission-id'), h('paypal-transmission-time'), WEBHOOK_ID, delivery.body);
    expect(verify('sha256', Buffer.from(message), createPublicKey(pem), Buffer.from(h('paypal-transmission-sig'), 'base64'))).toBe(true);
    expect(verify('sha256', Buffer.from(message.replace(WEBHOOK_ID, 'OTHER')), createPublicKey(pem), Buffer.from(h('paypal-transmission-sig'), 'base64'))).toBe(false);
  });

  it('sends duplicates (same event, each its own verifiable transmission), at once when asked', async () => {
    await listen(['PAYMENT.CAPTURE.COMPLETED']);
    emulator.webhooks.configure({ duplicates: 5, concurrent: true });
    await approvedAndCaptured();
    const events = receiver!.events();
    expect(events).toHaveLength(5);
    expect(new Set(events.map((e) => e.id)).size).toBe(1);
    expect(new Set(receiver!.received.map((r) => r.headers['paypal-transmission-id'])).size).toBe(5);
    const statuses = await Promise.all(receiver!.received.map((r) => verifyStatus(verifyBody(r, WEBHOOK_ID))));
    expect(statuses).toEqual(Array(5).fill('SUCCESS'));
  });

  it('holds events and releases them in reverse order', async () => {
    await listen();
    emulator.webhooks.configure({ hold: true });
    const orderId = await approvedAndCaptured();
    expect(receiver!.received).toHaveLength(0);
    expect(emulator.webhooks.heldCount).toBe(2);
    const released = await fetch(`${emulator.origin}/_emulator/webhooks/release`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order: 'reverse' }) });
    expect(await released.json()).toEqual({ released: 2 });
    await fetch(`${emulator.origin}/_emulator/webhooks/flush`, { method: 'POST' });
    expect(receiver!.events().map((e) => e.event_type)).toEqual(['PAYMENT.CAPTURE.COMPLETED', 'CHECKOUT.ORDER.APPROVED']);
    expect(receiver!.events()[1].resource).toMatchObject({ id: orderId, status: 'APPROVED' });
  });

  it('retries non-2xx answers with backoff, logs every attempt, and redelivers on demand', async () => {
    await listen(['CHECKOUT.ORDER.APPROVED'], (_r, i) => (i < 2 ? 500 : 200));
    await approvedAndCaptured();
    expect(emulator.webhooks.deliveries.filter((d) => d.webhook_id === WEBHOOK_ID).map((d) => [d.attempt, d.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    // Each retry is a new transmission, and each verifies.
    expect(new Set(receiver!.received.map((r) => r.headers['paypal-transmission-sig'])).size).toBe(3);
    expect(await verifyStatus(verifyBody(receiver!.received[0], WEBHOOK_ID))).toBe('SUCCESS');

    const eventId = receiver!.events()[0].id;
    const redelivered = await fetch(`${emulator.origin}/_emulator/events/${eventId}/redeliver`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ times: 2 }) });
    expect(redelivered.status).toBe(200);
    await emulator.webhooks.flush();
    expect(receiver!.events().map((e) => e.id)).toEqual(Array(5).fill(eventId));
    const deliveries = (await (await fetch(`${emulator.origin}/_emulator/webhooks/deliveries`)).json()) as { data: { event_id: string }[] };
    expect(deliveries.data.filter((d) => d.event_id === eventId)).toHaveLength(5);
  });

  it('registers webhooks through the Notifications API and serves events and resends', async () => {
    receiver = await startReceiver();
    const created = await call('POST', '/v1/notifications/webhooks', { url: receiver.url, event_types: [{ name: 'BILLING.SUBSCRIPTION.CREATED' }] });
    expect(created.status).toBe(201);
    const webhookId = String(created.body.id);
    expect((await call('GET', '/v1/notifications/webhooks')).body.webhooks).toEqual([expect.objectContaining({ id: webhookId, url: receiver.url })]);
    const product = await call('POST', '/v1/catalogs/products', { name: 'P', type: 'DIGITAL' });
    const plan = await call('POST', '/v1/billing/plans', { product_id: product.body.id, name: 'M', billing_cycles: [{ frequency: { interval_unit: 'MONTH' }, tenure_type: 'REGULAR', sequence: 1, total_cycles: 0, pricing_scheme: { fixed_price: { currency_code: 'USD', value: '5' } } }] });
    await call('POST', '/v1/billing/subscriptions', { plan_id: plan.body.id });
    await emulator.webhooks.flush();
    expect(receiver.events().map((e) => e.event_type)).toEqual(['BILLING.SUBSCRIPTION.CREATED']);
    expect(await verifyStatus(verifyBody(receiver.received[0], webhookId))).toBe('SUCCESS');

    const eventId = receiver.events()[0].id;
    expect((await call('GET', `/v1/notifications/webhooks-events/${eventId}`)).body).toMatchObject({ id: eventId, event_type: 'BILLING.SUBSCRIPTION.CREATED' });
    expect((await call('POST', `/v1/notifications/webhooks-events/${eventId}/resend`, {})).status).toBe(202);
    await emulator.webhooks.flush();
    expect(receiver.received).toHaveLength(2);
    expect((await call('DELETE', `/v1/notifications/webhooks/${webhookId}`)).status).toBe(204);
  });

  it('forgets everything on reset, except tokens, so the SDK keeps working', async () => {
    await approvedAndCaptured();
    const reset = await fetch(`${emulator.origin}/_emulator/reset`, { method: 'POST' });
    expect(await reset.json()).toEqual({ reset: true });
    expect(emulator.core.ctx.state.orders.size).toBe(0);
    expect(emulator.control.events()).toEqual([]);
    await approvedAndCaptured();
    expect(emulator.core.ctx.state.orders.size).toBe(1);
  });
});
