// @vitest-environment jsdom
/// <reference lib="dom" />
// The Stripe.js stand-in in a DOM: the Payment Element's labelled card form, elements.submit(),
// confirmPayment / confirmSetup against the emulator, the in-page 3-D Secure challenge, and saved cards
// redisplayed through a customer session (with the save checkbox).
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
interface ElementsOptions {
  clientSecret?: string;
  mode?: 'payment' | 'subscription' | 'setup';
  amount?: number;
  currency?: string;
  setupFutureUsage?: 'off_session';
  customerSessionClientSecret?: string;
  appearance?: unknown;
  locale?: string;
}
interface ConfirmOptions {
  elements: StandInElements;
  clientSecret?: string;
  confirmParams: { return_url: string };
  redirect: 'if_required';
}
interface StandIn {
  elements(options: ElementsOptions): StandInElements;
  confirmPayment(options: ConfirmOptions): Promise<Result>;
  confirmSetup(options: ConfirmOptions): Promise<Result>;
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

describe('Stripe.js stand-in with a customer session', () => {
  const features = { payment_method_redisplay: 'enabled', payment_method_save: 'enabled', payment_method_save_usage: 'off_session' } as const;

  async function customerWithSavedCards() {
    const customer = await stripe.customers.create({ email: 'ana@example.com' });
    const attach = async (number: string, allowRedisplay: 'always' | 'limited') => {
      const pm = await stripe.paymentMethods.create({ type: 'card', card: { number, exp_month: 12, exp_year: 2034, cvc: '123' }, allow_redisplay: allowRedisplay });
      return stripe.paymentMethods.attach(pm.id, { customer: customer.id });
    };
    const hidden = await attach('5555555555554444', 'limited');
    const shown = await attach('4242424242424242', 'always');
    const session = await stripe.customerSessions.create({ customer: customer.id, components: { payment_element: { enabled: true, features } } });
    return { customer, shown, hidden, session };
  }

  async function mountDeferred(options: ElementsOptions) {
    const elements = browserStripe.elements({ currency: 'usd', ...options });
    const container = document.createElement('div');
    document.body.appendChild(container);
    const element = elements.create('payment');
    const changes: { complete: boolean; value: { payment_method?: { id: string } } }[] = [];
    element.on('change', (event) => changes.push(event as (typeof changes)[number]));
    const ready = new Promise((resolve, reject) => {
      element.on('ready', resolve);
      element.on('loaderror', (event) => reject(new Error((event as { error: { message: string } }).error.message)));
    });
    element.mount(container);
    await ready;
    return { elements, container, changes };
  }

  const radios = (container: HTMLElement) => [...container.querySelectorAll<HTMLInputElement>('input[type=radio]')];
  const radioLabel = (radio: HTMLInputElement) => radio.parentElement?.textContent?.trim();
  const saveBox = (container: HTMLElement) => container.querySelector<HTMLInputElement>('input[type=checkbox]')!;
  const pay = (elements: StandInElements, clientSecret: string) =>
    browserStripe.confirmPayment({ elements, clientSecret, confirmParams: { return_url: 'http://app.test/thankyou/3' }, redirect: 'if_required' });

  it("lists only the cards the customer agreed to redisplay, chooses one, and pays a deferred PaymentIntent with it", async () => {
    const { customer, shown, session } = await customerWithSavedCards();
    const { elements, container, changes } = await mountDeferred({ mode: 'payment', amount: 1900, customerSessionClientSecret: session.client_secret });
    expect(radios(container).map(radioLabel)).toEqual(['Visa ending in 4242', 'New card']);
    expect(radios(container)[0].checked).toBe(true);
    // The card form is hidden while a saved card is chosen, and the element says it is complete.
    expect(getByLabelText(container, 'Card number').closest('div')?.hidden).toBe(true);
    expect(changes.at(-1)).toMatchObject({ complete: true, value: { payment_method: { id: shown.id } } });
    expect(await elements.submit()).toEqual({ selectedPaymentMethod: 'card' });

    const pi = await stripe.paymentIntents.create({ amount: 1900, currency: 'usd', customer: customer.id, automatic_payment_methods: { enabled: true } });
    const result = await pay(elements, pi.client_secret!);
    expect(result.paymentIntent).toMatchObject({ id: pi.id, status: 'succeeded', payment_method: shown.id });
  });

  it('saves a new card for redisplay only when the save box is ticked (allow_redisplay always, setup_future_usage from the session)', async () => {
    const { customer, session } = await customerWithSavedCards();
    const first = await mountDeferred({ mode: 'payment', amount: 1900, customerSessionClientSecret: session.client_secret });
    radios(first.container).at(-1)!.click();
    expect(first.changes.at(-1)).toMatchObject({ complete: false });
    expect(await first.elements.submit()).toMatchObject({ error: { code: 'incomplete_number' } });
    typeCard(first.container, '5555555555554444');
    saveBox(first.container).click();
    expect(saveBox(first.container).parentElement?.textContent?.trim()).toBe('Save my card for future purchases');
    const saved = await stripe.paymentIntents.create({ amount: 1900, currency: 'usd', customer: customer.id, automatic_payment_methods: { enabled: true } });
    expect(saved.setup_future_usage).toBeNull();
    const paid = await pay(first.elements, saved.client_secret!);
    expect(paid.paymentIntent).toMatchObject({ status: 'succeeded', setup_future_usage: 'off_session' });
    const kept = await stripe.paymentMethods.retrieve(paid.paymentIntent!.payment_method as string);
    expect(kept).toMatchObject({ customer: customer.id, allow_redisplay: 'always' });

    document.body.innerHTML = '';
    const second = await mountDeferred({ mode: 'payment', amount: 1900, customerSessionClientSecret: session.client_secret });
    // Newest first: the card just saved, then the older one; not the Mastercard saved without consent ('limited').
    expect(radios(second.container).map(radioLabel)).toEqual(['Mastercard ending in 4444', 'Visa ending in 4242', 'New card']);
    radios(second.container).at(-1)!.click();
    typeCard(second.container, '4242424242424242');
    const once = await stripe.paymentIntents.create({ amount: 1900, currency: 'usd', customer: customer.id, automatic_payment_methods: { enabled: true } });
    const unsaved = await pay(second.elements, once.client_secret!);
    expect(unsaved.paymentIntent).toMatchObject({ status: 'succeeded', setup_future_usage: null });
    expect(await stripe.paymentMethods.retrieve(unsaved.paymentIntent!.payment_method as string)).toMatchObject({ customer: null, allow_redisplay: 'limited' });
  });

  it("confirms a trial's SetupIntent with a saved card, in Spanish", async () => {
    const { customer, shown, session } = await customerWithSavedCards();
    const price = await monthlyPrice(stripe);
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      trial_period_days: 7,
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      expand: ['pending_setup_intent'],
    });
    const { elements, container } = await mountDeferred({ mode: 'setup', customerSessionClientSecret: session.client_secret, locale: 'es' });
    expect(radios(container).map(radioLabel)).toEqual(['Visa terminada en 4242', 'Nueva tarjeta']);
    const si = sub.pending_setup_intent as Stripe.SetupIntent;
    const result = await browserStripe.confirmSetup({ elements, clientSecret: si.client_secret!, confirmParams: { return_url: 'http://app.test/thankyou/4' }, redirect: 'if_required' });
    expect(result.setupIntent).toMatchObject({ status: 'succeeded', payment_method: shown.id });
    expect((await stripe.subscriptions.retrieve(sub.id)).default_payment_method).toBe(shown.id);
  });

  it('refuses setupFutureUsage together with payment_method_save_usage, and an unknown session', async () => {
    const { session } = await customerWithSavedCards();
    await expect(mountDeferred({ mode: 'payment', amount: 1900, setupFutureUsage: 'off_session', customerSessionClientSecret: session.client_secret })).rejects.toThrow(
      /payment_method_save_usage on the CustomerSession and setupFutureUsage/,
    );
    await expect(mountDeferred({ mode: 'payment', amount: 1900, customerSessionClientSecret: 'cuss_secret_nope' })).rejects.toThrow(/No such customer session/);
  });
});
