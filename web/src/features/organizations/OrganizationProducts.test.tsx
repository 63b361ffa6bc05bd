// The organization's product screens (spec part 2 §2 /organization/admin/products and
// /organization/admin/products/{product_id}; part 1 §2 "its add link is /organization/admin/products/new"),
// the back office's list and form in the organization's scope, for its Admin only, in English and Spanish;
// and the webhook address its settings tell the Admin to register in Stripe.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { organizationStore } from '../../api/organization';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import { managedProduct } from '../admin-products/test-products';
import { resetOrganizationSelection } from './organization-context';
import OrganizationProductFormPage from './OrganizationProductFormPage';
import OrganizationProductsPage from './OrganizationProductsPage';
import OrganizationSettingsPage from './OrganizationSettingsPage';
import { buildOrganization } from './test-organizations';

const customer = buildUser({ user_id: 7 });
const seat = managedProduct({ product_id: 4, name: 'Seat', organization_id: 5, webhook_url: 'https://hooks.example.com/lead' });
const stripeProducts = [{ id: 'prod_org', name: 'Org plan', active: true, description: null }];
const query = (url: string) => new URL(url, 'http://x').searchParams;

type Routes = Parameters<typeof stubFetch>[0];
function inAcme(role: 'admin' | 'manager' | 'member', routes: Routes = {}) {
  organizationStore.set({ organization_id: 5, name: 'Acme' });
  return stubFetch({
    'GET /api/organizations': () => ({ body: { organizations: [buildOrganization({ role })], total: 1 } }),
    'GET /api/products': (_init, url) => {
      const q = query(url).get('query');
      const products = q ? [seat].filter((p) => p.name.toLowerCase().includes(q.toLowerCase())) : [seat];
      return { body: { products, total: products.length } };
    },
    'GET /api/products/4': () => ({ body: seat }),
    'GET /api/stripe/products': () => ({ body: stripeProducts }),
    'POST /api/products': () => ({ status: 201, body: managedProduct({ product_id: 9, name: 'Team', organization_id: 5 }) }),
    'PUT /api/products': () => ({ body: seat }),
    ...routes,
  });
}

const show = (ui: React.ReactElement, route: string, path?: string) =>
  renderScreen(<Suspense fallback={null}>{ui}</Suspense>, { session: fakeSession(customer), route, path, config: { organizations_enabled: 'true' } });

