import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import ProductFormPage from './ProductFormPage';
import { managedProduct } from './test-products';

const stripeProducts = [{ id: 'prod_pro', name: 'Pro plan', active: true, description: null }];
const stripePrices = [
  { id: 'price_month', product: 'prod_pro', active: true, currency: 'usd', unit_amount: 2500, recurring: { interval: 'month', interval_count: 1 }, nickname: null },
  { id: 'price_once', product: 'prod_pro', active: true, currency: 'usd', unit_amount: 9900, recurring: null, nickname: null },
];

function renderForm(route: string, routes: Parameters<typeof stubFetch>[0] = {}) {
  const api = stubFetch({
    'GET /api/products/4': () => ({ body: managedProduct({ word_amount: null }) }),
    'GET /api/stripe/products': () => ({ body: stripeProducts }),
    'GET /api/stripe/prices/prod_pro': () => ({ body: stripePrices }),
    'POST /api/products': () => ({ status: 201, body: managedProduct({ product_id: 9, name: 'Team' }) }),
    'PUT /api/products': () => ({ body: managedProduct() }),
    ...routes,
  });
  const user = buildUser({ staff: { staff_id: 1, role: 'admin' } } as never);
  renderScreen(
    <Suspense fallback={null}>
      <ProductFormPage />
    </Suspense>,
    { session: fakeSession(user), route, path: route.endsWith('/new') ? '/admin/products/new' : '/admin/products/:id/edit' },
  );
  return api;
}

const sent = (calls: { method: string; url: string; body: unknown }[], method: string) => calls.find((c) => c.method === method && c.url.endsWith('/api/products'))?.body as Record<string, unknown> | undefined;

beforeEach(async () => {
  await setLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('/admin/products/{id}/edit', () => {
  it("lists the form's errors under 'Validation Errors:' and sends nothing", async () => {
    const { calls } = renderForm('/admin/products/new');
    fireEvent.click(await screen.findByTestId('product-save'));
    const alert = await screen.findByTestId('validation-errors');
    expect(alert).toHaveTextContent('Validation Errors:');
    expect(within(alert).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'The product must have a name.',
      'The product must have a description.',
      'The price must be a number greater than 0.',
      'The word amount must be a positive number, unless Unlimited is on.',
    ]);
    expect(sent(calls, 'POST')).toBeUndefined();
  });

  it('creates a new product with POST; the unlimited toggle hides and clears the word amount', async () => {
    const { calls } = renderForm('/admin/products/new');
    fireEvent.change(await screen.findByTestId('product-name'), { target: { value: 'Team' } });
    fireEvent.change(screen.getByTestId('product-description'), { target: { value: 'For teams' } });
    fireEvent.change(screen.getByTestId('product-price'), { target: { value: '49' } });
    fireEvent.change(screen.getByTestId('product-word_amount'), { target: { value: '1000' } });
    fireEvent.click(screen.getByTestId('product-unlimited'));
    expect(screen.queryByTestId('product-word_amount')).toBeNull();
    fireEvent.click(screen.getByTestId('product-save'));
    await waitFor(() => expect(sent(calls, 'POST')).toBeDefined());
    expect(sent(calls, 'POST')).toMatchObject({ name: 'Team', description: 'For teams', price: 49, word_amount: null });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/products'));
  });

  it('updates with PUT; the unlimited toggle starts on for a null word amount; enabling a subscription sets month and 1', async () => {
    const { calls } = renderForm('/admin/products/4/edit', {
      'GET /api/products/4': () => ({ body: managedProduct({ word_amount: null, is_subscription: false, subscription_period: null, subscription_interval: null }) }),
    });
    expect(await screen.findByTestId('product-unlimited')).toBeChecked();
    fireEvent.click(screen.getByTestId('product-subscription'));
    expect(screen.getByTestId('product-subscription_interval')).toHaveValue('1');
    expect(screen.getByTestId('product-subscription_period')).toHaveValue('Month');
    fireEvent.click(screen.getByTestId('product-save'));
    await waitFor(() => expect(sent(calls, 'PUT')).toBeDefined());
    expect(sent(calls, 'PUT')).toMatchObject({ product_id: 4, word_amount: null, is_subscription: true, subscription_period: 'month', subscription_interval: 1 });
  });

  it('loads the Stripe products, then the chosen product\'s prices, shown as dollars, currency, interval or One-Time, and id', async () => {
    const { calls } = renderForm('/admin/products/4/edit', { 'GET /api/products/4': () => ({ body: managedProduct({ stripe_product_id: 'prod_pro' }) }) });
    const priceSelect = await screen.findByTestId('stripe-price');
    await waitFor(() => expect(priceSelect).not.toBeDisabled());
    fireEvent.click(priceSelect);
    await waitFor(() => expect(priceSelect).toHaveAttribute('aria-controls'));
    // The dropdown is still in its opening transition: present, not yet "visible" to role queries.
    const options = within(document.getElementById(priceSelect.getAttribute('aria-controls') ?? '') as HTMLElement).getAllByRole('option', { hidden: true });
    expect(options.map((o) => o.textContent)).toEqual(['$25.00 USD · month · price_month', '$99.00 USD · One-Time · price_once']);
    fireEvent.click(options[1]);
    fireEvent.click(screen.getByTestId('product-save'));
    await waitFor(() => expect(sent(calls, 'PUT')).toBeDefined());
    expect(sent(calls, 'PUT')).toMatchObject({ stripe_product_id: 'prod_pro', stripe_price_id: 'price_once' });
    const order = calls.filter((c) => c.url.includes('/api/stripe/')).map((c) => c.url.replace(/^.*\/api/, ''));
    expect(order).toEqual(['/stripe/products', '/stripe/prices/prod_pro']);
  });

  it("shows the server's field errors of a 400 in the list", async () => {
    renderForm('/admin/products/4/edit', {
      'PUT /api/products': () => ({
        status: 400,
        body: { error: 'validation_error', message: 'Some fields are invalid.', details: { stripe_price_id: 'If stripe_product_id is provided, stripe_price_id must also be provided.' } },
      }),
    });
    fireEvent.click(await screen.findByTestId('product-save'));
    expect(await screen.findByTestId('validation-errors')).toHaveTextContent('Stripe price: If stripe_product_id is provided, stripe_price_id must also be provided.');
  });

  it('offers a free trial by days or by end date', async () => {
    const { calls } = renderForm('/admin/products/4/edit');
    fireEvent.click(await screen.findByRole('radio', { name: 'By end date' }));
    fireEvent.change(screen.getByTestId('product-free_trial_end'), { target: { value: '2026-12-31' } });
    fireEvent.click(screen.getByTestId('product-save'));
    await waitFor(() => expect(sent(calls, 'PUT')).toBeDefined());
    expect(sent(calls, 'PUT')).toMatchObject({ free_trial_end: '2026-12-31', free_trial_length: null });
  });

  it('speaks Spanish', async () => {
    await setLanguage('es');
    renderForm('/admin/products/new');
    fireEvent.click(await screen.findByTestId('product-save'));
    expect(await screen.findByTestId('validation-errors')).toHaveTextContent('Errores de validación:');
  });
});
