// The invoice editor (spec part 1 §4: "picking a purchase on an invoice fills in its amount"): the purchase
// is looked up by its number, its total fills the amount (and the customer when none is set), and the
// admin may still change the amount; an edited invoice keeps its amount until another purchase is picked.
import type { AdminPurchaseRow, AdminPurchasesPage as RecordsPage } from '@pluma/common/admin-purchases';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import { InvoiceModal } from './InvoiceModal';
import { buildAdminPurchaseRow } from './test-rows';

// The invoice tests' purchase: no discount, no payment method, made in January 2024.
const purchase = (overrides: Partial<AdminPurchaseRow> = {}) =>
  buildAdminPurchaseRow({ createdAt: '2024-01-03T10:05:00.000Z', updatedAt: '2024-01-03T10:05:00.000Z', ...overrides });

const page = (rows: AdminPurchaseRow[]): RecordsPage => ({ rows, total: rows.length, total_capped: false, page: 1, page_size: 12, start_date: '2000-01-01', end_date: '2026-12-01' });
const invoice = (overrides: Partial<AdminPurchaseRow>) => purchase({ type: 'invoice', invoice_id: 40, purchase_id: null, user: null, product: null, status: 'pending', amount: 0, total_payment: 0, ...overrides });

/** The server's search by '#number': purchase 11 and 12 exist; the search may also match other records. */
function searchEndpoint(_init: RequestInit, url: string) {
  const query = new URL(url, 'http://x').searchParams.get('query');
  const byNumber: Record<string, AdminPurchaseRow[]> = {
    '#11': [purchase({ purchase_id: 111, total_payment: 7 }), purchase()],
    '#12': [purchase({ purchase_id: 12, total_payment: 80, user: { user_id: 6, name: 'Ana', last_name: 'Gil', email: 'ana@example.com' }, product: null })],
  };
  return { body: page(byNumber[query ?? ''] ?? []) };
}

async function open(row: AdminPurchaseRow | null) {
  const posted: unknown[] = [];
  const { calls } = stubFetch({
    'GET /api/purchases/admin': searchEndpoint,
    'POST /api/invoices/admin': (init) => {
      posted.push(JSON.parse(String(init.body)));
      return { status: 201, body: invoice({}) };
    },
    'PUT /api/invoices/admin': (init) => {
      posted.push(JSON.parse(String(init.body)));
      return { body: invoice({}) };
    },
  });
  const onSaved = vi.fn();
  renderScreen(<InvoiceModal row={row} onClose={() => undefined} onSaved={onSaved} />, { session: fakeSession(buildUser({ staff: { staff_id: 1, role: 'admin' } })), route: '/admin' });
  const modal = await screen.findByTestId('invoice-modal');
  return { calls, posted, onSaved, modal, field: (id: string) => within(modal).getByTestId(id) as HTMLInputElement };
}

const lookups = (calls: { url: string }[]) => calls.filter((c) => c.url.includes('/api/purchases/admin')).map((c) => Object.fromEntries(new URL(c.url, 'http://x').searchParams));

afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('invoice editor: picking a purchase', () => {
  it("a new invoice: the purchase's total fills the amount and its customer the empty customer field; the admin can change it", async () => {
    const { calls, posted, modal, field } = await open(null);
    expect(field('invoice-amount')).toHaveValue('0');
    fireEvent.change(field('invoice-purchase'), { target: { value: '11' } });
    await waitFor(() => expect(field('invoice-amount')).toHaveValue('1234.5'), { timeout: 3000 });
    expect(field('invoice-user')).toHaveValue('5');
    expect(within(modal).getByText('Pro plan, total $1,234.50')).toBeInTheDocument();
    // One lookup, by number, over every date; the record with that exact number is the one used.
    expect(lookups(calls)).toEqual([expect.objectContaining({ type: 'purchases', query: '#11', start_date: '2000-01-01' })]);

    fireEvent.change(field('invoice-amount'), { target: { value: '99' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ amount: 99, purchase_id: 11, user_id: 5, status: 'pending' });
  });

  it('a customer already set stays; picking another purchase fills its total again', async () => {
    const { field } = await open(invoice({ invoice_id: null, user: { user_id: 9, name: 'Marta', last_name: 'Ruiz', email: 'marta@example.com' } }));
    fireEvent.change(field('invoice-purchase'), { target: { value: '11' } });
    await waitFor(() => expect(field('invoice-amount')).toHaveValue('1234.5'), { timeout: 3000 });
    expect(field('invoice-user')).toHaveValue('9');
    fireEvent.change(field('invoice-purchase'), { target: { value: '12' } });
    await waitFor(() => expect(field('invoice-amount')).toHaveValue('80'), { timeout: 3000 });
    expect(field('invoice-user')).toHaveValue('9');
  });

  it('an edited invoice keeps its amount on opening; an unknown number says so and fills nothing (Spanish)', async () => {
    await setLanguage('es');
    const { modal, field } = await open(invoice({ purchase_id: 11, amount: 50, user: { user_id: 5, name: 'Lucía', last_name: 'Pérez', email: 'lucia@example.com' } }));
    // The linked purchase is shown, but its total does not replace the saved amount.
    expect(await within(modal).findByText('Pro plan, total $1,234.50', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(field('invoice-amount')).toHaveValue('50');
    fireEvent.change(field('invoice-purchase'), { target: { value: '999' } });
    expect(await within(modal).findByText('Ninguna compra tiene este número.', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(field('invoice-amount')).toHaveValue('50');
  });
});
