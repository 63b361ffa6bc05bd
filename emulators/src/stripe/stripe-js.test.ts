// @vitest-environment jsdom
/// <reference lib="dom" />
// The Stripe.js stand-in in a DOM: the Payment Element's labelled card form, elements.submit(),
// confirmPayment / confirmSetup against the emulator, and the in-page 3-D Secure challenge.
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStripeEmulator } from './server';
import { monthlyPrice, startWithClient } from './test-kit';

// The slice of the stand-in's API these tests use (the shapes of @stripe/stripe-js).
interface Result {
  paymentIntent?: Stripe.PaymentIntent;
  setupIntent?: Stripe.SetupIntent;
  error?: { type: string; code?: string; message: string; payment_intent?: Stripe.PaymentIntent };
  selectedPaymentMethod?: string;
}
interface StandInElements {
  create(type: 'payment'): { mount(node: HTMLElement): void; on(event: string, handler: (e: unknown) => void): void };
  submit(): Promise<Result>;
}
interface StandIn {
  elements(options: { clientSecret: string; appearance?: unknown; locale?: string }): StandInElements;
  confirmPayment(options: { elements: StandInElements; confirmParams: { return_url: string }; redirect: 'if_required' }): Promise<Result>;
  confirmSetup(options: { elements: StandInElements; confirmParams: { return_url: string }; redirect: 'if_required' }): Promise<Result>;
}

let emulator: RunningStripeEmulator;
let stripe: Stripe;
let browserStripe: StandIn;

beforeAll(async () => {
  ({ emulator, stripe } = await startWithClient());
  const source = await (await fetch(emulator.stripeJsUrl)).text();
  new Function(source)();
  browserStripe = (window as unknown as { Stripe(key: string): StandIn }).Stripe('pk_test_pluma_demo');
});
afterAll(() => emulator.close());
afterEach(() => {
  document.body.innerHTML = '';
});

