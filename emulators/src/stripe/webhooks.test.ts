// Webhook delivery: Stripe's signature scheme checked by the SDK's own constructEvent, duplicates,
// held events released out of order, retries, delays, the events API and the HTTP control routes.
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStripeEmulator } from './server';
import { customerWithCard, monthlyPrice, startReceiver, startWithClient } from './test-kit';

let emulator: RunningStripeEmulator;
let stripe: Stripe;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const SECRET = 'whsec_test_secret_for_pluma';

beforeAll(async () => {
  ({ emulator, stripe } = await startWithClient());
});
afterAll(() => emulator.close());
afterEach(async () => {
  for (const id of [...emulator.webhooks.endpoints.keys()]) emulator.webhooks.removeEndpoint(id);
  emulator.webhooks.configure({ delayMs: 0, duplicates: 1, concurrent: false, hold: false, maxAttempts: 3 });
  await emulator.webhooks.flush();
  await receiver?.close();
});

async function listen(answer?: Parameters<typeof startReceiver>[0], events?: string[]) {
  receiver = await startReceiver(answer);
  emulator.webhooks.addEndpoint({ url: receiver.url, secret: SECRET, events });
  return receiver;
}

describe('webhook delivery', () => {
  it('signs every delivery so stripe.webhooks.constructEvent accepts it, and tampering fails', async () => {
    await listen(undefined, ['payment_intent.succeeded']);
    const pi = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, metadata: { purchase_id: '9' } }, { idempotencyKey: 'k-9' });
    await emulator.webhooks.flush();
    expect(receiver.received).toHaveLength(1);
    const [{ body, headers }] = receiver.received;
    expect(headers['stripe-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const event = stripe.webhooks.constructEvent(body, headers['stripe-signature'] as string, SECRET);
    expect(event.id).toMatch(/^evt_/);
    expect(event).toMatchObject({ object: 'event', type: 'payment_intent.succeeded', livemode: false, api_version: '2026-10-28.endive', pending_webhooks: 1 });
    expect(event.request).toMatchObject({ idempotency_key: 'k-9' });
    expect((event.data.object as Stripe.PaymentIntent)).toMatchObject({ id: pi.id, status: 'succeeded', metadata: { purchase_id: '9' } });
    expect(() => stripe.webhooks.constructEvent(body.replace('succeeded', 'canceled'), headers['stripe-signature'] as string, SECRET)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(() => stripe.webhooks.constructEvent(body, headers['stripe-signature'] as string, 'whsec_other')).toThrow(Stripe.errors.StripeSignatureVerificationError);

    const fetched = await stripe.events.retrieve(event.id);
    expect(fetched.type).toBe('payment_intent.succeeded');
    const listed = await stripe.events.list({ type: 'payment_intent.*', limit: 100 });
    expect(listed.data.map((e) => e.id)).toContain(event.id);
    expect(emulator.webhooks.deliveries.at(-1)).toMatchObject({ event_id: event.id, status: 200, attempt: 1 });
  });

  it('sends the same event N times at once when asked for duplicates', async () => {
    await listen(undefined, ['customer.created']);
    emulator.webhooks.configure({ duplicates: 5, concurrent: true });
    const customer = await stripe.customers.create({ email: 'dup@example.com' });
    await emulator.webhooks.flush();
    const events = receiver.events();
    expect(events).toHaveLength(5);
    expect(new Set(events.map((e) => e.id)).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect((events[0].data.object as Stripe.Customer).id).toBe(customer.id);
  });

  it('holds events and releases them in reverse order', async () => {
    await listen(undefined, ['customer.subscription.created', 'customer.subscription.deleted', 'invoice.paid']);
    emulator.webhooks.configure({ hold: true });
    const price = await monthlyPrice(stripe);
    const { customer } = await customerWithCard(stripe);
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] });
    await stripe.subscriptions.cancel(sub.id);
    await emulator.webhooks.flush();
    expect(receiver.received).toHaveLength(0);
    expect(emulator.webhooks.heldCount).toBe(3);
    expect(emulator.webhooks.release('reverse')).toBe(3);
    await emulator.webhooks.flush();
    expect(receiver.events().map((e) => e.type)).toEqual(['customer.subscription.deleted', 'customer.subscription.created', 'invoice.paid']);
  });

  it('retries non-2xx answers with backoff and logs every attempt', async () => {
    await listen((_r, index) => (index < 2 ? 500 : 200), ['customer.created']);
    const started = Date.now();
    await stripe.customers.create({});
    await emulator.webhooks.flush();
    const attempts = emulator.webhooks.deliveries.filter((d) => d.endpoint_id === [...emulator.webhooks.endpoints.keys()][0]);
    expect(attempts.map((d) => [d.attempt, d.status])).toEqual([[1, 500], [2, 500], [3, 200]]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(5 + 10);
  });

  it('delays deliveries on demand and can redeliver an event', async () => {
    await listen(undefined, ['customer.created']);
    emulator.webhooks.configure({ delayMs: 150 });
    await stripe.customers.create({});
    await new Promise((r) => setTimeout(r, 50));
    expect(receiver.received).toHaveLength(0);
    await emulator.webhooks.flush();
    expect(receiver.received).toHaveLength(1);
    emulator.webhooks.configure({ delayMs: 0 });
    emulator.webhooks.redeliver(receiver.events()[0].id, 2);
    await emulator.webhooks.flush();
    expect(new Set(receiver.events().map((e) => e.id)).size).toBe(1);
    expect(receiver.received).toHaveLength(3);
  });
});

