import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AvailableProduct } from '@pluma/common/products';
import { useEffect } from 'react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import CheckoutPage from './CheckoutPage';

// Stripe.js is never loaded in tests: the Payment Element is a stand-in input whose value says whether
// the card is complete (16 digits), plus a button standing for a saved card Stripe redisplays (choosing
// it makes the element complete); the Stripe object records the confirmations.
const stripe = vi.hoisted(() => ({
  confirmPayment: null as unknown as ReturnType<typeof import('vitest').vi.fn>,
  confirmSetup: null as unknown as ReturnType<typeof import('vitest').vi.fn>,
}));
const elements = vi.hoisted(() => ({ submit: null as unknown as ReturnType<typeof import('vitest').vi.fn> }));
// The options the page created Stripe's Elements group with (customer session, mode, amount).
const elementsGroup = vi.hoisted(() => ({ options: null as Record<string, unknown> | null }));

// The PayPal button (features/paypal) is its own feature's to test: here a stand-in that pays or fails.
vi.mock('../paypal', () => ({
  PayPalCheckoutButton: (props: { productId: number; discountCode?: string; onPaid: (id: number) => void; onError: (error: unknown) => void }) => (
    <div>
      <button type="button" onClick={() => props.onPaid(90)}>
        PayPal
      </button>
      <button type="button" onClick={() => props.onError(new ApiError(409, { error: 'paypal_order_not_approved', message: 'The PayPal order was not approved.' }, 'x'))}>
        PayPal fails
      </button>
    </div>
  ),
}));
vi.mock('./stripe-loader', () => ({ loadStripeFrom: () => Promise.resolve(stripe) }));
vi.mock('@stripe/react-stripe-js', () => ({
  Elements: ({ children, options }: { children: React.ReactNode; options: Record<string, unknown> }) => {
    elementsGroup.options = options;
    return children;
  },
  useStripe: () => stripe,
  useElements: () => elements,
  PaymentElement: ({ onReady, onChange }: { onReady?: () => void; onChange?: (event: { complete: boolean; empty: boolean }) => void }) => {
    useEffect(() => onReady?.(), [onReady]);
    return (
      <>
        <input aria-label="Card number" onChange={(event) => onChange?.({ complete: event.target.value.length >= 16, empty: event.target.value === '' })} />
        <button type="button" onClick={() => onChange?.({ complete: true, empty: false })}>
          Visa ending in 4242
        </button>
      </>
    );
  },
}));

const product: AvailableProduct = {
  product_id: 2,
  name: 'Pro',
  description: 'For creators',
  short_description: null,
  price: 30,
  sale_price: 20,
  word_amount: 50000,
  is_subscription: false,
  subscription_period: null,
  subscription_interval: null,
  expiration_days: 30,
  free_trial_length: null,
  image: null,
  organization_id: null,
  abilities: { read: true, buy: true, update: false, delete: false },
};
const CONFIG = { stripe: { publishable_key: 'pk_test_1', js_url: 'http://127.0.0.1:4012/_emulator/stripe.js' }, demo: false };
const activePurchase = (productId: number, name = 'Plan') => ({
  purchase_id: 40,
  status: 'active',
  product_id: productId,
  product: { product_id: productId, name, video_src: null },
  createdAt: '2026-01-01T00:00:00.000Z',
  expires_at: '2999-01-01T00:00:00.000Z',
});

type Routes = Parameters<typeof stubFetch>[0];
const baseRoutes = (extra: Routes = {}): Routes => ({
  'GET /api/products/2': () => ({ body: product }),
  'GET /api/checkout/config': () => ({ body: CONFIG }),
  'POST /api/checkout/customer_session': () => ({ body: { customerSessionClientSecret: 'cuss_secret_test', expiresAt: '2999-01-01T00:00:00.000Z' } }),
  ...extra,
});

function open(options: { signedIn?: boolean; user?: ReturnType<typeof buildUser>; routes?: Routes } = {}) {
  const stub = stubFetch(baseRoutes(options.routes));
  const session = options.signedIn === false ? fakeSession(null) : fakeSession(options.user ?? buildUser({ has_access: false }));
  const rendered = renderScreen(<CheckoutPage />, { route: '/checkout/2', path: '/checkout/:productId', session });
  return { ...rendered, ...stub };
}

