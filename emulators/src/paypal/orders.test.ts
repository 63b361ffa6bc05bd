// Orders through the real @paypal/paypal-server-sdk: OAuth, create, the buyer's approval (control
// route and approve page), capture, capture before approval, idempotency, capture outcomes.
import { ApiError, CheckoutPaymentIntent, CustomError, OrderStatus, type OrdersController, type PaymentsController } from '@paypal/paypal-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPayPalEmulator } from './server';
import { CLIENT_ID, CLIENT_SECRET, fetcher, startWithClient } from './test-kit';

let emulator: RunningPayPalEmulator;
let orders: OrdersController;
let payments: PaymentsController;
let call: ReturnType<typeof fetcher>;

beforeAll(async () => {
  ({ emulator, orders, payments } = await startWithClient());
  call = fetcher(emulator);
});
afterAll(() => emulator.close());

const oneTime = (value = '49.00', extra: Record<string, unknown> = {}) => ({
  intent: CheckoutPaymentIntent.Capture,
  purchaseUnits: [{ referenceId: 'purchase-7', customId: '7', description: 'Pluma Pro (one-time)', amount: { currencyCode: 'USD', value } }],
  ...extra,
});

async function sdkError(promise: Promise<unknown>): Promise<CustomError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as CustomError;
}