describe('control API over HTTP', () => {
  const control = (path: string, body?: unknown, method = 'POST') =>
    fetch(`${emulator.origin}/_emulator${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

  it('adds an endpoint, renews a subscription (invoice.paid delivered) and lists deliveries', async () => {
    receiver = await startReceiver();
    const endpoint = await control('/webhooks/endpoints', { url: receiver.url, events: ['invoice.paid', 'invoice.payment_failed', 'customer.subscription.updated'] });
    expect(endpoint.body.secret).toMatch(/^whsec_/);
    const price = await monthlyPrice(stripe, 4000);
    const { customer } = await customerWithCard(stripe);
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] });
    await control('/webhooks/flush');
    receiver.received.length = 0;

    const renewed = await control(`/subscriptions/${sub.id}/advance`, {});
    expect(renewed.body.status).toBe('active');
    await control('/webhooks/flush');
    const events = receiver.received.map((r) => stripe.webhooks.constructEvent(r.body, r.headers['stripe-signature'] as string, endpoint.body.secret as string));
    const paid = events.find((e) => e.type === 'invoice.paid')!.data.object as Stripe.Invoice;
    expect(paid).toMatchObject({ billing_reason: 'subscription_cycle', amount_paid: 4000, status: 'paid' });
    expect(paid.lines.data[0].period.start).toBe(sub.items.data[0].current_period_end);
    const updated = events.find((e) => e.type === 'customer.subscription.updated')!;
    expect(updated.data.previous_attributes).toHaveProperty('items');

    const failed = await control(`/subscriptions/${sub.id}/advance`, { outcome: 'fail' });
    expect(failed.body.status).toBe('past_due');
    const deliveries = await control('/webhooks/deliveries', undefined, 'GET');
    const ours = (deliveries.body.data as { status: number; endpoint_id: string }[]).filter((d) => d.endpoint_id === endpoint.body.id);
    expect(ours.length).toBeGreaterThanOrEqual(4);
    expect(ours.every((d) => d.status === 200)).toBe(true);
    await control(`/webhooks/endpoints/${endpoint.body.id as string}`, undefined, 'DELETE');
  });

  it('completes 3-D Secure, forces statuses, serves the Stripe.js stand-in and answers CORS preflights', async () => {
    const pi = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd', payment_method: 'pm_card_authenticationRequired', confirm: true });
    const done = await control(`/3ds/${pi.id}`, { outcome: 'succeed' });
    expect(done.body.status).toBe('succeeded');
    const price = await monthlyPrice(stripe);
    const { customer } = await customerWithCard(stripe);
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] });
    expect((await control(`/subscriptions/${sub.id}/status`, { status: 'unpaid' })).body.status).toBe('unpaid');
    expect((await control(`/subscriptions/${sub.id}/status`, { status: 'nope' })).status).toBe(400);

    const redirected = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd', payment_method: 'pm_card_authenticationRequired', confirm: true, return_url: 'http://app.test/thankyou/5' });
    const page = await fetch(redirected.next_action!.redirect_to_url!.url!);
    expect(await page.text()).toContain('<button>Complete</button>');
    const back = await fetch(`${emulator.origin}/_emulator/3ds/${redirected.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `outcome=succeed&return_url=${encodeURIComponent('http://app.test/thankyou/5')}`,
      redirect: 'manual',
    });
    expect(back.status).toBe(303);
    const location = new URL(back.headers.get('location')!);
    expect(location.searchParams.get('payment_intent')).toBe(redirected.id);
    expect(location.searchParams.get('redirect_status')).toBe('succeeded');

    const script = await fetch(`${emulator.origin}/_emulator/stripe.js`);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(await script.text()).toContain('window.Stripe = function Stripe');
    const preflight = await fetch(`${emulator.origin}/v1/payment_intents/x/confirm`, {
      method: 'OPTIONS',
      headers: { origin: 'http://app.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://app.test');
  });
});