const payButton = () => screen.findByTestId('pay-now');
async function typeCard(user: ReturnType<typeof userEvent.setup>, digits = '4242424242424242') {
  await user.type(await screen.findByLabelText('Card number'), digits);
}

beforeAll(async () => {
  await i18n.loadNamespaces('checkout');
});
afterAll(async () => {
  await setLanguage('en');
});
beforeEach(async () => {
  await setLanguage('en');
  stripe.confirmPayment = vi.fn(async () => ({ paymentIntent: { status: 'succeeded' } }));
  stripe.confirmSetup = vi.fn(async () => ({ setupIntent: { status: 'succeeded' } }));
  elementsGroup.options = null;
  elements.submit = vi.fn(async () => ({}));
});

describe('Checkout screen', () => {
  it('shows the summary with the sale price, and only the sign-in forms to a signed-out visitor', async () => {
    open({ signedIn: false });
    expect(await screen.findByTestId('checkout-auth')).toBeInTheDocument();
    expect(screen.getByTestId('product-name')).toHaveTextContent('Pro');
    expect(screen.getByTestId('summary-price')).toHaveTextContent('$20.00');
    expect(screen.getByTestId('summary-total')).toHaveTextContent('$20.00 USD');
    expect(screen.getByTestId('product-summary')).toHaveTextContent('$30.00');
    expect(screen.queryByTestId('payment-section')).not.toBeInTheDocument();
    expect(screen.queryByTestId('discount-form')).not.toBeInTheDocument();
    expect(screen.queryByTestId('pay-now')).not.toBeInTheDocument();
  });

  it('signs in inline and stays on the checkout', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = stubFetch(baseRoutes({ 'POST /api/auth/login': () => ({ body: { token: 'tok', user: buildUser() } }) }));
    const session = fakeSession(null);
    renderScreen(<CheckoutPage />, { route: '/checkout/2', path: '/checkout/:productId', session });
    await user.click(await screen.findByRole('radio', { name: 'Log in' }));
    const form = screen.getByTestId('checkout-login-form');
    await user.type(within(form).getByLabelText(/^Email/, { selector: 'input' }), 'Ana@Example.com');
    await user.type(within(form).getByLabelText(/^Password/, { selector: 'input' }), 'secret1');
    await user.click(within(form).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(session.signIn).toHaveBeenCalled());
    expect(calls.find((c) => c.url.endsWith('/api/auth/login'))?.body).toEqual({ email: 'ana@example.com', password: 'secret1', device_tokens: [] });
    expect(screen.getByTestId('location')).toHaveTextContent('/checkout/2');
  });

  it('says the product was not found (404) in English and Spanish', async () => {
    open({ routes: { 'GET /api/products/2': () => ({ status: 404, body: { error: 'product_not_found', message: 'This package was not found.' } }) } });
    expect(await screen.findByText('This package was not found.')).toBeInTheDocument();
    await setLanguage('es');
    expect(await screen.findByText('No se encontró el paquete.')).toBeInTheDocument();
  });

  it('says payments are not configured when the server has no Stripe keys (or no config route yet)', async () => {
    open({ routes: { 'GET /api/checkout/config': () => ({ status: 404, body: { error: 'not_found', message: 'Not found.' } }) } });
    expect(await screen.findByTestId('payments-not-configured')).toHaveTextContent('Payments are not configured yet. Please try again later.');
    expect(screen.queryByTestId('pay-now')).not.toBeInTheDocument();
  });

  it("an organization's product: paid with the organization's Stripe keys only, so no PayPal; without them it says so (EN/ES)", async () => {
    const orgProduct = { ...product, organization_id: 5 };
    const { unmount } = open({ routes: { 'GET /api/products/2': () => ({ body: orgProduct }) } });
    expect(await payButton()).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'PayPal' })).not.toBeInTheDocument();
    unmount();
    open({ routes: { 'GET /api/products/2': () => ({ body: orgProduct }), 'GET /api/checkout/config': () => ({ body: { stripe: null, demo: false } }) } });
    expect(await screen.findByTestId('payments-not-configured')).toHaveTextContent('This organization has not set up its payments yet. Please contact its administrator.');
    await setLanguage('es');
    expect(await screen.findByTestId('payments-not-configured')).toHaveTextContent('Esta organización aún no ha configurado sus pagos.');
  });

  describe('discount code', () => {
    it('applies a code and shows the discount and the new total', async () => {
      const user = userEvent.setup({ delay: null });
      const { calls } = open({
        routes: {
          'GET /api/discounts/code/SAVE25': () => ({
            body: { code: 'SAVE25', is_percent: true, amount: 25, first_invoice_only: false, product_id: 2, price_cents: 2000, discounted_price_cents: 1500 },
          }),
        },
      });
      await user.type(await screen.findByLabelText('Discount code'), 'SAVE25');
      await user.click(screen.getByRole('button', { name: 'Apply' }));
      expect(await screen.findByTestId('discount-applied')).toHaveTextContent('Code SAVE25 applied: 25% off.');
      expect(screen.getByTestId('summary-discount')).toHaveTextContent('$5.00');
      expect(screen.getByTestId('summary-total')).toHaveTextContent('$15.00 USD');
      expect(calls.find((c) => c.url.includes('/discounts/code/'))?.url).toContain('product_id=2');
      await user.click(screen.getByRole('button', { name: 'Remove' }));
      expect(screen.getByTestId('summary-total')).toHaveTextContent('$20.00 USD');
    });

    it.each([
      ['en', 412, "We're sorry, you cannot use this discount code anymore."],
      ['es', 412, 'Lo sentimos, ya no puedes usar este código de descuento.'],
      ['en', 404, "We're sorry, that discount is invalid."],
      ['es', 404, 'Lo sentimos, ese descuento no es válido.'],
      ['en', 400, "We're sorry, that discount is invalid."],
    ] as const)('%s: a %i answer says %s', async (lang, status, text) => {
      await setLanguage(lang);
      const user = userEvent.setup({ delay: null });
      open({ routes: { 'GET /api/discounts/code/OLD': () => ({ status, body: { error: 'discount', message: 'x' } }) } });
      await user.type(await screen.findByLabelText(lang === 'en' ? 'Discount code' : 'Código de descuento'), 'OLD');
      await user.click(screen.getByRole('button', { name: lang === 'en' ? 'Apply' : 'Aplicar' }));
      expect(await screen.findByText(text)).toBeInTheDocument();
      expect(screen.getByTestId('summary-total')).toHaveTextContent('$20.00 USD');
    });
  });

  describe('checkout rules (spec part 1 §4)', () => {
    it('tells a customer who already has this product and sends them home', async () => {
      open({ user: buildUser({ purchase: activePurchase(2, 'Pro') }) });
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
      expect(await screen.findByText('You already have this plan. There is nothing more to buy.')).toBeInTheDocument();
    });

    it('does not count an expired purchase of the same product', async () => {
      open({ user: buildUser({ purchase: { ...activePurchase(2), expires_at: '2000-01-01T00:00:00.000Z' } }) });
      expect(await payButton()).toBeInTheDocument();
      expect(screen.getByTestId('location')).toHaveTextContent('/checkout/2');
    });

    // The spec decides when (a higher product number, or product 1); the prices decide the words
    // (this product costs $20: its sale price).
    it.each([
      ['a higher product number, dearer', 5, { price: 49, sale_price: null }, 'Change to a lower plan?', 'replaces it with a lower plan'],
      ['product 1, cheaper (Starter $19 → $20)', 1, { price: 19, sale_price: null }, 'Change to a higher plan?', 'replaces it with a higher-priced plan'],
      ['a higher product number, the same price', 5, { price: 25, sale_price: 20 }, 'Change your plan?', 'replaces your current plan'],
      ['product 1, no longer on sale (price unknown)', 1, null, 'Change your plan?', 'replaces your current plan'],
      ['product 1, cheaper, in Spanish', 1, { price: 19, sale_price: null }, '¿Cambiar a un plan superior?', 'lo reemplaza por un plan de mayor precio', 'es' as const],
    ])('asks to confirm a change from %s before paying, worded from the prices', async (_, current, price, title, body, lang: 'en' | 'es' = 'en') => {
      await setLanguage(lang);
      const user = userEvent.setup({ delay: null });
      const { calls } = open({
        user: buildUser({ purchase: activePurchase(current, 'Agency') }),
        routes: {
          'POST /api/checkout/attempt': () => ({ body: { purchase_id: 77, kind: 'payment', clientSecret: 'pi_1_secret_x', total_payment: 20 } }),
          ...(price ? { [`GET /api/products/${current}`]: () => ({ body: { ...product, product_id: current, name: 'Agency', ...price } }) } : {}),
        },
      });
      await typeCard(user);
      await waitFor(() => expect(calls.some((c) => c.url.endsWith(`/api/products/${current}`))).toBe(true));
      await user.click(await payButton());
      const modal = await screen.findByRole('dialog');
      await waitFor(() => expect(modal).toHaveTextContent(title));
      expect(modal).toHaveTextContent(lang === 'en' ? `You currently have Agency. Buying Pro ${body}` : `Actualmente tienes Agency. Comprar Pro ${body}`);
      // Keeping the plan pays nothing.
      await user.click(within(modal).getByRole('button', { name: lang === 'en' ? 'Keep my plan' : 'Mantener mi plan' }));
      expect(calls.some((c) => c.url.endsWith('/checkout/attempt'))).toBe(false);
      await user.click(await payButton());
      await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: lang === 'en' ? 'Yes, change my plan' : 'Sí, cambiar mi plan' }));
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/thankyou/77'));
    });

    it('pays without a warning when the higher plan is no longer active', async () => {
      const user = userEvent.setup({ delay: null });
      open({
        user: buildUser({ purchase: { ...activePurchase(5), status: 'cancelled' } }),
        routes: { 'POST /api/checkout/attempt': () => ({ body: { purchase_id: 78, kind: 'payment', clientSecret: 'pi_1_secret_x', total_payment: 20 } }) },
      });
      await typeCard(user);
      await user.click(await payButton());
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/thankyou/78'));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
  });

  describe('Pay Now', () => {
    it('is disabled while the card is empty or incomplete, and while paying', async () => {
      const user = userEvent.setup({ delay: null });
      let answer: (value: Response) => void = () => undefined;
      open();
      const fetchBefore = globalThis.fetch;
      globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
        String(input).endsWith('/checkout/attempt') ? new Promise<Response>((resolve) => (answer = resolve)) : fetchBefore(input, init)) as typeof fetch;
      expect(await payButton()).toBeDisabled();
      await typeCard(user, '4242');
      expect(await payButton()).toBeDisabled();
      await typeCard(user, '424242424242');
      expect(await payButton()).toBeEnabled();
      expect(await payButton()).toHaveTextContent('Pay Now · $20.00');
      await user.click(await payButton());
      await waitFor(async () => expect(await payButton()).toBeDisabled());
      answer(new Response(JSON.stringify({ purchase_id: 9, kind: 'payment', clientSecret: 'pi_9_secret_x', total_payment: 20 }), { status: 200 }));
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/thankyou/9'));
      expect(elements.submit).toHaveBeenCalled();
      expect(stripe.confirmPayment).toHaveBeenCalledWith(
        expect.objectContaining({ clientSecret: 'pi_9_secret_x', redirect: 'if_required', confirmParams: { return_url: `${window.location.origin}/thankyou/9` } }),
      );
    });

    it('confirms a trial with confirmSetup', async () => {
      const user = userEvent.setup({ delay: null });
      open({
        routes: {
          'GET /api/products/2': () => ({ body: { ...product, is_subscription: true, subscription_period: 'month', subscription_interval: 1, free_trial_length: 7 } }),
          'POST /api/checkout/attempt': () => ({ body: { purchase_id: 10, kind: 'setup', clientSecret: 'seti_1_secret_x', total_payment: 0 } }),
        },
      });
      expect(await screen.findByTestId('summary-total')).toHaveTextContent('$0.00 USD');
      await typeCard(user);
      expect(await payButton()).toHaveTextContent('Start free trial');
      await user.click(await payButton());
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/thankyou/10'));
      expect(stripe.confirmSetup).toHaveBeenCalledWith(expect.objectContaining({ clientSecret: 'seti_1_secret_x' }));
    });

    it("hands the customer session to Stripe's Elements: the Payment Element shows the saved cards, the page no list of its own", async () => {
      const { calls } = open();
      expect(await payButton()).toBeDisabled();
      await waitFor(() => expect(elementsGroup.options).toMatchObject({ customerSessionClientSecret: 'cuss_secret_test', mode: 'payment', amount: 2000, currency: 'usd' }));
      // The save box of the session decides whether a new card is kept: no setupFutureUsage of the page's own.
      expect(elementsGroup.options).not.toHaveProperty('setupFutureUsage');
      expect(calls.filter((c) => c.url.endsWith('/api/checkout/customer_session'))).toHaveLength(1);
      expect(calls.filter((c) => c.url.endsWith('/api/checkout/customer_session'))[0].method).toBe('POST');
      expect(calls.some((c) => c.url.includes('/payment_sources'))).toBe(false);
      expect(within(screen.getByTestId('payment-section')).queryByRole('radio')).not.toBeInTheDocument();
    });

    it('pays with a saved card chosen in the Payment Element, confirmed by Stripe.js with the Elements group', async () => {
      const user = userEvent.setup({ delay: null });
      const { calls } = open({ routes: { 'POST /api/checkout/attempt': () => ({ body: { purchase_id: 11, kind: 'payment', clientSecret: 'pi_11_secret_x', total_payment: 20 } }) } });
      await user.click(await screen.findByRole('button', { name: 'Visa ending in 4242' }));
      expect(await payButton()).toBeEnabled();
      await user.click(await payButton());
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/thankyou/11'));
      expect(calls.find((c) => c.url.endsWith('/checkout/attempt'))?.body).toEqual({ product_id: 2 });
      expect(stripe.confirmPayment).toHaveBeenCalledWith(expect.objectContaining({ elements, clientSecret: 'pi_11_secret_x', redirect: 'if_required' }));
    });

    it('still takes a new card when no customer session can be had', async () => {
      const user = userEvent.setup({ delay: null });
      open({
        routes: {
          'POST /api/checkout/customer_session': () => ({ status: 502, body: { error: 'payments_provider_error', message: 'x' } }),
          'POST /api/checkout/attempt': () => ({ body: { purchase_id: 14, kind: 'payment', clientSecret: 'pi_14_secret_x', total_payment: 20 } }),
        },
      });
      await typeCard(user);
      expect(elementsGroup.options).not.toHaveProperty('customerSessionClientSecret');
      expect(screen.queryByTestId('payment-error')).not.toBeInTheDocument();
      await user.click(await payButton());
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/thankyou/14'));
    });

    it('sends the applied discount code with the purchase', async () => {
      const user = userEvent.setup({ delay: null });
      const { calls } = open({
        routes: {
          'GET /api/discounts/code/HALF': () => ({ body: { code: 'HALF', is_percent: true, amount: 50, first_invoice_only: false, product_id: 2, price_cents: 2000, discounted_price_cents: 1000 } }),
          'POST /api/checkout/attempt': () => ({ body: { purchase_id: 12, kind: 'payment', clientSecret: 'pi_12_secret_x', total_payment: 10 } }),
        },
      });
      await user.type(await screen.findByLabelText('Discount code'), 'HALF');
      await user.click(screen.getByRole('button', { name: 'Apply' }));
      await screen.findByTestId('discount-applied');
      await typeCard(user);
      expect(await payButton()).toHaveTextContent('$10.00');
      await user.click(await payButton());
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/thankyou/12'));
      expect(calls.find((c) => c.url.endsWith('/checkout/attempt'))?.body).toEqual({ product_id: 2, discountCode: 'HALF' });
    });
  });

  describe('errors (spec part 1 §8)', () => {
    const http = (status: number, error = 'x') => () => ({ status, body: { error, message: 'server text' } });
    const cases: [string, Routes[string] | 'network' | 'card', string, string][] = [
      ['a card error from Stripe', 'card', 'There was an error processing your purchase: Your card was declined.', 'Hubo un error al procesar tu compra: Your card was declined.'],
      ['HTTP 402', http(402), 'Your card was declined for insufficient funds. Please try another payment method.', 'Tu tarjeta fue rechazada por fondos insuficientes. Por favor, intenta con otro método de pago.'],
      ['another response error', http(502, 'payments_provider_error'), 'your card was rejected, please try another payment method', 'tu tarjeta fue rechazada, por favor intenta con otro método de pago'],
      ['no response', 'network', "We're sorry, there was an error processing your purchase.", 'Lo sentimos, hubo un error al procesar tu compra.'],
      ['purchase 400', http(400, 'validation_error'), 'You have not selected a valid payment method.', 'No has seleccionado un método de pago válido.'],
      ['purchase 409', http(409, 'purchase_limit_reached'), "We're sorry, you cannot purchase this product anymore.", 'Lo sentimos, ya no puedes comprar este producto.'],
      ['purchase 412', http(412, 'product_unavailable'), "We're sorry, this product cannot be purchase anymore.", 'Lo sentimos, este producto ya no se puede comprar.'],
      ['payments not configured', http(409, 'payments_not_configured'), 'Payments are not configured yet. Please try again later.', 'Los pagos aún no están configurados. Inténtalo de nuevo más tarde.'],
      ['product 404', http(404, 'product_not_found'), 'This package was not found.', 'No se encontró el paquete.'],
    ];

    it.each(cases.flatMap(([name, answer, en, es]) => [[name, 'en', answer, en] as const, [name, 'es', answer, es] as const]))('%s (%s)', async (_, lang, answer, text) => {
      await setLanguage(lang);
      const user = userEvent.setup({ delay: null });
      const attempt: Routes[string] =
        answer === 'network' || answer === 'card' ? () => ({ body: { purchase_id: 13, kind: 'payment', clientSecret: 'pi_13_secret_x', total_payment: 20 } }) : answer;
      open({ routes: { 'POST /api/checkout/attempt': attempt } });
      if (answer === 'network') {
        const fetchBefore = globalThis.fetch;
        globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
          String(input).endsWith('/checkout/attempt') ? Promise.reject(new TypeError('Failed to fetch')) : fetchBefore(input, init)) as typeof fetch;
      }
      if (answer === 'card') stripe.confirmPayment = vi.fn(async () => ({ error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } }));
      await typeCard(user);
      await user.click(await payButton());
      expect(await screen.findByText(text)).toBeInTheDocument();
      expect(screen.getByTestId('location')).toHaveTextContent('/checkout/2');
      // The customer can try again.
      expect(await payButton()).toBeEnabled();
    });

    it('leaves an incomplete card to the Payment Element (no alert of its own)', async () => {
      const user = userEvent.setup({ delay: null });
      const { calls } = open();
      elements.submit = vi.fn(async () => ({ error: { type: 'validation_error', message: 'Your card number is incomplete.' } }));
      await typeCard(user);
      await user.click(await payButton());
      await waitFor(() => expect(elements.submit).toHaveBeenCalled());
      expect(screen.queryByTestId('payment-error')).not.toBeInTheDocument();
      expect(calls.some((c) => c.url.endsWith('/checkout/attempt'))).toBe(false);
    });
  });

  describe('PayPal', () => {
    it('offers PayPal under the card form and goes to the thank-you page when it is paid', async () => {
      const user = userEvent.setup({ delay: null });
      open();
      await user.click(await screen.findByRole('button', { name: 'PayPal' }));
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/thankyou/90'));
    });

    it("shows PayPal's refusal like the card's", async () => {
      const user = userEvent.setup({ delay: null });
      open();
      await user.click(await screen.findByRole('button', { name: 'PayPal fails' }));
      expect(await screen.findByTestId('payment-error')).toHaveTextContent('The PayPal order was not approved.');
    });

    it('asks to confirm a downgrade before showing PayPal', async () => {
      const user = userEvent.setup({ delay: null });
      open({ user: buildUser({ purchase: activePurchase(5, 'Agency') }) });
      expect(screen.queryByRole('button', { name: 'PayPal' })).not.toBeInTheDocument();
      await user.click(await screen.findByRole('button', { name: 'Or pay with PayPal' }));
      await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes, change my plan' }));
      expect(await screen.findByRole('button', { name: 'PayPal' })).toBeInTheDocument();
    });
  });
});