// Small DOM helpers (the emulators workspace does not depend on @testing-library).
function getByLabelText(root: ParentNode, text: string): HTMLInputElement {
  const label = [...root.querySelectorAll('label')].find((l) => l.firstChild?.textContent === text);
  const input = label?.querySelector('input');
  if (!input) throw new Error(`no input labelled ${text}`);
  return input;
}
function input(element: HTMLInputElement, value: string) {
  element.value = value;
  element.dispatchEvent(new Event('input', { bubbles: true }));
}
async function findDialog(): Promise<HTMLElement> {
  for (let i = 0; i < 200; i++) {
    const dialog = document.querySelector<HTMLElement>('[role="dialog"]');
    if (dialog) return dialog;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no 3-D Secure dialog');
}
function button(root: ParentNode, name: string): HTMLButtonElement {
  const found = [...root.querySelectorAll('button')].find((b) => b.textContent === name);
  if (!found) throw new Error(`no button ${name}`);
  return found;
}

function mountForm(clientSecret: string, locale = 'en') {
  const elements = browserStripe.elements({ clientSecret, appearance: { theme: 'stripe' }, locale });
  const container = document.createElement('div');
  document.body.appendChild(container);
  const element = elements.create('payment');
  element.mount(container);
  return { elements, element, container };
}

function typeCard(container: HTMLElement, number: string, labels = { number: 'Card number', expiry: 'Expiration date (MM / YY)', cvc: 'Security code' }) {
  input(getByLabelText(container, labels.number), number);
  input(getByLabelText(container, labels.expiry), '12 / 34');
  input(getByLabelText(container, labels.cvc), '123');
}

const payment = (amount = 2500) => stripe.paymentIntents.create({ amount, currency: 'usd', automatic_payment_methods: { enabled: true } });
const confirm = (elements: StandInElements) => browserStripe.confirmPayment({ elements, confirmParams: { return_url: 'http://app.test/thankyou/1' }, redirect: 'if_required' });

describe('Stripe.js stand-in', () => {
  it('mounts a labelled card form, fires ready and validates on submit', async () => {
    const pi = await payment();
    const { elements, element, container } = mountForm(pi.client_secret!);
    const ready = new Promise((resolve) => element.on('ready', resolve));
    await expect(ready).resolves.toMatchObject({ elementType: 'payment' });
    expect(getByLabelText(container, 'Card number').getAttribute('autocomplete')).toBe('cc-number');
    const empty = await elements.submit();
    expect(empty.error).toMatchObject({ type: 'validation_error', code: 'incomplete_number' });
    expect(container.querySelector('[role="alert"]')?.textContent).toBe('Your card details are incomplete.');
    typeCard(container, '4242 4242 4242 4242');
    expect(await elements.submit()).toEqual({ selectedPaymentMethod: 'card' });
  });

  it('pays with 4242 and resolves { paymentIntent }', async () => {
    const pi = await payment();
    const { elements, container } = mountForm(pi.client_secret!);
    typeCard(container, '4242424242424242');
    const result = await confirm(elements);
    expect(result.error).toBeUndefined();
    expect(result.paymentIntent).toMatchObject({ id: pi.id, status: 'succeeded' });
    const card = await stripe.paymentMethods.retrieve((await stripe.paymentIntents.retrieve(pi.id)).payment_method as string);
    expect(card.card?.last4).toBe('4242');
  });

  it('shows the 3-D Secure challenge for 4000002500003155: Complete succeeds, Fail errors', async () => {
    const pi = await payment();
    const { elements, container } = mountForm(pi.client_secret!, 'es');
    typeCard(container, '4000002500003155', { number: 'Número de tarjeta', expiry: 'Fecha de caducidad (MM / AA)', cvc: 'Código de seguridad' });
    const pending = confirm(elements);
    const dialog = await findDialog();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.getElementById(dialog.getAttribute('aria-labelledby')!)?.textContent).toBe('3-D Secure test challenge');
    expect(dialog.textContent).toContain('25.00 USD');
    button(dialog, 'Complete').click();
    expect((await pending).paymentIntent?.status).toBe('succeeded');
    expect(document.querySelector('[role="dialog"]')).toBeNull();

    const other = await payment();
    const second = mountForm(other.client_secret!);
    typeCard(second.container, '4000002500003155');
    const failing = confirm(second.elements);
    button(await findDialog(), 'Fail').click();
    const failed = await failing;
    expect(failed.error).toMatchObject({ type: 'card_error', code: 'payment_intent_authentication_failure' });
    expect(failed.error?.payment_intent?.status).toBe('requires_payment_method');
  });

  it('resolves { error } with card_declined for 4000000000000002', async () => {
    const pi = await payment();
    const { elements, container } = mountForm(pi.client_secret!);
    typeCard(container, '4000000000000002');
    const result = await confirm(elements);
    expect(result.error).toMatchObject({ type: 'card_error', code: 'card_declined', message: 'Your card was declined.' });
    expect(result.paymentIntent).toBeUndefined();
  });

  it('pays a subscription’s first invoice through its confirmation_secret', async () => {
    const price = await monthlyPrice(stripe);
    const customer = await stripe.customers.create({});
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      expand: ['latest_invoice.confirmation_secret'],
    });
    const secret = (sub.latest_invoice as Stripe.Invoice).confirmation_secret!.client_secret;
    const { elements, container } = mountForm(secret);
    typeCard(container, '5555555555554444');
    expect((await confirm(elements)).paymentIntent?.status).toBe('succeeded');
    const active = await stripe.subscriptions.retrieve(sub.id, { expand: ['default_payment_method'] });
    expect(active.status).toBe('active');
    expect((active.default_payment_method as Stripe.PaymentMethod).card?.brand).toBe('mastercard');
  });

  it('confirms a trial’s pending SetupIntent with confirmSetup', async () => {
    const price = await monthlyPrice(stripe);
    const customer = await stripe.customers.create({});
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      trial_period_days: 14,
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      expand: ['pending_setup_intent'],
    });
    const si = sub.pending_setup_intent as Stripe.SetupIntent;
    const { elements, container } = mountForm(si.client_secret!);
    typeCard(container, '4242424242424242');
    await expect(confirm(elements)).resolves.toMatchObject({ error: { message: expect.stringContaining('confirmSetup') } });
    const result = await browserStripe.confirmSetup({ elements, confirmParams: { return_url: 'http://app.test/thankyou/2' }, redirect: 'if_required' });
    expect(result.setupIntent).toMatchObject({ id: si.id, status: 'succeeded' });
    expect((await stripe.subscriptions.retrieve(sub.id)).default_payment_method).toBe(result.setupIntent?.payment_method);
  });
});
