// The back-office customers screens (spec part 1 §2, §4, §8, §9) in English and Spanish, against a stubbed
// API; the rules behind them (WhatsApp 52, gift total, sorting) as units.
import type { CustomerDetail, CustomerRow } from '@pluma/common/admin-users';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import CustomerFormPage from './CustomerFormPage';
import CustomerPage from './CustomerPage';
import CustomersPage from './CustomersPage';
import { giveAccessTotal, nextSort, whatsappLink } from './customers-view';
import ViewingAsBar from './ViewingAsBar';

const admin = buildUser({ user_id: 1, staff: { staff_id: 1, role: 'admin' } });
const manager = buildUser({ user_id: 2, staff: { staff_id: 2, role: 'manager' } });

function row(overrides: Partial<CustomerRow> = {}): CustomerRow {
  return { user_id: 10, name: 'Luis', last_name: 'Gómez', email: 'luis@example.com', phone: '5512345678', role: null, total_words: 1500, last_used: null, ltv: 42.5, createdAt: '2026-11-02T10:00:00.000Z', ...overrides };
}

function detail(overrides: Partial<CustomerDetail> = {}): CustomerDetail {
  return {
    user_id: 10,
    name: 'Luis',
    last_name: 'Gómez',
    email: 'luis@example.com',
    phone: '5512345678',
    instagram: '@luis',
    birthday: '1990-04-01',
    lang: 'es',
    signup_reason: 'Other',
    picture: null,
    staff: null,
    available_words: 100,
    total_words: 1500,
    value: 42.5,
    total_purchases: 1,
    last_used: null,
    purchases: [
      { purchase_id: 5, status: 'completed', product_id: 3, product: { name: 'Starter' }, amount: 10, total_payment: 10, is_gift: false, expiration_days: 30, expires_at: '2026-12-20T10:00:00.000Z', payment_method_id: null, payment_processor_id: null, subscription_id: null, cancel_reason: null, createdAt: '2026-11-20T10:00:00.000Z' },
    ],
    invoices: [{ invoice_id: 7, purchase_id: 5, status: 'completed', amount: 10, total_payment: 10, payment_method_id: null, order_id: 'pi_1', expiration_date: null, createdAt: '2026-11-20T10:00:00.000Z' }],
    createdAt: '2026-11-02T10:00:00.000Z',
    ...overrides,
  };
}

const show = (ui: React.ReactElement, user: typeof admin, route: string, path: string) =>
  renderScreen(<Suspense fallback={null}>{ui}</Suspense>, { session: fakeSession(user), route, path });

afterEach(async () => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  await i18n.changeLanguage('en');
});

describe('customers rules', () => {
  it('WhatsApp links use the prefix 52 and the digits only', () => {
    expect(whatsappLink('(55) 1234-5678')).toBe('https://wa.me/525512345678');
    expect(whatsappLink(null)).toBeNull();
    expect(whatsappLink('')).toBeNull();
  });
  it('a gift costs 0; otherwise the sale price, else the price', () => {
    expect(giveAccessTotal({ price: 20, sale_price: 15 }, false)).toBe(15);
    expect(giveAccessTotal({ price: 20, sale_price: null }, false)).toBe(20);
    expect(giveAccessTotal({ price: 20, sale_price: null }, true)).toBe(0);
  });
  it('a sorted header flips; a new one starts descending, text ascending', () => {
    expect(nextSort({ sort: 'ltv', direction: 'desc' }, 'ltv')).toEqual({ sort: 'ltv', direction: 'asc' });
    expect(nextSort({ sort: 'ltv', direction: 'asc' }, 'last_used')).toEqual({ sort: 'last_used', direction: 'desc' });
    expect(nextSort({ sort: 'ltv', direction: 'asc' }, 'name')).toEqual({ sort: 'name', direction: 'asc' });
  });
});

