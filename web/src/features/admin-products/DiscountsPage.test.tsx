import type { DiscountRecord } from '@pluma/common/discounts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import DiscountsPage from './DiscountsPage';

const spring: DiscountRecord = {
  discount_id: 3,
  code: 'SPRING',
  is_percent: true,
  amount: 20,
  first_invoice_only: true,
  product_id: null,
  active: true,
  expires_at: null,
  max_redemptions: null,
  redemptions: 5,
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
};

function renderDiscounts(role: 'admin' | 'manager' = 'admin', routes: Parameters<typeof stubFetch>[0] = {}) {
  const api = stubFetch({
    'GET /api/discounts/admin': () => ({ body: { discounts: [spring], total: 1 } }),
    'POST /api/discounts/admin': (init) => ({ status: 201, body: { ...spring, discount_id: 4, ...JSON.parse(String(init.body)) } }),
    'PUT /api/discounts/admin': (init) => ({ body: { ...spring, ...JSON.parse(String(init.body)) } }),
    ...routes,
  });
  renderScreen(
    <Suspense fallback={null}>
      <DiscountsPage />
    </Suspense>,
    { session: fakeSession(buildUser({ staff: { staff_id: 1, role } } as never)), route: '/admin/discounts' },
  );
  return api;
}

beforeEach(async () => {
  await setLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('/admin/discounts', () => {
  it('lists codes with their amount, first-invoice rule, uses and status', async () => {
    renderDiscounts();
    const row = await screen.findByTestId('discount-row');
    for (const text of ['SPRING', '20%', 'Yes', '5', 'Active']) expect(row).toHaveTextContent(text);
  });

  it('creates a code after checking it, with POST', async () => {
    const { calls } = renderDiscounts();
    fireEvent.click(await screen.findByTestId('discount-add'));
    const dialog = await screen.findByRole('dialog', { name: 'New discount code' });
    fireEvent.change(within(dialog).getByTestId('discount-code'), { target: { value: 'BAD CODE' } });
    fireEvent.change(within(dialog).getByTestId('discount-amount'), { target: { value: '150' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Use 1 to 50 letters, digits, dashes or underscores.')).toBeInTheDocument();
    expect(within(dialog).getByText('A percentage must be above 0 and at most 100.')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByTestId('discount-code'), { target: { value: 'SUMMER' } });
    fireEvent.change(within(dialog).getByTestId('discount-amount'), { target: { value: '15' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ code: 'SUMMER', is_percent: true, amount: 15, first_invoice_only: false, active: true });
  });

  it('switches a code off with PUT', async () => {
    const { calls } = renderDiscounts();
    fireEvent.click(await screen.findByTestId('discount-toggle-3'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ discount_id: 3, active: false });
    expect(await screen.findByText('Code SPRING switched off.')).toBeInTheDocument();
  });

  it('shows managers the list without the controls', async () => {
    renderDiscounts('manager');
    const row = await screen.findByTestId('discount-row');
    expect(within(row).queryByRole('button')).toBeNull();
    expect(screen.queryByTestId('discount-add')).toBeNull();
  });
});