beforeEach(async () => {
  organizationStore.set(null);
  resetOrganizationSelection();
  await setLanguage('en');
});
afterEach(() => {
  organizationStore.set(null);
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('/organization/admin/products', () => {
  it("lists the organization's products for its Admin, asked in the organization, with its add and edit links (no staff webhook test)", async () => {
    const { calls } = inAcme('admin');
    show(<OrganizationProductsPage />, '/organization/admin/products');
    const [row] = await screen.findAllByTestId('product-row');
    expect(row).toHaveTextContent('Seat');
    expect(screen.getByRole('link', { name: 'Add product' })).toHaveAttribute('href', '/organization/admin/products/new');
    expect(within(row).getByRole('link', { name: 'Edit Seat' })).toHaveAttribute('href', '/organization/admin/products/4');
    expect(screen.queryByTestId('webhook-test-4')).toBeNull();
    const list = calls.find((c) => c.method === 'GET' && c.url.startsWith('/api/products'))!;
    expect(query(list.url).get('organization_id')).toBe('5');
  });

  it("searches, and says 'No products available.' when nothing matches; in Spanish too", async () => {
    inAcme('admin');
    const { unmount } = show(<OrganizationProductsPage />, '/organization/admin/products');
    await screen.findAllByTestId('product-row');
    fireEvent.change(screen.getByTestId('products-search'), { target: { value: 'zzz' } });
    expect(await screen.findByTestId('products-empty', {}, { timeout: 3000 })).toHaveTextContent('No products available.');
    unmount();
    await setLanguage('es');
    inAcme('admin', { 'GET /api/products': () => ({ body: { products: [], total: 0 } }) });
    show(<OrganizationProductsPage />, '/organization/admin/products');
    expect(await screen.findByTestId('products-empty')).toHaveTextContent('No hay productos disponibles.');
    expect(screen.getByRole('heading', { name: 'Productos' })).toBeInTheDocument();
  });

  it('a Manager and a Member get the not-found page and nothing is asked; Personal is asked to choose an organization', async () => {
    for (const role of ['manager', 'member'] as const) {
      const { calls } = inAcme(role);
      const { unmount } = show(<OrganizationProductsPage />, '/organization/admin/products');
      expect(await screen.findByTestId('not-found')).toBeInTheDocument();
      expect(calls.some((c) => c.url.startsWith('/api/products'))).toBe(false);
      unmount();
    }
    organizationStore.set(null);
    show(<OrganizationProductsPage />, '/organization/admin/products');
    expect(await screen.findByTestId('choose-organization')).toBeInTheDocument();
  });
});

describe('/organization/admin/products/{product_id}', () => {
  it("creates a product in the organization, its Stripe section listing the organization's own catalog, then returns to the list", async () => {
    const { calls } = inAcme('admin');
    show(<OrganizationProductFormPage />, '/organization/admin/products/new', '/organization/admin/products/:id');
    fireEvent.change(await screen.findByTestId('product-name'), { target: { value: 'Team' } });
    fireEvent.change(screen.getByTestId('product-description'), { target: { value: 'For teams' } });
    fireEvent.change(screen.getByTestId('product-price'), { target: { value: '29' } });
    fireEvent.change(screen.getByTestId('product-word_amount'), { target: { value: '1000' } });
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/stripe/products'))).toBe(true));
    expect(query(calls.find((c) => c.url.startsWith('/api/stripe/products'))!.url).get('organization_id')).toBe('5');
    fireEvent.click(screen.getByTestId('product-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toMatchObject({ name: 'Team', description: 'For teams', price: 29 });
    expect(query(post.url).get('organization_id')).toBe('5');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/organization\/admin\/products$/));
  });

  it("Stripe out of reach: the new-product page says so in its own words (not the checkout's error) and can retry; EN and ES (issue 30 item 20)", async () => {
    let reachable = false;
    const { calls } = inAcme('admin', {
      'GET /api/stripe/products': () =>
        reachable ? { body: stripeProducts } : { status: 502, body: { error: 'payments_provider', message: 'The payment provider could not complete the checkout.' } },
    });
    const { unmount } = show(<OrganizationProductFormPage />, '/organization/admin/products/new', '/organization/admin/products/:id');
    const alert = await screen.findByTestId('stripe-unavailable', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent("Stripe can't be reached right now");
    expect(alert).not.toHaveTextContent('checkout');
    reachable = true;
    fireEvent.click(within(alert).getByTestId('stripe-retry'));
    expect(await screen.findByTestId('stripe-product')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.startsWith('/api/stripe/products')).length).toBeGreaterThanOrEqual(2);
    unmount();
    reachable = false;
    await setLanguage('es');
    show(<OrganizationProductFormPage />, '/organization/admin/products/new', '/organization/admin/products/:id');
    expect(await screen.findByTestId('stripe-unavailable', {}, { timeout: 5000 })).toHaveTextContent('No se puede conectar con Stripe en este momento');
  });

  it('edits a product with PUT; a Member gets the not-found page', async () => {
    const { calls } = inAcme('admin');
    const { unmount } = show(<OrganizationProductFormPage />, '/organization/admin/products/4', '/organization/admin/products/:id');
    expect(await screen.findByTestId('product-name')).toHaveValue('Seat');
    fireEvent.change(screen.getByTestId('product-name'), { target: { value: 'Seat plus' } });
    fireEvent.click(screen.getByTestId('product-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ product_id: 4, name: 'Seat plus' });
    unmount();
    const member = inAcme('member');
    show(<OrganizationProductFormPage />, '/organization/admin/products/4', '/organization/admin/products/:id');
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
    expect(member.calls.some((c) => c.url.startsWith('/api/products'))).toBe(false);
  });
});

describe("the organization's Stripe webhook address", () => {
  it('the settings show the address to register in Stripe, for this organization', async () => {
    stubFetch({ 'GET /api/organizations/5': () => ({ body: buildOrganization() }) });
    show(<OrganizationSettingsPage />, '/organizations/organization-settings/5', '/organizations/organization-settings/:id');
    expect(await screen.findByTestId('organization-webhook-url')).toHaveTextContent(`${window.location.origin}/api/stripe/webhook/organizations/5`);
    expect(screen.getByText(/paste its signing secret here/)).toBeInTheDocument();
  });
});