describe('customers list', () => {
  it('shows the columns, Not used yet, WhatsApp and Add (admin); asks the current month; sorts by a header', async () => {
    const { calls } = stubFetch({ 'GET /api/users/admin/all': () => ({ body: { users: [row(), row({ user_id: 11, name: 'Eva', role: 'manager', last_used: '2026-11-20T15:04:00.000Z', phone: null })], total: 2 } }) });
    show(<CustomersPage />, admin, '/admin/users', '/admin/users');
    const rows = await screen.findAllByTestId('customer-row');
    expect(rows[0]).toHaveTextContent('#10');
    expect(rows[0]).toHaveTextContent('Luis Gómez');
    expect(rows[0]).toHaveTextContent('Customer');
    expect(rows[0]).toHaveTextContent('1,500');
    expect(rows[0]).toHaveTextContent('Not used yet');
    expect(rows[0]).toHaveTextContent('$42.50');
    expect(within(rows[0]).getByRole('link', { name: 'WhatsApp 5512345678' })).toHaveAttribute('href', 'https://wa.me/525512345678');
    expect(rows[1]).toHaveTextContent('Manager');
    expect(rows[1]).toHaveTextContent(/20 Nov 2026 \d\d:\d\d/);
    expect(screen.getByTestId('add-customer')).toHaveAttribute('href', '/admin/users/new/edit');
    expect(screen.getByTestId('customers-total')).toHaveTextContent('2 customers');

    const first = new URL(calls[0].url, 'http://x');
    const today = new Date();
    expect(first.searchParams.get('start_date')).toBe(`${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-01`);
    expect(first.searchParams.get('page')).toBe('1');

    fireEvent.click(screen.getByTestId('sort-ltv'));
    await waitFor(() => expect(new URL(calls.at(-1)!.url, 'http://x').searchParams.get('sort')).toBe('ltv'));
    expect(new URL(calls.at(-1)!.url, 'http://x').searchParams.get('direction')).toBe('desc');
    expect(screen.getByTestId('sort-ltv').closest('th')).toHaveAttribute('aria-sort', 'descending');
  });

  it('searches 500 ms after the last key, in the chosen field', async () => {
    const { calls } = stubFetch({ 'GET /api/users/admin/all': () => ({ body: { users: [], total: 0 } }) });
    show(<CustomersPage />, admin, '/admin/users', '/admin/users');
    expect(await screen.findByTestId('customers-empty')).toHaveTextContent('No records found');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.change(screen.getByTestId('customers-search'), { target: { value: 'lu' } });
    fireEvent.change(screen.getByTestId('customers-search'), { target: { value: 'luis' } });
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(calls.some((c) => c.url.includes('query=lu'))).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(300));
    await waitFor(() => expect(calls.some((c) => new URL(c.url, 'http://x').searchParams.get('query') === 'luis')).toBe(true));
    expect(calls.some((c) => new URL(c.url, 'http://x').searchParams.get('query') === 'lu')).toBe(false);
  });

  it('in Spanish, and without Add for a manager', async () => {
    await setLanguage('es');
    stubFetch({ 'GET /api/users/admin/all': () => ({ body: { users: [row()], total: 1 } }) });
    show(<CustomersPage />, manager, '/admin/users', '/admin/users');
    const [first] = await screen.findAllByTestId('customer-row');
    expect(first).toHaveTextContent('Sin uso todavía');
    expect(first).toHaveTextContent('Cliente');
    expect(screen.getByRole('button', { name: /Palabras totales/ })).toBeInTheDocument();
    expect(screen.queryByTestId('add-customer')).toBeNull();
  });
});

