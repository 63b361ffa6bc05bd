// The official `stripe` SDK against the emulator: customers, cards, PaymentIntents (success,
// 3-D Secure, declines), SetupIntents, idempotency, errors and catalog (customer sessions: customer-sessions.test.ts).
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStripeEmulator } from './server';
import { customerWithCard, SECRET_KEY, startWithClient } from './test-kit';

let emulator: RunningStripeEmulator;
let stripe: Stripe;

beforeAll(async () => {
  ({ emulator, stripe } = await startWithClient());
});
afterAll(() => emulator.close());

/** The SDK's error for a rejected promise, typed. */
async function rejection(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise;
  } catch (error) {
    return error as Stripe.errors.StripeError;
  }
  throw new Error('expected the call to fail');
}

describe('customers and payment methods', () => {
  it('creates, updates and lists a customer with a default card', async () => {
    const customer = await stripe.customers.create({ email: 'ana@example.com', name: 'Ana', metadata: { user_id: '42' } });
    expect(customer.id).toMatch(/^cus_/);
    expect(customer).toMatchObject({ object: 'customer', livemode: false, email: 'ana@example.com', metadata: { user_id: '42' } });
    const visa = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    const master = await stripe.paymentMethods.attach('pm_card_mastercard', { customer: customer.id });
    expect(visa.id).toMatch(/^pm_/);
    expect(visa.card).toMatchObject({ brand: 'visa', last4: '4242' });
    expect(master.card).toMatchObject({ brand: 'mastercard', last4: '4444' });
    const updated = await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: master.id }, metadata: { user_id: '' } });
    expect(updated.invoice_settings.default_payment_method).toBe(master.id);
    expect(updated.metadata).toEqual({});
    const list = await stripe.paymentMethods.list({ customer: customer.id, type: 'card' });
    expect(list.object).toBe('list');
    expect(list.has_more).toBe(false);
    expect(list.url).toBe('/v1/payment_methods');
    expect(list.data.map((pm) => pm.card?.last4).sort()).toEqual(['4242', '4444']);
    const detached = await stripe.paymentMethods.detach(master.id);
    expect(detached.customer).toBeNull();
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({ invoice_settings: { default_payment_method: null } });
    const viaCustomer = await stripe.customers.listPaymentMethods(customer.id, { type: 'card' });
    expect(viaCustomer.data.map((pm) => pm.id)).toEqual([visa.id]);
  });

  it('updates a saved card (allow_redisplay, billing details, expiry, metadata) with a payment_method.updated event; refuses a detached card and a bad value', async () => {
    const customer = await stripe.customers.create({});
    const card = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    expect(card.allow_redisplay).toBe('unspecified');
    const updated = await stripe.paymentMethods.update(card.id, { allow_redisplay: 'always', billing_details: { name: 'Ana' }, card: { exp_month: 3, exp_year: 2035 }, metadata: { kept: 'yes' } });
    expect(updated).toMatchObject({ id: card.id, allow_redisplay: 'always', billing_details: { name: 'Ana' }, card: { exp_month: 3, exp_year: 2035, last4: '4242' }, metadata: { kept: 'yes' } });
    expect((await stripe.paymentMethods.retrieve(card.id)).allow_redisplay).toBe('always');
    const [event] = (await stripe.events.list({ type: 'payment_method.updated', limit: 10 })).data.filter((e) => (e.data.object as { id: string }).id === card.id);
    expect(event.data.previous_attributes).toMatchObject({ allow_redisplay: 'unspecified' });
    // The same value again changes nothing and says nothing.
    await stripe.paymentMethods.update(card.id, { allow_redisplay: 'always' });
    expect((await stripe.events.list({ type: 'payment_method.updated', limit: 10 })).data.filter((e) => (e.data.object as { id: string }).id === card.id)).toHaveLength(1);

    const bad = await rejection(stripe.paymentMethods.update(card.id, { allow_redisplay: 'sometimes' as 'always' }));
    expect(bad).toMatchObject({ statusCode: 400, param: 'allow_redisplay' });
    await stripe.paymentMethods.detach(card.id);
    const detached = await rejection(stripe.paymentMethods.update(card.id, { allow_redisplay: 'limited' }));
    expect(detached).toMatchObject({ statusCode: 400, code: 'payment_method_unexpected_state' });
    expect((await rejection(stripe.paymentMethods.update('pm_nope', { allow_redisplay: 'always' })))).toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('refuses to attach a card that is declined, and answers 404 for unknown ids', async () => {
    const customer = await stripe.customers.create({});
    const declined = await rejection(stripe.paymentMethods.attach('pm_card_chargeDeclined', { customer: customer.id }));
    expect(declined).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(declined).toMatchObject({ statusCode: 402, type: 'StripeCardError', code: 'card_declined', decline_code: 'generic_decline' });
    const missing = await rejection(stripe.customers.retrieve('cus_nope'));
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'id', message: "No such customer: 'cus_nope'" });
  });

  it('answers 401 in Stripe’s shape for a wrong key', async () => {
    const other = new Stripe('sk_live_wrong_key_123', { ...emulator.sdkOptions, maxNetworkRetries: 0 });
    const error = await rejection(other.customers.list());
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(error.statusCode).toBe(401);
    expect(error.message).toMatch(/^Invalid API Key provided: sk_\*+_123$/);
  });

  it('creates card PaymentMethods from numbers and rejects bad numbers', async () => {
    const pm = await stripe.paymentMethods.create({ type: 'card', card: { number: '4000002500003155', exp_month: 12, exp_year: 2040, cvc: '123' } });
    expect(pm.card).toMatchObject({ brand: 'visa', last4: '3155', exp_year: 2040 });
    const bad = await rejection(stripe.paymentMethods.create({ type: 'card', card: { number: '4242424242424241', exp_month: 12, exp_year: 2040 } }));
    expect(bad).toMatchObject({ statusCode: 402, code: 'incorrect_number' });
  });
});