const control = async (path: string, body: unknown = {}) => {
  const response = await fetch(`${emulator.origin}/_emulator${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('OAuth2 token', () => {
  it('gives a Bearer token for the right Basic credentials only, and the API takes it', async () => {
    const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const ok = await fetch(`${emulator.origin}/v1/oauth2/token`, { method: 'POST', headers: { ...form, authorization: basic(CLIENT_ID, CLIENT_SECRET) }, body: 'grant_type=client_credentials' });
    expect(ok.status).toBe(200);
    const token = (await ok.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 32400 });

    const wrong = await fetch(`${emulator.origin}/v1/oauth2/token`, { method: 'POST', headers: { ...form, authorization: basic(CLIENT_ID, 'nope') }, body: 'grant_type=client_credentials' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'invalid_client', error_description: 'Client Authentication failed' });
    const grant = await fetch(`${emulator.origin}/v1/oauth2/token`, { method: 'POST', headers: { ...form, authorization: basic(CLIENT_ID, CLIENT_SECRET) }, body: 'grant_type=password' });
    expect(grant.status).toBe(400);

    const list = await fetch(`${emulator.origin}/v1/catalogs/products`, { headers: { authorization: `Bearer ${token.access_token}` } });
    expect(list.status).toBe(200);
    const bad = await fetch(`${emulator.origin}/v1/catalogs/products`, { headers: { authorization: 'Bearer A21AAforged' } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ name: 'AUTHENTICATION_FAILURE', debug_id: expect.any(String) });
  });

  it('lets the SDK fetch its token once and reuse it', async () => {
    const tokenCalls = () => emulator.requests.filter((r) => r.path === '/v1/oauth2/token').length;
    const before = tokenCalls();
    await orders.createOrder({ body: oneTime() });
    expect(tokenCalls() - before).toBe(1);
    await orders.createOrder({ body: oneTime() });
    await orders.getOrder({ id: (await orders.createOrder({ body: oneTime() })).result.id! });
    expect(tokenCalls() - before).toBe(1);
  });
});

describe('orders', () => {
  it('creates an order (minimal answer by default), shows it whole on GET', async () => {
    const { statusCode, result } = await orders.createOrder({ body: oneTime() });
    expect(statusCode).toBe(201);
    expect(result.id).toMatch(/^[A-Z0-9]{17}$/);
    expect(result.status).toBe(OrderStatus.Created);
    expect(result.purchaseUnits).toBeUndefined();
    const approve = result.links?.find((l) => l.rel === 'approve');
    expect(approve?.href).toBe(`${emulator.origin}/checkoutnow?token=${result.id}`);

    const { result: full } = await orders.getOrder({ id: result.id! });
    expect(full).toMatchObject({ id: result.id, intent: 'CAPTURE', status: 'CREATED' });
    expect(full.purchaseUnits?.[0]).toMatchObject({ referenceId: 'purchase-7', customId: '7', amount: { currencyCode: 'USD', value: '49.00' } });

    const represented = await orders.createOrder({ body: oneTime('5.00'), prefer: 'return=representation' });
    expect(represented.result.purchaseUnits?.[0].amount?.value).toBe('5.00');
  });

  it('refuses to capture before the buyer approves (422 ORDER_NOT_APPROVED), then captures once approved', async () => {
    const { result: created } = await orders.createOrder({ body: oneTime() });
    const id = created.id!;
    const refused = await sdkError(orders.captureOrder({ id, paypalRequestId: `capture-${id}` }));
    expect(refused.statusCode).toBe(422);
    expect(refused.result).toMatchObject({ name: 'UNPROCESSABLE_ENTITY', debug_id: expect.any(String), details: [{ issue: 'ORDER_NOT_APPROVED', description: expect.any(String) }] });

    const approved = await control(`/orders/${id}/approve`, { payer: { email_address: 'ana@example.com' } });
    expect(approved.body).toMatchObject({ status: 'APPROVED', payer: { email_address: 'ana@example.com' } });

    // The same PayPal-Request-Id as the refused attempt: failures are not stored.
    const { statusCode, result } = await orders.captureOrder({ id, paypalRequestId: `capture-${id}` });
    expect(statusCode).toBe(201);
    expect(result.status).toBe(OrderStatus.Completed);
    const capture = result.purchaseUnits![0].payments!.captures![0];
    expect(capture).toMatchObject({ status: 'COMPLETED', amount: { currencyCode: 'USD', value: '49.00' }, customId: '7', finalCapture: true });
    expect(capture.id).toMatch(/^[A-Z0-9]{17}$/);
    expect(capture.sellerReceivableBreakdown?.netAmount?.value).toBe('46.80');

    // A retry with the same id replays the capture; another id finds it already captured.
    const replay = await orders.captureOrder({ id, paypalRequestId: `capture-${id}` });
    expect(replay.result.purchaseUnits![0].payments!.captures![0].id).toBe(capture.id);
    const twice = await sdkError(orders.captureOrder({ id, paypalRequestId: 'another' }));
    expect(twice.statusCode).toBe(422);
    expect(twice.result?.details?.[0].issue).toBe('ORDER_ALREADY_CAPTURED');

    const { result: fetched } = await payments.getCapturedPayment({ captureId: capture.id! });
    expect(fetched).toMatchObject({ id: capture.id, status: 'COMPLETED', customId: '7' });
    expect((await orders.getOrder({ id })).result.status).toBe('COMPLETED');

    // A refund sends the whole capture back, once (PayPal-Request-Id replays; another refund is 422).
    const refund = await call('POST', `/v2/payments/captures/${capture.id}/refund`, {}, { 'PayPal-Request-Id': `refund-${capture.id}` });
    expect(refund.status).toBe(201);
    expect(refund.body).toMatchObject({ status: 'COMPLETED', amount: { currency_code: 'USD', value: '49.00' } });
    expect((await call('POST', `/v2/payments/captures/${capture.id}/refund`, {}, { 'PayPal-Request-Id': `refund-${capture.id}` })).body).toEqual(refund.body);
    const again = await call('POST', `/v2/payments/captures/${capture.id}/refund`, {}, { 'PayPal-Request-Id': 'another-refund' });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ details: [{ issue: 'CAPTURE_FULLY_REFUNDED' }] });
    expect((await payments.getCapturedPayment({ captureId: capture.id! })).result.status).toBe('REFUNDED');
  });

  it('honours PayPal-Request-Id on create: same body → the same order; other body → 422', async () => {
    const key = 'create-purchase-41';
    const first = await orders.createOrder({ body: oneTime('12.00'), paypalRequestId: key });
    const again = await orders.createOrder({ body: oneTime('12.00'), paypalRequestId: key });
    expect(again.result.id).toBe(first.result.id);
    expect(emulator.core.ctx.state.orders.has(first.result.id!)).toBe(true);
    const other = await sdkError(orders.createOrder({ body: oneTime('13.00'), paypalRequestId: key }));
    expect(other.statusCode).toBe(422);
    expect(other.result?.details?.[0].issue).toBe('PAYPAL_REQUEST_ID_PREVIOUSLY_USED');
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => orders.createOrder({ body: oneTime('14.00'), paypalRequestId: 'concurrent-1' })));
    expect(new Set(concurrent.map((r) => r.result.id)).size).toBe(1);
  });

  it('answers bad bodies with 400 INVALID_REQUEST and unknown ids with 404', async () => {
    const bad = await call('POST', '/v2/checkout/orders', { intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'usd', value: '1.999' } }] });
    expect(bad.status).toBe(400);
    expect(bad.body.name).toBe('INVALID_REQUEST');
    expect(bad.body.details?.map((d) => d.field)).toEqual(['/purchase_units/0/amount/currency_code', '/purchase_units/0/amount/value']);
    const missing = await call('POST', '/v2/checkout/orders', { intent: 'CAPTURE' });
    expect(missing.body.details?.[0]).toMatchObject({ field: '/purchase_units', issue: 'MISSING_REQUIRED_PARAMETER' });
    const unknown = await sdkError(orders.getOrder({ id: 'NOPE' }));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.result).toMatchObject({ name: 'RESOURCE_NOT_FOUND' });
  });

  it('has a buyer page at the approve link whose buttons redirect to return_url / cancel_url', async () => {
    const context = { returnUrl: 'http://app.test/checkout/paypal/return?purchase=9', cancelUrl: 'http://app.test/checkout/paypal/cancel' };
    const { result } = await orders.createOrder({ body: oneTime('9.00', { paymentSource: { paypal: { experienceContext: context } } }) });
    expect(result.status).toBe('PAYER_ACTION_REQUIRED');
    const href = result.links!.find((l) => l.rel === 'payer-action')!.href;
    const page = await fetch(href);
    const html = await page.text();
    expect(html).toContain('9.00 USD');
    expect(html).toMatch(/<button name="action" value="approve"[^>]*>Approve<\/button>/);

    const cancelled = await fetch(href, { method: 'POST', body: new URLSearchParams({ action: 'cancel' }), redirect: 'manual' });
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('location')).toBe(`${context.cancelUrl}?token=${result.id}`);

    const approved = await fetch(href, { method: 'POST', body: new URLSearchParams({ action: 'approve' }), redirect: 'manual' });
    const location = new URL(approved.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('http://app.test/checkout/paypal/return');
    expect(Object.fromEntries(location.searchParams)).toEqual({ purchase: '9', token: result.id, PayerID: expect.stringMatching(/^[A-Z0-9]{13}$/) });
    const captured = await orders.captureOrder({ id: result.id! });
    expect(captured.result.paymentSource?.paypal?.emailAddress).toBe('buyer@example.com');
  });

  it('plays the capture outcome the buyer was given: declined, pending then denied, instrument declined', async () => {
    const create = async () => (await orders.createOrder({ body: oneTime('30.00') })).result.id!;

    const declined = await create();
    emulator.control.approveOrder(declined, { capture: 'DECLINED' });
    const d = await orders.captureOrder({ id: declined });
    expect(d.result.status).toBe('COMPLETED');
    expect(d.result.purchaseUnits![0].payments!.captures![0].status).toBe('DECLINED');

    const pending = await create();
    emulator.control.approveOrder(pending, { capture: 'PENDING' });
    const p = await orders.captureOrder({ id: pending });
    const pendingCapture = p.result.purchaseUnits![0].payments!.captures![0];
    expect(pendingCapture).toMatchObject({ status: 'PENDING', statusDetails: { reason: 'PENDING_REVIEW' } });
    expect((await control(`/captures/${pendingCapture.id}/deny`)).body).toMatchObject({ status: 'DECLINED' });
    expect((await control(`/captures/${pendingCapture.id}/deny`)).status).toBe(422);

    const instrument = await create();
    emulator.control.approveOrder(instrument, { capture: 'INSTRUMENT_DECLINED' });
    const i = await sdkError(orders.captureOrder({ id: instrument }));
    expect(i.result?.details?.[0].issue).toBe('INSTRUMENT_DECLINED');
    const mocked = await create();
    emulator.control.approveOrder(mocked);
    const m = await sdkError(orders.captureOrder({ id: mocked, paypalMockResponse: '{"mock_application_codes":"INSTRUMENT_DECLINED"}' }));
    expect(m.statusCode).toBe(422);
    expect((await orders.captureOrder({ id: mocked })).result.status).toBe('COMPLETED');

    const types = emulator.control.events().map((e) => e.event_type);
    expect(types).toEqual(expect.arrayContaining(['CHECKOUT.ORDER.APPROVED', 'PAYMENT.CAPTURE.DECLINED', 'PAYMENT.CAPTURE.PENDING', 'PAYMENT.CAPTURE.DENIED', 'PAYMENT.CAPTURE.COMPLETED']));
    const denied = emulator.control.events().find((e) => e.event_type === 'PAYMENT.CAPTURE.DENIED')!;
    expect(denied.resource).toMatchObject({ id: pendingCapture.id, status: 'DECLINED', custom_id: '7', supplementary_data: { related_ids: { order_id: pending } } });
  });
});