describe('customer detail', () => {
  const routes = (extra: Parameters<typeof stubFetch>[0] = {}) => stubFetch({ 'GET /api/users/10/admin': () => ({ body: detail() }), ...extra });

  it('shows the profile, totals, purchases and invoices; copies a reset link with the spec\'s message', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    routes({ 'POST /api/users/resetPasswordLink': () => ({ body: { link: 'http://app/reset-password?token=abc' } }) });
    await setLanguage('es');
    show(<CustomerPage />, admin, '/admin/users/10', '/admin/users/:id');
    const card = await screen.findByTestId('profile-card');
    expect(card).toHaveTextContent('luis@example.com');
    expect(card).toHaveTextContent('1990-04-01');
    expect(card).toHaveTextContent('@luis');
    expect(card).toHaveTextContent('Compras totales1');
    expect(screen.getAllByTestId('customer-purchase')[0]).toHaveTextContent('Starter');
    // Statuses in the screen's language, as on /admin.
    expect(screen.getAllByTestId('customer-purchase')[0]).toHaveTextContent('Completada');
    expect(screen.getByTestId('customer-invoices')).toHaveTextContent(/10\.00/);
    expect(screen.getByTestId('customer-invoices')).not.toHaveTextContent('completed');
    fireEvent.click(screen.getByTestId('reset-link'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('http://app/reset-password?token=abc'));
    expect(await screen.findByText('Enlace copiado al portapapeles.')).toBeInTheDocument();
  });

  it('a revoked purchase has no "Access until" date: it says it gives no access (English and Spanish)', async () => {
    const base = detail().purchases[0];
    routes({ 'GET /api/users/10/admin': () => ({ body: detail({ purchases: [base, { ...base, purchase_id: 6, status: 'revoked', product: { name: 'Pro' } }] }) }) });
    show(<CustomerPage />, admin, '/admin/users/10', '/admin/users/:id');
    const [kept, revoked] = await screen.findAllByTestId('customer-purchase');
    expect(within(kept).getByTestId('purchase-expires')).toHaveTextContent(/2026/);
    expect(within(revoked).getByTestId('purchase-expires')).toHaveTextContent('No access');
    expect(revoked).not.toHaveTextContent(/2026.*2026/);
    await act(() => setLanguage('es'));
    await waitFor(() => expect(within(revoked).getByTestId('purchase-expires')).toHaveTextContent('Sin acceso'));
  });

  it('says the spec\'s text when the clipboard refuses', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(async () => Promise.reject(new Error('denied'))) }, configurable: true });
    routes({ 'POST /api/users/resetPasswordLink': () => ({ body: { link: 'http://app/x' } }) });
    show(<CustomerPage />, admin, '/admin/users/10', '/admin/users/:id');
    fireEvent.click(await screen.findByTestId('reset-link'));
    expect(await screen.findByText('Unable to copy content to clipboard. Please copy manually.')).toBeInTheDocument();
  });

  it('gives access as a gift: the product fills days and price, the gift makes it 0 and hides the payment method', async () => {
    const { calls } = routes({
      'GET /api/products': () => ({ body: { products: [{ product_id: 3, name: 'Starter', price: 20, sale_price: null, expiration_days: 30 }], total: 1 } }),
      'GET /api/payment_method': () => ({ body: [{ payment_method_id: 1, name: 'Cash' }] }),
      'POST /api/users/giveAccess': () => ({ status: 201, body: {} }),
    });
    show(<CustomerPage />, manager, '/admin/users/10', '/admin/users/:id');
    fireEvent.click(await screen.findByTestId('give-access'));
    const modal = await screen.findByTestId('give-access-modal');
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/products'))).toBe(true));
    const select = await within(modal).findByTestId('give-access-product');
    fireEvent.click(select);
    await waitFor(() => expect(select).toHaveAttribute('aria-controls'));
    // The dropdown is still in its opening transition: present, not yet "visible" to role queries.
    const options = await waitFor(() => within(document.getElementById(select.getAttribute('aria-controls')!)!).getAllByRole('option', { hidden: true }));
    fireEvent.click(options.find((o) => o.textContent === 'Starter')!);
    await waitFor(() => expect(within(modal).getByTestId('give-access-days')).toHaveValue('30'));
    expect(within(modal).getByTestId('give-access-total')).toHaveValue('$20');
    expect(within(modal).getByTestId('give-access-method')).toBeInTheDocument();
    fireEvent.click(within(modal).getByTestId('give-access-gift'));
    expect(within(modal).getByTestId('give-access-total')).toHaveValue('$0');
    expect(within(modal).queryByTestId('give-access-method')).toBeNull();
    fireEvent.click((await within(modal).findByRole('button', { name: 'Give access', hidden: true })));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ user_id: 10, product_id: 3, gift: true, expiration_days: 30, total: 0, payment_method_id: null }));
    expect(await screen.findByText('Access added.')).toBeInTheDocument();
  });

  it('a manager sees no delete, edit, revoke or log in as; extend is theirs', async () => {
    routes();
    show(<CustomerPage />, manager, '/admin/users/10', '/admin/users/:id');
    await screen.findByTestId('profile-card');
    expect(screen.queryByTestId('delete-customer')).toBeNull();
    expect(screen.queryByTestId('edit-customer')).toBeNull();
    expect(screen.queryByTestId('login-as')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Revoke purchase #5' })).toBeNull();
    expect(screen.queryByTestId('add-invoice')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit invoice #7' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Extend purchase #5' })).toBeInTheDocument();
  });

  it('deletes after the spec\'s confirmation, then goes to /admin/users', async () => {
    const { calls } = routes({ 'DELETE /api/users/admin/10': () => ({ status: 204 }) });
    show(<CustomerPage />, admin, '/admin/users/10', '/admin/users/:id');
    fireEvent.click(await screen.findByTestId('delete-customer'));
    const modal = await screen.findByTestId('delete-modal');
    // The modal's content mounts after its opening transition.
    await waitFor(() => expect(modal).toHaveTextContent("Are you sure you want to delete this user's account? This action cannot de undone."));
    fireEvent.click((await within(modal).findByRole('button', { name: 'Delete user', hidden: true })));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/users'));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true);
  });

  it('logs in as the user in a new tab with the one-time uid', async () => {
    const tab = { opener: {}, location: { href: '' }, close: vi.fn() };
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    routes({ 'POST /api/users/admin/10/impersonate': () => ({ status: 201, body: { uid: 'one-time-token-123' } }) });
    show(<CustomerPage />, admin, '/admin/users/10', '/admin/users/:id');
    fireEvent.click(await screen.findByTestId('login-as'));
    await waitFor(() => expect(tab.location.href).toBe('/?uid=one-time-token-123&view_as=1'));
    expect(tab.opener).toBeNull();
  });

  it('adds an invoice for this customer with the back office\'s invoice editor (pending, 0, no purchase)', async () => {
    const { calls } = routes({ 'POST /api/invoices/admin': () => ({ status: 201, body: {} }) });
    show(<CustomerPage />, admin, '/admin/users/10', '/admin/users/:id');
    fireEvent.click(await screen.findByTestId('add-invoice'));
    // The modal's content mounts after its opening transition (role queries see it only with hidden: true).
    const save = await within(await screen.findByTestId('invoice-modal')).findByRole('button', { name: 'Save', hidden: true });
    fireEvent.click(save);
    await waitFor(() => expect(calls.find((c) => c.method === 'POST' && c.url.startsWith('/api/invoices/admin'))?.body).toMatchObject({ status: 'pending', amount: 0, purchase_id: null, user_id: 10 }));
    expect(await screen.findByText('Invoice saved.')).toBeInTheDocument();
  });

  it('offers no log in as for a staff member', async () => {
    stubFetch({ 'GET /api/users/10/admin': () => ({ body: detail({ staff: { staff_id: 4, role: 'manager' } }) }) });
    show(<CustomerPage />, admin, '/admin/users/10', '/admin/users/:id');
    await screen.findByTestId('profile-card');
    expect(screen.getByTestId('profile-card')).toHaveTextContent('Manager');
    expect(screen.queryByTestId('login-as')).toBeNull();
  });

  it('is a not-found message for an unknown customer, in Spanish', async () => {
    await setLanguage('es');
    stubFetch({});
    show(<CustomerPage />, admin, '/admin/users/99', '/admin/users/:id');
    expect(await screen.findByTestId('customer-error')).toBeInTheDocument();
  });
});

