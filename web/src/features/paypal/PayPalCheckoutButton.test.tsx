// The PayPal button with PayPal's JS SDK replaced at the component level (jsdom loads no scripts); the
// browser journey e2e/commerce.e2e.test.ts runs it on the emulator's stand-in of PayPal's v6 script.
// The fake buttons run the same callbacks PayPal's window would: createOrder/createSubscription, then onApprove.
// In PAYMENTS_DEMO the config's js_url (the emulator's stand-in) is loaded before the provider renders.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, setLanguage, stubFetch } from '../../test/render';
import { PayPalCheckoutButton } from './index';

const providerProps = vi.fn();

vi.mock('@paypal/react-paypal-js/sdk-v6', () => ({
  PayPalProvider: (props: { children: ReactNode } & Record<string, unknown>) => {
    providerProps(props);
    return <div data-testid="paypal-provider">{props.children}</div>;
  },
  PayPalOneTimePaymentButton: (props: { createOrder: () => Promise<{ orderId: string }>; onApprove: (data: { orderId: string }) => Promise<void>; onError: (e: unknown) => void }) => (
    <button
      type="button"
      onClick={async () => {
        try {
          const { orderId } = await props.createOrder();
          await props.onApprove({ orderId });
        } catch (error) {
          props.onError(error);
        }
      }}
    >
      PayPal
    </button>
  ),
  PayPalSubscriptionButton: (props: { createSubscription: () => Promise<{ subscriptionId: string }>; onApprove: (data: { subscriptionId: string }) => Promise<void>; onError: (e: unknown) => void }) => (
    <button
      type="button"
      onClick={async () => {
        try {
          const { subscriptionId } = await props.createSubscription();
          await props.onApprove({ subscriptionId });
        } catch (error) {
          props.onError(error);
        }
      }}
    >
      PayPal subscribe
    </button>
  ),
}));

const CONFIG = { client_id: 'sb-client', environment: 'sandbox', currency: 'USD' };

