import { INVOICE_STATUSES, PURCHASE_STATUSES, STATUS_FILTERS, type AdminPurchaseRow, type AdminPurchasesPage as RecordsPage } from '@pluma/common/admin-purchases';
import { purchasesDefaultRange, localDay } from '@pluma/common/rules/date-range';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import adminPurchasesEn from '../../i18n/admin-purchases.en.json';
import adminPurchasesEs from '../../i18n/admin-purchases.es.json';
import AdminPurchasesPage from './AdminPurchasesPage';
import { formatDateTime, pageCount, pageWindow, showsPaymentMethod, statusColor } from './admin-purchases-view';
import { buildAdminPurchaseRow } from './test-rows';

// A paid Stripe subscription with a discount code, as most /admin rows in these tests.
const row = (overrides: Partial<AdminPurchaseRow> = {}) =>
  buildAdminPurchaseRow({
    discount: { code: 'SPRING' },
    payment_method: { payment_method_id: 1, name: 'card' },
    payment_processor_id: 'pi_1',
    subscription_id: 'sub_1',
    subscription_period: 'month',
    abilities: { edit: true, cancel_subscription: true },
    ...overrides,
  });

const invoiceRow = row({ type: 'invoice', invoice_id: 40, purchase_id: null, status: 'completed', order_id: 'in_9', abilities: { edit: true, cancel_subscription: false } });
const cancelledRow = row({ purchase_id: 12, status: 'cancelled', cancel_reason: 'Asked by phone', abilities: { edit: true, cancel_subscription: false } });

function page(rows: AdminPurchaseRow[], total = rows.length, capped = false): RecordsPage {
  return { rows, total, total_capped: capped, page: 1, page_size: 12, start_date: '2026-11-01', end_date: '2026-12-01' };
}

function renderAdmin(options: { rows?: AdminPurchaseRow[]; total?: number; capped?: boolean; role?: 'admin' | 'manager'; put?: (body: Record<string, unknown>) => { status?: number; body?: unknown } } = {}) {
  const api = stubFetch({
    'GET /api/purchases/admin': () => ({ body: page(options.rows ?? [row(), cancelledRow, invoiceRow], options.total, options.capped) }),
    'GET /api/products': () => ({ body: { products: [{ product_id: 3, name: 'Pro plan' }, { product_id: 4, name: 'Starter' }], total: 2 } }),
    'PUT /api/purchases/admin': (init) => options.put?.(JSON.parse(String(init.body))) ?? { body: row() },
    'POST /api/invoices/admin': () => ({ status: 201, body: invoiceRow }),
  });
  const session = fakeSession(buildUser({ staff: { staff_id: 1, role: options.role ?? 'admin' } }));
  renderScreen(
    <Suspense fallback={null}>
      <AdminPurchasesPage />
    </Suspense>,
    { session, route: '/admin' },
  );
  return api;
}

/** Opens a Mantine Select and returns its options (its listbox, named by aria-controls once open). */
async function openOptions(input: HTMLElement) {
  fireEvent.click(input);
  await waitFor(() => expect(input).toHaveAttribute('aria-controls'));
  const listbox = document.getElementById(input.getAttribute('aria-controls')!)!;
  // The dropdown is still in its opening transition: present, not yet "visible" to role queries.
  return within(listbox).getAllByRole('option', { hidden: true });
}
const optionNamed = (options: HTMLElement[], name: string) => options.find((o) => o.textContent === name)!;

