import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import ProductsPage from './ProductsPage';
import { managedProduct } from './test-products';

const pro = managedProduct({ product_id: 4, name: 'Pro', word_amount: null, webhook_url: 'https://hooks.example.com/lead' });
const starter = managedProduct({ product_id: 2, name: 'Starter', word_amount: 20_000, is_subscription: false, price: 9 });

function renderProducts(role: 'admin' | 'manager' = 'admin', routes: Parameters<typeof stubFetch>[0] = {}) {
  const api = stubFetch({
    'GET /api/products': (_init, url) => {
      const query = new URL(url, 'http://x').searchParams.get('query');
      const products = query ? [pro, starter].filter((p) => p.name.toLowerCase().includes(query.toLowerCase())) : [pro, starter];
      return { body: { products, total: products.length } };
    },
    ...routes,
  });
  const user = buildUser({ staff: { staff_id: 1, role } } as never);
  renderScreen(
    <Suspense fallback={null}>
      <ProductsPage />
    </Suspense>,
    { session: fakeSession(user), route: '/admin/products' },
  );
  return api;
}

const listCalls = (calls: { method: string; url: string }[]) => calls.filter((c) => c.method === 'GET' && c.url.includes('/api/products')).map((c) => new URL(c.url, 'http://x').searchParams);

beforeEach(async () => {
  await setLanguage('en');
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('/admin/products', () => {
  it("lists products sorted by name ascending by default, with 'Unlimited' for a null word amount", async () => {
    const { calls } = renderProducts();
    const rows = await screen.findAllByTestId('product-row');
    expect(rows[0]).toHaveTextContent('Pro');
    expect(rows[0]).toHaveTextContent('Unlimited');
    expect(rows[1]).toHaveTextContent('20,000');
    const first = listCalls(calls)[0];
    expect([first.get('sort'), first.get('direction')]).toEqual(['name', 'asc']);
  });

  it('sorts by a column, then the other way', async () => {
    const { calls } = renderProducts();
    await screen.findAllByTestId('product-row');
    fireEvent.click(screen.getByTestId('sort-price'));
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('sort')).toBe('price'));
    expect(listCalls(calls).at(-1)?.get('direction')).toBe('asc');
    fireEvent.click(screen.getByTestId('sort-price'));
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('direction')).toBe('desc'));
  });

  it('searches 500 ms after the last keystroke', async () => {
    const { calls } = renderProducts();
    await screen.findAllByTestId('product-row');
    vi.useFakeTimers({ shouldAdvanceTime: false });
    fireEvent.change(screen.getByTestId('products-search'), { target: { value: 'sta' } });
    act(() => vi.advanceTimersByTime(300));
    fireEvent.change(screen.getByTestId('products-search'), { target: { value: 'star' } });
    act(() => vi.advanceTimersByTime(499));
    expect(listCalls(calls).some((p) => p.get('query'))).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    vi.useRealTimers();
    await waitFor(() => expect(listCalls(calls).filter((p) => p.get('query')).map((p) => p.get('query'))).toEqual(['star']));
    await waitFor(() => expect(screen.getAllByTestId('product-row')).toHaveLength(1));
  });

  it("says 'No products available.' when there are none", async () => {
    renderProducts('admin', { 'GET /api/products': () => ({ body: { products: [], total: 0 } }) });
    expect(await screen.findByTestId('products-empty')).toHaveTextContent('No products available.');
  });

  it('tests the webhook of a product that has one and shows the answer', async () => {
    const { calls } = renderProducts('admin', {
      'POST /api/purchases/test': () => ({ body: { url: 'https://hooks.example.com/lead', status: 200, ok: true, body: '{"received":true}', sent: {} } }),
    });
    const [proRow, starterRow] = await screen.findAllByTestId('product-row');
    expect(within(starterRow).queryByRole('button', { name: 'Test' })).toBeNull();
    fireEvent.click(within(proRow).getByRole('button', { name: 'Test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Webhook test: Pro' });
    expect(dialog).toHaveTextContent('The webhook answered 200.');
    expect(dialog).toHaveTextContent('{"received":true}');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ product_id: 4 });
  });

  it('hides adding, editing and testing from managers', async () => {
    renderProducts('manager', {
      'GET /api/products': () => ({ body: { products: [{ ...pro, abilities: { ...pro.abilities, update: false, delete: false } }], total: 1 } }),
    });
    const row = await screen.findByTestId('product-row');
    expect(within(row).queryByRole('button')).toBeNull();
    expect(within(row).queryByRole('link')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add product' })).toBeNull();
  });

  it('speaks Spanish', async () => {
    await setLanguage('es');
    renderProducts('admin', { 'GET /api/products': () => ({ body: { products: [], total: 0 } }) });
    expect(await screen.findByTestId('products-empty')).toHaveTextContent('No hay productos disponibles.');
  });
});