describe('PayPalCheckoutButton', () => {
  beforeEach(async () => {
    providerProps.mockClear();
    await setLanguage('en');
  });

  it('renders nothing when PayPal is not configured', async () => {
    const { calls } = stubFetch({
      'GET /api/paypal/config': () => ({ status: 404, body: { error: 'paypal_not_configured', message: 'PayPal is not configured.' } }),
      'GET /api/products/3': () => ({ body: { is_subscription: false } }),
    });
    renderScreen(<PayPalCheckoutButton productId={3} onPaid={vi.fn()} onError={vi.fn()} />);
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/api/paypal/config'))).toBe(true));
    // Give the query a tick to settle: still nothing.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByTestId('paypal-checkout')).toBeNull();
    expect(providerProps).not.toHaveBeenCalled();
  });

  it('one-time: loads the configured environment, the server creates the order, approval captures it and calls onPaid', async () => {
    const onPaid = vi.fn();
    const onError = vi.fn();
    const { calls } = stubFetch({
      'GET /api/paypal/config': () => ({ body: { ...CONFIG, environment: 'live' } }),
      'GET /api/products/3': () => ({ body: { is_subscription: false } }),
      'POST /api/paypal/orders': () => ({ body: { order_id: 'ORDER123456789', purchase_id: 41, total_payment: 13.5 } }),
      'POST /api/checkout/capture': () => ({ body: { purchase_id: 41, status: 'completed' } }),
    });
    renderScreen(<PayPalCheckoutButton productId={3} discountCode=" SAVE10 " onPaid={onPaid} onError={onError} />);
    fireEvent.click(await screen.findByRole('button', { name: 'PayPal' }));
    await waitFor(() => expect(onPaid).toHaveBeenCalledWith(41));
    expect(onError).not.toHaveBeenCalled();
    expect(providerProps).toHaveBeenCalledWith(expect.objectContaining({ clientId: 'sb-client', environment: 'production', components: ['paypal-payments'] }));
    expect(calls.find((c) => c.url.endsWith('/api/paypal/orders'))?.body).toEqual({ product_id: 3, discountCode: 'SAVE10' });
    expect(calls.find((c) => c.url.endsWith('/api/checkout/capture'))?.body).toEqual({ order_id: 'ORDER123456789' });
    expect(screen.getByText('or pay with PayPal')).toBeInTheDocument();
  });

  it('subscription: the server creates the subscription, approval calls onPaid (the webhook activates it)', async () => {
    const onPaid = vi.fn();
    const { calls } = stubFetch({
      'GET /api/paypal/config': () => ({ body: CONFIG }),
      'GET /api/products/5': () => ({ body: { is_subscription: true } }),
      'POST /api/paypal/subscriptions': () => ({ body: { subscription_id: 'I-ABC', plan_id: 'P-1', purchase_id: 52, total_payment: 20 } }),
    });
    renderScreen(<PayPalCheckoutButton productId={5} onPaid={onPaid} onError={vi.fn()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'PayPal subscribe' }));
    await waitFor(() => expect(onPaid).toHaveBeenCalledWith(52));
    expect(providerProps).toHaveBeenCalledWith(expect.objectContaining({ environment: 'sandbox', components: ['paypal-subscriptions'] }));
    expect(calls.find((c) => c.url.endsWith('/api/paypal/subscriptions'))?.body).toEqual({ product_id: 5 });
  });

  it('reports a refused order (e.g. a limit reached) through onError, once, and never calls onPaid', async () => {
    const onPaid = vi.fn();
    const onError = vi.fn();
    stubFetch({
      'GET /api/paypal/config': () => ({ body: CONFIG }),
      'GET /api/products/3': () => ({ body: { is_subscription: false } }),
      'POST /api/paypal/orders': () => ({ status: 409, body: { error: 'purchase_limit_reached', message: "We're sorry, you cannot buy this product anymore." } }),
    });
    renderScreen(<PayPalCheckoutButton productId={3} onPaid={onPaid} onError={onError} />);
    fireEvent.click(await screen.findByRole('button', { name: 'PayPal' }));
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    expect(onError.mock.calls[0][0]).toMatchObject({ status: 409 });
    expect(onPaid).not.toHaveBeenCalled();
  });

  it("PAYMENTS_DEMO: loads the config's stand-in of PayPal's script first, and shows the button only once it has run", async () => {
    const url = 'http://127.0.0.1:4013/_emulator/paypal-web-sdk-v6-core.js';
    stubFetch({
      'GET /api/paypal/config': () => ({ body: { ...CONFIG, js_url: url } }),
      'GET /api/products/3': () => ({ body: { is_subscription: false } }),
    });
    renderScreen(<PayPalCheckoutButton productId={3} onPaid={vi.fn()} onError={vi.fn()} />);
    const script = await waitFor(() => {
      const found = document.head.querySelector<HTMLScriptElement>(`script[src="${url}"]`);
      expect(found).not.toBeNull();
      return found!;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(providerProps).not.toHaveBeenCalled();
    // jsdom runs no scripts: the browser's load event, as once the stand-in defined window.paypal.
    script.dispatchEvent(new Event('load'));
    expect(await screen.findByRole('button', { name: 'PayPal' })).toBeInTheDocument();
    expect(providerProps).toHaveBeenCalledWith(expect.objectContaining({ environment: 'sandbox' }));
    expect(document.head.querySelectorAll(`script[src="${url}"]`)).toHaveLength(1);
  });

  it('shows its divider in Spanish', async () => {
    await setLanguage('es');
    stubFetch({
      'GET /api/paypal/config': () => ({ body: CONFIG }),
      'GET /api/products/3': () => ({ body: { is_subscription: false } }),
    });
    renderScreen(<PayPalCheckoutButton productId={3} onPaid={vi.fn()} onError={vi.fn()} />);
    expect(await screen.findByText('o paga con PayPal')).toBeInTheDocument();
    await setLanguage('en');
  });
});