const listCalls = (calls: { method: string; url: string }[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/api/purchases/admin')).map((c) => new URL(c.url, 'http://x').searchParams);

afterEach(async () => {
  await setLanguage('en');
});

describe('/admin status badges', () => {
  it('every status (with the lifecycle\'s failed and expired) is worded in English and Spanish, failed in red', () => {
    const statuses = [...new Set([...PURCHASE_STATUSES, ...INVOICE_STATUSES, ...Object.values(STATUS_FILTERS).flat(), 'failed', 'expired'])];
    for (const status of statuses) {
      expect((adminPurchasesEn.statuses as Record<string, string>)[status], `${status} (en)`).toMatch(/\S/);
      expect((adminPurchasesEs.statuses as Record<string, string>)[status], `${status} (es)`).toMatch(/\S/);
    }
    expect(statusColor('failed')).toBe('red');
    expect(statusColor('expired')).toBe('gray');
  });

  it('shows a failed purchase with its badge and the provider\'s reason, and an expired one (Spanish)', async () => {
    const failed = { ...row({ purchase_id: 21, status: 'failed', abilities: { edit: true, cancel_subscription: false } }), failure_reason: 'Your card was declined.' };
    const expired = row({ purchase_id: 22, status: 'expired', abilities: { edit: true, cancel_subscription: false } });
    await setLanguage('es');
    renderAdmin({ rows: [failed, expired] });
    const rows = await screen.findAllByTestId('record-row');
    expect(within(rows[0]).getByTestId('record-status')).toHaveTextContent('Fallida');
    expect(within(rows[0]).getByTestId('record-failure-reason')).toHaveTextContent('Your card was declined.');
    expect(within(rows[1]).getByTestId('record-status')).toHaveTextContent('Vencida');
    expect(within(rows[1]).queryByTestId('record-failure-reason')).toBeNull();
  });
});

describe('/admin purchases and invoices', () => {
  it('asks for this month to one month later, all statuses and types, and shows the rows', async () => {
    const { calls } = renderAdmin();
    const rows = await screen.findAllByTestId('record-row');
    expect(rows).toHaveLength(3);
    const first = listCalls(calls)[0];
    const range = purchasesDefaultRange(localDay(new Date()));
    expect(Object.fromEntries(first)).toEqual({ page: '1', status: 'all', type: 'all', ...range });
    expect(within(rows[0]).getByText('Lucía Pérez')).toBeInTheDocument();
    expect(within(rows[0]).getByText('lucia@example.com')).toBeInTheDocument();
    expect(within(rows[0]).getByText('$1,234.50')).toBeInTheDocument();
    expect(within(rows[0]).getByTestId('record-discount')).toHaveTextContent('Code SPRING');
    expect(within(rows[2]).getByText('Invoice')).toBeInTheDocument();
    expect(screen.getByText('3 records')).toBeInTheDocument();
  });

  it('sends the status tab, the type tab, the product and the debounced search, starting again at page 1', async () => {
    const { calls } = renderAdmin({ total: 30 });
    await screen.findAllByTestId('record-row');
    fireEvent.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(listCalls(calls).at(-1)!.get('page')).toBe('2'));

    fireEvent.click(screen.getByText('Failed'));
    await waitFor(() => expect(listCalls(calls).at(-1)!.get('status')).toBe('failed'));
    expect(listCalls(calls).at(-1)!.get('page')).toBe('1');
    fireEvent.click(screen.getByText('Invoices'));
    await waitFor(() => expect(listCalls(calls).at(-1)!.get('type')).toBe('invoices'));

    fireEvent.click(optionNamed(await openOptions(screen.getByTestId('product-select')), 'Starter'));
    await waitFor(() => expect(listCalls(calls).at(-1)!.get('product_id')).toBe('4'));

    const before = listCalls(calls).length;
    fireEvent.change(screen.getByTestId('search'), { target: { value: 'luc' } });
    fireEvent.change(screen.getByTestId('search'), { target: { value: 'lucia' } });
    // Debounced: one request, with the last text.
    await waitFor(() => expect(listCalls(calls).at(-1)!.get('query')).toBe('lucia'));
    expect(listCalls(calls).slice(before).map((p) => p.get('query'))).toEqual(['lucia']);
  });

  it('pages: at most 5 page buttons around the current page', async () => {
    const { calls } = renderAdmin({ total: 120 });
    await screen.findAllByTestId('record-row');
    const numbers = () => within(screen.getByTestId('pagination')).getAllByRole('button').map((b) => b.textContent).filter(Boolean);
    expect(numbers()).toEqual(['1', '2', '3', '4', '5']);
    fireEvent.click(screen.getByRole('button', { name: '5' }));
    await waitFor(() => expect(listCalls(calls).at(-1)!.get('page')).toBe('5'));
    expect(numbers()).toEqual(['3', '4', '5', '6', '7']);
  });

  it("says 'More than' when the server counted a search only as far as the page buttons reach", async () => {
    renderAdmin({ total: 60, capped: true });
    expect(await screen.findByTestId('records-total')).toHaveTextContent('More than 60 records');
    const numbers = within(screen.getByTestId('pagination')).getAllByRole('button').map((b) => b.textContent).filter(Boolean);
    expect(numbers).toEqual(['1', '2', '3', '4', '5']);
  });

  it('pages on a phone: the current page only', async () => {
    const matchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({ ...matchMedia(query), matches: query.includes('max-width') })) as typeof window.matchMedia;
    try {
      const { calls } = renderAdmin({ total: 120 });
      await screen.findAllByTestId('record-row');
      const nav = screen.getByRole('navigation', { name: 'Pages' });
      expect(within(nav).getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent)).toEqual(['Previous page', '1', 'Next page']);
      fireEvent.click(within(nav).getByRole('button', { name: 'Next page' }));
      await waitFor(() => expect(listCalls(calls).at(-1)!.get('page')).toBe('2'));
      expect(within(nav).getByText('2')).toHaveAttribute('aria-current', 'page');
    } finally {
      window.matchMedia = matchMedia;
    }
  });

  it("shows 'No records found', in English and Spanish", async () => {
    renderAdmin({ rows: [] });
    expect(await screen.findByTestId('records-empty')).toHaveTextContent('No records found');
    await setLanguage('es');
    await waitFor(() => expect(screen.getByTestId('records-empty')).toHaveTextContent('No se encontraron registros'));
    expect(screen.getByText('Fallidas')).toBeInTheDocument();
  });

  it('managers read only: no edit, cancel or new-invoice actions', async () => {
    renderAdmin({ role: 'manager', rows: [row({ abilities: { edit: false, cancel_subscription: false } })] });
    await screen.findAllByTestId('record-row');
    expect(screen.queryByRole('button', { name: /Edit/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Cancel the subscription/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New invoice' })).toBeNull();
  });

  it('edit: a cancelled purchase offers only cancelled and revoked', async () => {
    renderAdmin();
    await screen.findAllByTestId('record-row');
    fireEvent.click(screen.getByRole('button', { name: 'Edit purchase #12' }));
    const modal = await screen.findByTestId('edit-purchase-modal');
    expect(within(modal).getByTestId('final-note')).toHaveTextContent('A cancelled or revoked purchase can only be set to cancelled or revoked.');
    const options = await openOptions(within(modal).getByTestId('edit-status'));
    expect(options.map((o) => o.textContent)).toEqual(['Cancelled', 'Revoked']);
  });

  it('edit: choosing cancelled warns and needs a reason; the PUT carries it', async () => {
    const puts: Record<string, unknown>[] = [];
    renderAdmin({ put: (body) => (puts.push(body), { body: row({ status: 'cancelled' }) }) });
    await screen.findAllByTestId('record-row');
    fireEvent.click(screen.getByRole('button', { name: 'Edit purchase #11' }));
    const modal = await screen.findByTestId('edit-purchase-modal');
    const options = await openOptions(within(modal).getByTestId('edit-status'));
    expect(options.map((o) => o.textContent)).toEqual(['Active', 'Completed', 'Pending', 'Cancelled', 'Revoked']);
    fireEvent.click(optionNamed(options, 'Cancelled'));
    expect(await within(modal).findByTestId('cancel-warning')).toHaveTextContent('No further recurring charges will be made, and this cannot be undone.');
    fireEvent.click(within(modal).getByRole('button', { name: 'Save' }));
    expect(await within(modal).findByText('You must include a cancel reason.')).toBeInTheDocument();
    expect(puts).toEqual([]);
    fireEvent.change(within(modal).getByTestId('edit-reason'), { target: { value: 'Customer asked by phone' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ purchase_id: 11, status: 'cancelled', cancel_reason: 'Customer asked by phone', amount: 25, total_payment: 1234.5, expiration_days: 30 });
    expect(await screen.findByText('Purchase updated.')).toBeInTheDocument();
  });

  it("edit: the server's 409 is shown in the modal's language", async () => {
    await setLanguage('es');
    renderAdmin({ put: () => ({ status: 409, body: { error: 'purchase_status_final', message: 'A cancelled or revoked purchase can only be set to cancelled or revoked.' } }) });
    await screen.findAllByTestId('record-row');
    fireEvent.click(screen.getByRole('button', { name: 'Editar la compra #11' }));
    const modal = await screen.findByTestId('edit-purchase-modal');
    fireEvent.click(within(modal).getByRole('button', { name: 'Guardar' }));
    expect(await within(modal).findByTestId('edit-error')).toHaveTextContent('Una compra cancelada o revocada solo puede pasar a cancelada o revocada.');
  });

  it('cancel subscription: a reason of 10 characters, then PUT cancelled', async () => {
    const puts: Record<string, unknown>[] = [];
    renderAdmin({ put: (body) => (puts.push(body), { body: row({ status: 'cancelled' }) }) });
    await screen.findAllByTestId('record-row');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel the subscription of purchase #11' }));
    const modal = await screen.findByTestId('admin-cancel-modal');
    fireEvent.change(within(modal).getByTestId('cancel-reason'), { target: { value: 'short' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Cancel subscription' }));
    expect(await within(modal).findByText('You must include a cancel reason.')).toBeInTheDocument();
    fireEvent.change(within(modal).getByTestId('cancel-reason'), { target: { value: 'Moving to another tool' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Cancel subscription' }));
    await waitFor(() => expect(puts).toEqual([{ purchase_id: 11, status: 'cancelled', cancel_reason: 'Moving to another tool' }]));
    expect(await screen.findByText('The subscription was cancelled.')).toBeInTheDocument();
  });

  it('a new invoice starts at the defaults of §4 (pending, 0, no purchase, no user)', async () => {
    const { calls } = renderAdmin();
    await screen.findAllByTestId('record-row');
    fireEvent.click(screen.getByRole('button', { name: 'New invoice' }));
    const modal = await screen.findByTestId('invoice-modal');
    expect(within(modal).getByTestId('invoice-status')).toHaveValue('Pending');
    fireEvent.click(within(modal).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      status: 'pending', amount: 0, total_payment: 0, purchase_id: null, user_id: null, order_id: null, expiration_date: null,
    });
  });
});

describe('admin purchases view', () => {
  it('colours, money, dates, pages and the payment method rule', () => {
    expect(statusColor('success')).toBe('green');
    expect(statusColor('on-hold')).toBe('yellow');
    expect(statusColor('cancelled')).toBe('red');
    expect(statusColor('revoked')).toBe('gray');
    expect(pageCount(0)).toBe(1);
    expect(pageCount(25)).toBe(3);
    expect(pageWindow(1, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(10, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(4, 10, 1)).toEqual([4]);
    expect(formatDateTime('2026-03-04T05:06:00', 'en')).toBe('04 Mar 2026 05:06');
    expect(showsPaymentMethod({ is_gift: true, amount: 10 })).toBe(false);
    expect(showsPaymentMethod({ is_gift: false, amount: 0 })).toBe(false);
    expect(showsPaymentMethod({ is_gift: false, amount: 10 })).toBe(true);
  });
});
