// @vitest-environment jsdom
/// <reference lib="dom" />
// The stand-in of PayPal's JS SDK v6 core script in a DOM: the `window.paypal` namespace that
// @paypal/paypal-js's loadCoreSdkScript accepts, createInstance, the one-time and subscription
// sessions (popup on the emulator's buyer page, onApprove / onCancel / onError), and <paypal-button>.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningPayPalEmulator } from './server';
import { fetcher, monthlyPlan, startWithClient } from './test-kit';

// The slice of the stand-in's API these tests use (the shapes of @paypal/paypal-js's v6 types).
interface Session {
  start(options: { presentationMode: string }, created: Promise<{ orderId?: string; subscriptionId?: string }>): Promise<void>;
  cancel(): void;
  destroy(): void;
}
interface Callbacks {
  onApprove: (data: Record<string, unknown>) => Promise<void>;
  onCancel?: (data: Record<string, unknown>) => void;
  onError?: (error: Error) => void;
}
interface Instance {
  findEligibleMethods(): Promise<{ isEligible(method: string): boolean }>;
  createPayPalOneTimePaymentSession(callbacks: Callbacks): Session;
  createPayPalSubscriptionPaymentSession(callbacks: Callbacks): Session;
}
interface Namespace {
  version: string;
  createInstance(options: { clientId: string; components?: string[]; pageType?: string }): Promise<Instance>;
}

let emulator: RunningPayPalEmulator;
let call: ReturnType<typeof fetcher>;
let paypal: Namespace;

beforeAll(async () => {
  ({ emulator } = await startWithClient());
  call = fetcher(emulator);
  const source = await (await fetch(emulator.webSdkV6Url)).text();
  new Function(source)();
  paypal = (window as unknown as { paypal: Namespace }).paypal;
});
afterAll(() => emulator.close());

/** A window.open stand-in: the popup's address and whether the session closed it. */
function fakePopup() {
  const popup = { closed: false, location: { href: '' }, close: () => void (popup.closed = true) };
  vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
  return popup;
}

/** The buyer presses a button on the emulator's page; the page's message reaches the opener. */
async function buyerPresses(url: string, action: 'approve' | 'cancel') {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `action=${action}` });
  expect(response.status).toBe(200);
  const message = /postMessage\((\{.*?\}),'\*'\)/.exec(await response.text())?.[1];
  expect(message).toBeDefined();
  window.dispatchEvent(new MessageEvent('message', { data: JSON.parse(message!), origin: emulator.origin }));
}

const until = async (check: () => unknown) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

async function newOrder(): Promise<string> {
  const order = await call('POST', '/v2/checkout/orders', { intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'USD', value: '9.00' } }] });
  expect(order.status).toBe(201);
  return String(order.body.id);
}