describe('customer form', () => {
  it('creates with POST /users/admin/user after checking the fields with the common rules', async () => {
    const { calls } = stubFetch({ 'POST /api/users/admin/user': () => ({ status: 201, body: detail({ user_id: 33 }) }) });
    show(<CustomerFormPage />, admin, '/admin/users/new/edit', '/admin/users/:id/edit');
    fireEvent.change(await screen.findByTestId('form-email'), { target: { value: 'bad' } });
    fireEvent.change(screen.getByTestId('form-birthday'), { target: { value: '1990-13-01' } });
    fireEvent.click(screen.getByTestId('form-save'));
    expect(await screen.findByText('Email is invalid.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    fireEvent.change(screen.getByTestId('form-name'), { target: { value: 'Nora' } });
    fireEvent.change(screen.getByTestId('form-email'), { target: { value: 'nora@example.com' } });
    fireEvent.change(screen.getByTestId('form-birthday'), { target: { value: '1990-12-01' } });
    fireEvent.change(screen.getByTestId('form-publicity'), { target: { value: 'Radio' } });
    fireEvent.click(screen.getByTestId('form-save'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin/users/33'));
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ name: 'Nora', email: 'nora@example.com', birthday: '1990-12-01', signup_reason: 'Radio', lang: 'en' });
  });

  it('edits with PUT, labelled in Spanish (publicity)', async () => {
    await setLanguage('es');
    const { calls } = stubFetch({ 'GET /api/users/10/admin': () => ({ body: detail() }), 'PUT /api/users/admin/10': () => ({ body: detail({ name: 'Luisa' }) }) });
    show(<CustomerFormPage />, admin, '/admin/users/10/edit', '/admin/users/:id/edit');
    await waitFor(() => expect(screen.getByTestId('form-name')).toHaveValue('Luis'));
    expect(screen.getByText('Publicidad')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('form-name'), { target: { value: 'Luisa' } });
    fireEvent.click(screen.getByTestId('form-save'));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ name: 'Luisa', instagram: '@luis', lang: 'es', birthday: '1990-04-01' }));
  });
});

