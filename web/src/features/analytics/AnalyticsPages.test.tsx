import type { AiUsageAnalytics, CustomersAnalytics, IncomeAnalytics, PurchasesAnalytics } from '@pluma/common/analytics';
import { currentMonthRange, localDay } from '@pluma/common/rules/date-range';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense, type ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import CustomersPage from './CustomersPage';
import IncomePage from './IncomePage';
import ProductsPage from './ProductsPage';
import { sharePercent } from './analytics-view';

const month = currentMonthRange(localDay(new Date()));

const income: IncomeAnalytics = {
  ...month,
  income: 1530.5,
  payments: 4,
  gross_income: 1530.5,
  excluded: { count: 0, total: 0 },
  payment_methods: [
    { payment_method_id: 1, name: 'card', payments: 3, total: 1500 },
    { payment_method_id: null, name: null, payments: 1, total: 30.5 },
  ],
};
const usage: AiUsageAnalytics = {
  ...month,
  words: 3000,
  messages: 12,
  models: [
    { model: 'gpt-4o', words: 2500, messages: 10 },
    { model: 'enhance', words: 500, messages: 2 },
  ],
  days: [
    { date: '2026-11-02', model: 'gpt-4o', words: 2500, messages: 10 },
    { date: '2026-11-03', model: 'enhance', words: 500, messages: 2 },
  ],
  searches: {
    searches: 5,
    failed: 1,
    pages_read: 9,
    providers: [
      { provider: 'searxng', searches: 4, failed: 0, pages_read: 9 },
      { provider: 'brave', searches: 1, failed: 1, pages_read: 0 },
    ],
    days: [{ date: '2026-11-02', searches: 5, failed: 1, pages_read: 9 }],
  },
};
const purchases: PurchasesAnalytics = {
  ...month,
  purchases: 5,
  total: 100,
  revoked: { count: 0, total: 0 },
  products: [
    { product_id: 1, name: 'Pro', purchases: 3, total: 75 },
    { product_id: 2, name: 'Starter', purchases: 2, total: 25 },
  ],
};

function render(ui: ReactElement, routes: Parameters<typeof stubFetch>[0]) {
  const api = stubFetch(routes);
  renderScreen(<Suspense fallback={null}>{ui}</Suspense>, { session: fakeSession(buildUser({ staff: { staff_id: 1, role: 'manager' } })) });
  return api;
}

const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

afterEach(async () => {
  await setLanguage('en');
});

