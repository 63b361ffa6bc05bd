// Customer sessions through the official `stripe` SDK, and the Payment Element's session data that
// Stripe.js reads with the session's client secret (GET /v1/elements/sessions, publishable key).
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStripeEmulator } from './server';
import { startWithClient } from './test-kit';

let emulator: RunningStripeEmulator;
let stripe: Stripe;

beforeAll(async () => {
  ({ emulator, stripe } = await startWithClient());
});
afterAll(() => emulator.close());

async function rejection(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise;
  } catch (error) {
    return error as Stripe.errors.StripeError;
  }
  throw new Error('expected the call to fail');
}

/** A card on the customer with the given allow_redisplay (as a checkout with or without the save box leaves it). */
async function savedCard(customer: string, number: string, allowRedisplay: Stripe.PaymentMethodCreateParams.AllowRedisplay) {
  const pm = await stripe.paymentMethods.create({ type: 'card', card: { number, exp_month: 12, exp_year: 2034, cvc: '123' }, allow_redisplay: allowRedisplay });
  return stripe.paymentMethods.attach(pm.id, { customer });
}

/** What Stripe.js reads: the elements session of a customer session, with a publishable key. */
async function elementsSession(clientSecret: string) {
  const url = new URL('/v1/elements/sessions', emulator.origin);
  url.searchParams.set('key', 'pk_test_pluma');
  url.searchParams.set('customer_session_client_secret', clientSecret);
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as { customer?: { payment_methods: Stripe.PaymentMethod[]; customer_session: Record<string, unknown> }; error?: { message: string; code?: string } } };
}

const paymentElement = (features: Stripe.CustomerSessionCreateParams.Components.PaymentElement.Features) => ({ payment_element: { enabled: true, features } });

describe('customer sessions', () => {
  it('creates one with the Payment Element and its features, Stripe defaults filled in', async () => {
    const customer = await stripe.customers.create({ email: 'ana@example.com' });
    const session = await stripe.customerSessions.create({
      customer: customer.id,
      components: paymentElement({ payment_method_redisplay: 'enabled', payment_method_save: 'enabled', payment_method_save_usage: 'off_session' }),
    });
    expect(session).toMatchObject({ object: 'customer_session', customer: customer.id, livemode: false });
    expect(session.client_secret).toMatch(/^cuss_secret_\w{40}$/);
    expect(session.expires_at - session.created).toBe(30 * 60);
    expect(Object.keys(session)).not.toContain('id');
    expect(session.components?.payment_element).toEqual({
      enabled: true,
      features: {
        payment_method_allow_redisplay_filters: ['always'],
        payment_method_redisplay: 'enabled',
        payment_method_redisplay_limit: 3,
        payment_method_remove: 'disabled',
        payment_method_save: 'enabled',
        payment_method_save_usage: 'off_session',
      },
    });
    expect(session.components?.buy_button).toEqual({ enabled: false });
  });

  it('refuses a missing or unknown customer, no enabled component, and bad feature values', async () => {
    const customer = await stripe.customers.create({});
    const unknown = await rejection(stripe.customerSessions.create({ customer: 'cus_nope', components: paymentElement({}) }));
    expect(unknown).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'customer' });
    const none = await rejection(stripe.customerSessions.create({ customer: customer.id, components: { payment_element: { enabled: false } } }));
    expect(none).toMatchObject({ statusCode: 400, message: 'Exactly 1 component must be enabled.' });
    const filter = await rejection(
      stripe.customerSessions.create({ customer: customer.id, components: paymentElement({ payment_method_allow_redisplay_filters: ['sometimes' as 'always'] }) }),
    );
    expect(filter).toMatchObject({ statusCode: 400, param: 'components[payment_element][features][payment_method_allow_redisplay_filters]' });
    const limit = await rejection(stripe.customerSessions.create({ customer: customer.id, components: paymentElement({ payment_method_redisplay_limit: 11 }) }));
    expect(limit).toMatchObject({ statusCode: 400, param: 'components[payment_element][features][payment_method_redisplay_limit]' });
  });

  it("gives Stripe.js the customer's cards whose allow_redisplay passes the filters, newest first, up to the limit", async () => {
    const customer = await stripe.customers.create({});
    const other = await stripe.customers.create({});
    const visa = await savedCard(customer.id, '4242424242424242', 'always');
    const limited = await savedCard(customer.id, '5555555555554444', 'limited');
    const unspecified = await savedCard(customer.id, '4000002500003155', 'unspecified');
    await savedCard(other.id, '4000000000000341', 'always');

    const always = await stripe.customerSessions.create({ customer: customer.id, components: paymentElement({ payment_method_redisplay: 'enabled' }) });
    const read = await elementsSession(always.client_secret);
    expect(read.status).toBe(200);
    expect(read.body.customer?.payment_methods.map((pm) => pm.id)).toEqual([visa.id]);
    expect(read.body.customer?.customer_session).toMatchObject({ customer: customer.id, components: { payment_element: { enabled: true } } });

    const all = await stripe.customerSessions.create({
      customer: customer.id,
      components: paymentElement({ payment_method_redisplay: 'enabled', payment_method_allow_redisplay_filters: ['always', 'limited', 'unspecified'], payment_method_redisplay_limit: 2 }),
    });
    expect((await elementsSession(all.client_secret)).body.customer?.payment_methods.map((pm) => pm.id)).toEqual([unspecified.id, limited.id]);

    // Redisplay off (the default): no saved cards, whatever the filters.
    const off = await stripe.customerSessions.create({ customer: customer.id, components: paymentElement({ payment_method_allow_redisplay_filters: ['always'] }) });
    expect((await elementsSession(off.client_secret)).body.customer?.payment_methods).toEqual([]);

    // A detached card is no longer the customer's.
    await stripe.paymentMethods.detach(visa.id);
    expect((await elementsSession(always.client_secret)).body.customer?.payment_methods).toEqual([]);
  });

  it('refuses an unknown or expired client secret, and a secret key is needed to create one', async () => {
    expect(await elementsSession('cuss_secret_nope')).toMatchObject({ status: 400, body: { error: { code: 'resource_missing' } } });
    const customer = await stripe.customers.create({});
    const session = await stripe.customerSessions.create({ customer: customer.id, components: paymentElement({ payment_method_redisplay: 'enabled' }) });
    const record = emulator.core.ctx.store.all<{ client_secret: string; expires_at: number } & { id: string; object: string; created: number; livemode: false }>(
      'customer_session',
      (s) => s.client_secret === session.client_secret,
    )[0];
    record.expires_at = Math.floor(Date.now() / 1000) - 1;
    expect(await elementsSession(session.client_secret)).toMatchObject({ status: 400, body: { error: { code: 'customer_session_expired' } } });

    const publishable = new Stripe('pk_test_pluma', { ...emulator.sdkOptions, maxNetworkRetries: 0 });
    const refused = await rejection(publishable.customerSessions.create({ customer: customer.id, components: paymentElement({}) }));
    expect(refused).toMatchObject({ statusCode: 401 });
  });
});