describe('the JS SDK v6 stand-in', () => {
  it('exposes a v6 namespace that loadCoreSdkScript accepts, and refuses an instance without credentials', async () => {
    expect(paypal.version.startsWith('6')).toBe(true);
    await expect(paypal.createInstance({} as { clientId: string })).rejects.toThrow(/clientId/);
    const sdk = await paypal.createInstance({ clientId: 'client', components: ['paypal-payments'], pageType: 'checkout' });
    expect((await sdk.findEligibleMethods()).isEligible('paypal')).toBe(true);
    // Only the components asked for, as PayPal's SDK.
    expect(() => sdk.createPayPalSubscriptionPaymentSession({ onApprove: async () => {} })).toThrow(/paypal-subscriptions/);
  });

  it('one-time payment: opens the buyer page for the order, and approving calls onApprove with the order id', async () => {
    const orderId = await newOrder();
    const popup = fakePopup();
    const onApprove = vi.fn(async () => {});
    const sdk = await paypal.createInstance({ clientId: 'client', components: ['paypal-payments'] });
    const session = sdk.createPayPalOneTimePaymentSession({ onApprove });
    await session.start({ presentationMode: 'auto' }, Promise.resolve({ orderId }));
    expect(popup.location.href).toBe(`${emulator.origin}/checkoutnow?token=${orderId}`);
    expect(await (await fetch(popup.location.href)).text()).toContain('Approve');

    await buyerPresses(popup.location.href, 'approve');
    await until(() => onApprove.mock.calls.length);
    expect(onApprove).toHaveBeenCalledWith({ fundingSource: 'paypal', orderId, payerId: expect.any(String) });
    expect(popup.closed).toBe(true);
    expect((await call('GET', `/v2/checkout/orders/${orderId}`)).body.status).toBe('APPROVED');
    session.destroy();
  });

  it('one-time payment: cancelling, closing the window and a failed createOrder reach onCancel / onError', async () => {
    const sdk = await paypal.createInstance({ clientId: 'client' });
    const onApprove = vi.fn(async () => {});
    const onCancel = vi.fn();
    const onError = vi.fn();
    const session = sdk.createPayPalOneTimePaymentSession({ onApprove, onCancel, onError });

    const orderId = await newOrder();
    let popup = fakePopup();
    await session.start({ presentationMode: 'popup' }, Promise.resolve({ orderId }));
    await buyerPresses(popup.location.href, 'cancel');
    await until(() => onCancel.mock.calls.length);
    expect(onCancel).toHaveBeenLastCalledWith({ orderId });

    popup = fakePopup();
    await session.start({ presentationMode: 'popup' }, Promise.resolve({ orderId: await newOrder() }));
    popup.closed = true;
    await until(() => onCancel.mock.calls.length === 2);
    expect(onCancel).toHaveBeenCalledTimes(2);

    popup = fakePopup();
    const refused = new Error('refused by the server');
    await session.start({ presentationMode: 'popup' }, Promise.reject(refused));
    expect(onError).toHaveBeenCalledWith(refused);
    expect(popup.closed).toBe(true);

    // A message about another order (or from another origin) is ignored.
    popup = fakePopup();
    await session.start({ presentationMode: 'popup' }, Promise.resolve({ orderId: await newOrder() }));
    window.dispatchEvent(new MessageEvent('message', { data: { source: 'paypal-emulator', type: 'approved', orderID: orderId }, origin: emulator.origin }));
    window.dispatchEvent(new MessageEvent('message', { data: { source: 'paypal-emulator', type: 'approved', orderID: orderId }, origin: 'https://evil.test' }));
    await new Promise((r) => setTimeout(r, 30));
    expect(onApprove).not.toHaveBeenCalled();
    session.destroy();
    expect(popup.closed).toBe(true);

    // A blocked popup is an error, not a silent no-op.
    vi.spyOn(window, 'open').mockReturnValue(null);
    await session.start({ presentationMode: 'popup' }, Promise.resolve({ orderId }));
    expect(onError).toHaveBeenLastCalledWith(expect.objectContaining({ code: 'POPUP_BLOCKED' }));
  });

  it('subscription: opens the buyer page by subscription id, and approving calls onApprove with it', async () => {
    const { plan } = await monthlyPlan(call);
    const created = await call('POST', '/v1/billing/subscriptions', { plan_id: plan.id });
    expect(created.status).toBe(201);
    const subscriptionId = String(created.body.id);
    const popup = fakePopup();
    const onApprove = vi.fn(async () => {});
    const sdk = await paypal.createInstance({ clientId: 'client', components: ['paypal-subscriptions'] });
    const session = sdk.createPayPalSubscriptionPaymentSession({ onApprove });
    await session.start({ presentationMode: 'auto' }, Promise.resolve({ subscriptionId }));
    expect(popup.location.href).toBe(`${emulator.origin}/webapps/billing/subscriptions?subscription_id=${subscriptionId}`);
    await buyerPresses(popup.location.href, 'approve');
    await until(() => onApprove.mock.calls.length);
    expect(onApprove).toHaveBeenCalledWith({ fundingSource: 'paypal', subscriptionId, payerId: undefined });
    expect((await call('GET', `/v1/billing/subscriptions/${subscriptionId}`)).body.status).toBe('ACTIVE');
  });

  it('defines <paypal-button>: a labelled button that follows the disabled attribute and clicks the host', async () => {
    const host = document.createElement('paypal-button');
    host.setAttribute('type', 'pay');
    host.setAttribute('disabled', '');
    const clicked = vi.fn();
    host.addEventListener('click', clicked);
    document.body.append(host);
    const button = host.shadowRoot!.querySelector('button')!;
    expect(button.textContent).toBe('Pay with PayPal');
    expect(button.disabled).toBe(true);
    host.removeAttribute('disabled');
    expect(button.disabled).toBe(false);
    button.click();
    expect(clicked).toHaveBeenCalledTimes(1);
    host.remove();
  });
});