describe('analytics pages', () => {
  it('income: asks for the current month; total, payments, the per-method table, the donut and the AI usage beside it', async () => {
    const { calls } = render(<IncomePage />, {
      'GET /api/analytics/income': () => ({ body: income }),
      'GET /api/analytics/ai_usage': () => ({ body: usage }),
    });
    expect(await screen.findByTestId('income-total')).toHaveTextContent('$1,530.50');
    expect(screen.getByTestId('income-payments')).toHaveTextContent('4');
    const table = screen.getByTestId('methods-table');
    expect(within(table).getByText('Card')).toBeInTheDocument();
    expect(within(table).getByText('Not recorded')).toBeInTheDocument();
    expect(within(table).getByText('$30.50')).toBeInTheDocument();
    expect(await screen.findByTestId('income-donut')).toBeInTheDocument();
    expect(queryOf(calls.find((c) => c.url.startsWith('/api/analytics/income'))!.url)).toEqual(month);

    const usageTable = await screen.findByTestId('usage-table');
    expect(within(usageTable).getByText('gpt-4o')).toBeInTheDocument();
    expect(within(usageTable).getByText('Prompt enhancement')).toBeInTheDocument();
    expect(within(usageTable).getByText('2,500')).toBeInTheDocument();
    expect(screen.getByTestId('usage-per-dollar')).toHaveTextContent('Words per dollar of income: 2');
    expect(await screen.findByTestId('usage-chart')).toBeInTheDocument();
    // Web searches (issue 32): their own figures and a row per provider.
    expect(screen.getByTestId('usage-searches-total')).toHaveTextContent('Searches: 5');
    expect(screen.getByTestId('usage-searches-failed')).toHaveTextContent('Failed: 1');
    expect(within(screen.getByTestId('usage-searches-table')).getByText('Brave Search')).toBeInTheDocument();

    await setLanguage('es');
    expect(await screen.findByText('Búsquedas web')).toBeInTheDocument();
    expect(await screen.findByText('Ingresos totales')).toBeInTheDocument();
    expect(screen.getByText('Mejora de prompt')).toBeInTheDocument();
    expect(screen.getByText('Sin registrar')).toBeInTheDocument();
  });

  // Issue 28: Income $85.10 and Products $66.10 for the same dates, a revoked $19 purchase counted in one only.
  it('income and products: the same net total, each page saying what it counts and what was left out (en, es)', async () => {
    render(<IncomePage />, {
      'GET /api/analytics/income': () => ({
        body: { ...income, income: 66.1, payments: 3, gross_income: 85.1, excluded: { count: 1, total: 19 }, payment_methods: [{ payment_method_id: 1, name: 'card', payments: 3, total: 66.1 }] },
      }),
      'GET /api/analytics/ai_usage': () => ({ body: usage }),
      'GET /api/analytics/purchases': () => ({
        body: { ...purchases, purchases: 3, total: 66.1, revoked: { count: 1, total: 19 }, products: [{ product_id: 1, name: 'Pro', purchases: 3, total: 66.1 }] },
      }),
    });
    expect(await screen.findByTestId('income-total')).toHaveTextContent('$66.10');
    const note = screen.getByTestId('income-note');
    expect(note).toHaveTextContent('Net of revoked purchases');
    expect(note).toHaveTextContent('Received in these dates: $85.10. Not counted: $19.00 (1 payment) for a purchase since revoked or never completed.');
    renderScreen(<ProductsPage />, { session: fakeSession(buildUser({ staff: { staff_id: 1, role: 'manager' } })) });
    expect(await screen.findByTestId('products-totals')).toHaveTextContent('3 purchases, $66.10');
    expect(screen.getByTestId('products-note')).toHaveTextContent('Not counted: 1 purchase of these dates revoked since ($19.00).');
    await setLanguage('es');
    expect(await screen.findByText(/Recibido en estas fechas: \$85\.10/)).toBeInTheDocument();
    expect(screen.getByTestId('products-note')).toHaveTextContent('No contado: 1 compra de estas fechas revocada después ($19.00).');
  });

  it('income: empty and failed figures say so', async () => {
    render(<IncomePage />, {
      'GET /api/analytics/income': () => ({ body: { ...income, income: 0, payments: 0, payment_methods: [] } }),
      'GET /api/analytics/ai_usage': () => ({ status: 403, body: { error: 'forbidden', message: 'You do not have permission to do this.' } }),
    });
    expect(await screen.findByTestId('income-empty')).toHaveTextContent('No data in these dates.');
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have permission to do this.');
  });

  it('products: purchases by product with each share of the income and the donut', async () => {
    render(<ProductsPage />, { 'GET /api/analytics/purchases': () => ({ body: purchases }) });
    const table = await screen.findByTestId('products-table');
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]).getByText('Pro')).toBeInTheDocument();
    expect(within(rows[1]).getByText('75.0%')).toBeInTheDocument();
    expect(within(rows[2]).getByText('25.0%')).toBeInTheDocument();
    expect(screen.getByTestId('products-totals')).toHaveTextContent('5 purchases, $100.00');
    // Nothing left out: the note says what counts, without a "not counted" part.
    expect(screen.getByTestId('products-note')).not.toHaveTextContent('Not counted');
    expect(await screen.findByTestId('products-donut')).toBeInTheDocument();
  });

  it('customers: the three counters, each expanding into its list', async () => {
    const counts: CustomersAnalytics = { ...month, signups: 14, customers: 6, cancelled: 1, list: null };
    const { calls } = render(<CustomersPage />, {
      'GET /api/analytics/customers': (_init, url) => {
        const query = queryOf(url);
        if (!query.list) return { body: counts };
        return {
          body: {
            ...counts,
            list: { kind: query.list, page: Number(query.page), page_size: 12, total: 1, rows: [{ user_id: 9, name: 'Bob', last_name: 'Stone', email: 'bob@example.com', date: '2026-11-20T10:00:00.000Z' }] },
          },
        };
      },
    });
    expect(await screen.findByTestId('count-signups')).toHaveTextContent('14');
    expect(screen.getByTestId('count-customers')).toHaveTextContent('6');
    expect(screen.getByTestId('count-cancelled')).toHaveTextContent('1');
    const show = screen.getByRole('button', { name: 'Show the list of cancelled customers' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(show);
    const list = await screen.findByTestId('list-cancelled');
    expect(await within(list).findByText('Bob Stone')).toHaveAttribute('href', '/admin/users/9');
    expect(within(list).getByText('bob@example.com')).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => queryOf(c.url).list === 'cancelled' && queryOf(c.url).page === '1')).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Hide the list of cancelled customers' }));
    await waitFor(() => expect(screen.queryByTestId('list-cancelled')).toBeNull());
  });
});

describe('analytics view', () => {
  it('a share of nothing is 0 %', () => {
    expect(sharePercent(5, 0, 'en')).toBe('0.0%');
    expect(sharePercent(1, 3, 'en')).toBe('33.3%');
  });
});