describe('payment intents', () => {
  it('succeeds with a good card and expands the customer', async () => {
    const { customer } = await customerWithCard(stripe);
    const pi = await stripe.paymentIntents.create({
      amount: 4900,
      currency: 'usd',
      customer: customer.id,
      payment_method: 'pm_card_visa',
      confirm: true,
      metadata: { purchase_id: '7' },
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
      expand: ['customer'],
    });
    expect(pi.id).toMatch(/^pi_/);
    expect(pi.client_secret).toMatch(new RegExp(`^${pi.id}_secret_`));
    expect(pi).toMatchObject({ object: 'payment_intent', status: 'succeeded', amount_received: 4900, metadata: { purchase_id: '7' } });
    expect((pi.customer as Stripe.Customer).email).toBe('ana@example.com');
    expect(pi.latest_charge).toMatch(/^ch_/);
  });

  it('refunds a succeeded intent once (refund.created); an intent not paid or refunded already is refused', async () => {
    const { customer } = await customerWithCard(stripe);
    const params = { amount: 1500, currency: 'usd', customer: customer.id, automatic_payment_methods: { enabled: true, allow_redirects: 'never' as const } };
    const unpaid = await stripe.paymentIntents.create(params);
    expect(await rejection(stripe.refunds.create({ payment_intent: unpaid.id }))).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError' });
    const paid = await stripe.paymentIntents.create({ ...params, payment_method: 'pm_card_visa', confirm: true });
    const refund = await stripe.refunds.create({ payment_intent: paid.id, metadata: { purchase_id: '9' } });
    expect(refund).toMatchObject({ object: 'refund', amount: 1500, payment_intent: paid.id, status: 'succeeded', metadata: { purchase_id: '9' } });
    expect(await rejection(stripe.refunds.create({ payment_intent: paid.id }))).toMatchObject({ statusCode: 400, code: 'charge_already_refunded' });
    expect((await stripe.refunds.list({ payment_intent: paid.id })).data.map((r) => r.id)).toEqual([refund.id]);
    expect((await stripe.events.list({ type: 'refund.created' })).data.some((e) => (e.data.object as { id: string }).id === refund.id)).toBe(true);
  });

  it('asks for 3-D Secure, then succeeds or fails by the challenge', async () => {
    const { customer } = await customerWithCard(stripe);
    const pi = await stripe.paymentIntents.create({ amount: 1500, currency: 'usd', customer: customer.id, payment_method: 'pm_card_authenticationRequiredOnSetup', confirm: true });
    expect(pi.status).toBe('requires_action');
    expect(pi.next_action?.type).toBe('use_stripe_sdk');
    emulator.control.completeThreeDSecure(pi.id, 'succeed');
    expect((await stripe.paymentIntents.retrieve(pi.id)).status).toBe('succeeded');

    const second = await stripe.paymentIntents.create({ amount: 1500, currency: 'usd', payment_method: 'pm_card_threeDSecure2Required', confirm: true, return_url: 'https://app.test/done' });
    expect(second.next_action).toMatchObject({ type: 'redirect_to_url', redirect_to_url: { return_url: 'https://app.test/done' } });
    emulator.control.completeThreeDSecure(second.id, 'fail');
    const failed = await stripe.paymentIntents.retrieve(second.id);
    expect(failed.status).toBe('requires_payment_method');
    expect(failed.last_payment_error).toMatchObject({ type: 'card_error', code: 'payment_intent_authentication_failure' });
  });

  it('declines with a 402 card_error carrying the intent, which keeps the error', async () => {
    const error = await rejection(stripe.paymentIntents.create({ amount: 2000, currency: 'usd', payment_method: 'pm_card_chargeDeclined', confirm: true }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({ statusCode: 402, code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' });
    const intent = error.payment_intent!;
    expect(intent.status).toBe('requires_payment_method');
    const stored = await stripe.paymentIntents.retrieve(intent.id);
    expect(stored.last_payment_error).toMatchObject({ code: 'card_declined', decline_code: 'generic_decline' });
    expect((stored.last_payment_error?.payment_method as Stripe.PaymentMethod).card?.last4).toBe('0002');
    const funds = await rejection(stripe.paymentIntents.create({ amount: 2000, currency: 'usd', payment_method: 'pm_card_chargeDeclinedInsufficientFunds', confirm: true }));
    expect(funds).toMatchObject({ code: 'card_declined', decline_code: 'insufficient_funds' });
  });

  it('fails off-session until the card is set up, then charges off-session', async () => {
    const customer = await stripe.customers.create({});
    const pm = await stripe.paymentMethods.attach('pm_card_authenticationRequiredOnSetup', { customer: customer.id });
    const error = await rejection(stripe.paymentIntents.create({ amount: 999, currency: 'usd', customer: customer.id, payment_method: pm.id, confirm: true, off_session: true }));
    expect(error).toMatchObject({ statusCode: 402, code: 'authentication_required' });

    const setup = await stripe.setupIntents.create({ customer: customer.id, payment_method: pm.id, confirm: true, usage: 'off_session' });
    expect(setup.id).toMatch(/^seti_/);
    expect(setup.status).toBe('requires_action');
    emulator.control.completeThreeDSecure(setup.id, 'succeed');
    expect((await stripe.setupIntents.retrieve(setup.id)).status).toBe('succeeded');
    const later = await stripe.paymentIntents.create({ amount: 999, currency: 'usd', customer: customer.id, payment_method: pm.id, confirm: true, off_session: true });
    expect(later.status).toBe('succeeded');
  });

  it('confirms in a second call, with setup_future_usage attaching the card', async () => {
    const customer = await stripe.customers.create({});
    const pi = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd', customer: customer.id, setup_future_usage: 'off_session' });
    expect(pi.status).toBe('requires_payment_method');
    const confirmed = await stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' });
    expect(confirmed.status).toBe('succeeded');
    const cards = await stripe.paymentMethods.list({ customer: customer.id, type: 'card' });
    expect(cards.data).toHaveLength(1);
    const again = await rejection(stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' }));
    expect(again).toMatchObject({ statusCode: 400, code: 'payment_intent_unexpected_state' });
    const small = await rejection(stripe.paymentIntents.create({ amount: 10, currency: 'usd' }));
    expect(small).toMatchObject({ statusCode: 400, code: 'amount_too_small', param: 'amount' });
  });

  it('refuses publishable keys except on the Stripe.js routes with the client secret', async () => {
    const pi = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd' });
    const browser = new Stripe('pk_test_browser', { ...emulator.sdkOptions, maxNetworkRetries: 0 });
    expect(await rejection(browser.customers.list())).toMatchObject({ statusCode: 401 });
    const wrong = await rejection(browser.paymentIntents.retrieve(pi.id, { client_secret: 'pi_x_secret_y' }));
    expect(wrong).toMatchObject({ statusCode: 400, param: 'client_secret' });
    const ok = await browser.paymentIntents.retrieve(pi.id, { client_secret: pi.client_secret! });
    expect(ok.id).toBe(pi.id);
  });
});

describe('idempotency', () => {
  it('replays the same answer for the same key and body, and refuses another body', async () => {
    const first = await stripe.customers.create({ email: 'once@example.com' }, { idempotencyKey: 'signup-1' });
    const second = await stripe.customers.create({ email: 'once@example.com' }, { idempotencyKey: 'signup-1' });
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    const all = await stripe.customers.list({ email: 'once@example.com' });
    expect(all.data).toHaveLength(1);
    const error = await rejection(stripe.customers.create({ email: 'other@example.com' }, { idempotencyKey: 'signup-1' }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(error.statusCode).toBe(400);
  });

  it('replays a decline too, without charging twice', async () => {
    const params = { amount: 2000, currency: 'usd', payment_method: 'pm_card_chargeDeclined', confirm: true };
    const a = await rejection(stripe.paymentIntents.create(params, { idempotencyKey: 'pay-1' }));
    const b = await rejection(stripe.paymentIntents.create(params, { idempotencyKey: 'pay-1' }));
    expect(b.payment_intent?.id).toBe(a.payment_intent?.id);
  });
});

describe('setup intents, catalog, coupons', () => {
  it('saves a card with a SetupIntent', async () => {
    const customer = await stripe.customers.create({});
    const si = await stripe.setupIntents.create({ customer: customer.id, payment_method: 'pm_card_visa', confirm: true });
    expect(si).toMatchObject({ object: 'setup_intent', status: 'succeeded', usage: 'off_session' });
    const pm = await stripe.paymentMethods.retrieve(si.payment_method as string);
    expect(pm.customer).toBe(customer.id);
    const declined = await rejection(stripe.setupIntents.create({ customer: customer.id, payment_method: 'pm_card_chargeDeclined', confirm: true }));
    expect(declined).toMatchObject({ statusCode: 402, code: 'card_declined' });
    expect(declined.setup_intent?.status).toBe('requires_payment_method');
  });

  it('creates and lists products and prices', async () => {
    const product = await stripe.products.create({ name: 'Words 100k', description: 'One-time pack' });
    expect(product.id).toMatch(/^prod_/);
    const once = await stripe.prices.create({ product: product.id, unit_amount: 990, currency: 'usd' });
    const yearly = await stripe.prices.create({ product: product.id, unit_amount: 9900, currency: 'usd', recurring: { interval: 'year' } });
    expect(once).toMatchObject({ type: 'one_time', recurring: null, unit_amount: 990 });
    expect(yearly).toMatchObject({ type: 'recurring', recurring: { interval: 'year', interval_count: 1 } });
    const prices = await stripe.prices.list({ product: product.id, expand: ['data.product'] });
    expect(prices.data.map((p) => p.id)).toEqual([yearly.id, once.id]);
    expect((prices.data[0].product as Stripe.Product).name).toBe('Words 100k');
    const page = await stripe.prices.list({ product: product.id, limit: 1 });
    expect(page.has_more).toBe(true);
    const next = await stripe.prices.list({ product: product.id, limit: 1, starting_after: page.data[0].id });
    expect(next.data[0].id).toBe(once.id);
    expect((await stripe.products.list({ limit: 100 })).data.some((p) => p.id === product.id)).toBe(true);
  });

  it('creates coupons by percent or amount and validates them', async () => {
    const percent = await stripe.coupons.create({ percent_off: 25, duration: 'once' });
    const amount = await stripe.coupons.create({ id: 'FIVE', amount_off: 500, currency: 'usd', duration: 'forever' });
    expect(percent).toMatchObject({ object: 'coupon', percent_off: 25, duration: 'once', valid: true });
    expect(amount).toMatchObject({ id: 'FIVE', amount_off: 500, currency: 'usd' });
    expect(await rejection(stripe.coupons.create({ amount_off: 500, duration: 'once' }))).toMatchObject({ statusCode: 400, param: 'currency' });
    expect((await stripe.coupons.retrieve('FIVE')).amount_off).toBe(500);
  });

  it('logs the API calls it received', () => {
    expect(emulator.requests.some((r) => r.path === '/v1/customers' && r.method === 'POST')).toBe(true);
    expect(SECRET_KEY).toMatch(/^sk_test_/);
  });
});