describe('viewing-as bar', () => {
  it('shows only in an impersonated session, and its way back ends that session', async () => {
    const signOut = vi.fn(async () => undefined);
    vi.spyOn(window, 'close').mockImplementation(() => undefined);
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, search: '' });
    const viewed = buildUser({ user_id: 10, name: 'Luis', last_name: 'Gómez', impersonated_by: { user_id: 1, name: 'Ada', email: 'ada@example.com' } });
    renderScreen(<ViewingAsBar />, { session: fakeSession(viewed, { signOut }) });
    const bar = await screen.findByTestId('viewing-as-bar');
    expect(bar).toHaveTextContent('Viewing as Luis Gómez (ana@example.com)');
    expect(bar).toHaveTextContent('Signed in by ada@example.com');
    fireEvent.click(within(bar).getByTestId('viewing-as-stop'));
    await waitFor(() => expect(signOut).toHaveBeenCalled());
    expect(window.close).toHaveBeenCalled();
    expect(assign).toHaveBeenCalledWith('/admin/users/10');
    vi.unstubAllGlobals();
  });

  it('is absent from an ordinary session', () => {
    renderScreen(<ViewingAsBar />, { session: fakeSession(buildUser()) });
    expect(screen.queryByTestId('viewing-as-bar')).toBeNull();
  });
});
