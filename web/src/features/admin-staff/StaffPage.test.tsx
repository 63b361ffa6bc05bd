// /admin/staff (spec part 1 §2 "Staff page") in English and Spanish, against a stubbed API.
import type { StaffRecord } from '@pluma/common/staff';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import StaffPage from './StaffPage';

const admin = buildUser({ user_id: 1, staff: { staff_id: 1, role: 'admin' } });
const member = (overrides: Partial<StaffRecord> = {}): StaffRecord => ({
  staff_id: 4,
  role: 'manager',
  user: { user_id: 9, name: 'Eva', last_name: 'Ruiz', email: 'eva@example.com' },
  createdAt: '2026-11-01T00:00:00.000Z',
  ...overrides,
});

const show = () => renderScreen(<Suspense fallback={null}><StaffPage /></Suspense>, { session: fakeSession(admin), route: '/admin/staff' });

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('/admin/staff', () => {
  it('lists staff, changes a role in a modal and removes after confirming', async () => {
    const { calls } = stubFetch({
      'GET /api/staff/admin/all': () => ({ body: { staff: [member()], total: 1 } }),
      'PUT /api/staff': () => ({ body: member({ role: 'admin' }) }),
      'DELETE /api/staff/4': () => ({ status: 204 }),
    });
    show();
    const [row] = await screen.findAllByTestId('staff-row');
    expect(row).toHaveTextContent('Eva Ruiz');
    expect(row).toHaveTextContent('eva@example.com');
    expect(row).toHaveTextContent('Manager');

    fireEvent.click(within(row).getByRole('button', { name: 'Change the role of eva@example.com' }));
    const roleModal = await screen.findByTestId('role-modal');
    fireEvent.click(await within(roleModal).findByText('Admin'));
    fireEvent.click((await within(roleModal).findByRole('button', { name: 'Save', hidden: true })));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ staff_id: 4, role: 'admin' }));
    expect(await screen.findByText('Role saved.')).toBeInTheDocument();

    fireEvent.click(within(row).getByRole('button', { name: 'Remove eva@example.com from staff' }));
    const removeModal = await screen.findByTestId('remove-modal');
    await waitFor(() => expect(removeModal).toHaveTextContent('eva@example.com will lose access to the back office.'));
    fireEvent.click((await within(removeModal).findByRole('button', { name: 'Remove', hidden: true })));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/staff/4')).toBe(true));
  });

  it('shows the server\'s refusal to remove the last admin, in Spanish', async () => {
    await setLanguage('es');
    stubFetch({
      'GET /api/staff/admin/all': () => ({ body: { staff: [member({ role: 'admin' })], total: 1 } }),
      'DELETE /api/staff/4': () => ({ status: 409, body: { error: 'conflict', message: 'Siempre debe haber un administrador: agrega otro administrador primero.' } }),
    });
    show();
    const [row] = await screen.findAllByTestId('staff-row');
    expect(row).toHaveTextContent('Administrador');
    fireEvent.click(within(row).getByRole('button', { name: 'Quitar a eva@example.com del equipo' }));
    fireEvent.click(await within(await screen.findByTestId('remove-modal')).findByRole('button', { name: 'Quitar', hidden: true }));
    expect(await screen.findByText('Siempre debe haber un administrador: agrega otro administrador primero.')).toBeInTheDocument();
  });

  it('adds by email: an unknown one is said to be invited', async () => {
    const { calls } = stubFetch({
      'GET /api/staff/admin/all': () => ({ body: { staff: [], total: 0 } }),
      'GET /api/users/admin/all': () => ({ body: { users: [], total: 0 } }),
      'POST /api/staff': () => ({ status: 201, body: member({ user: { user_id: 20, name: 'new', last_name: '', email: 'new@example.com' } }) }),
    });
    show();
    expect(await screen.findByText('No records found')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('add-staff'));
    const modal = await screen.findByTestId('add-staff-modal');
    fireEvent.change(await within(modal).findByTestId('add-staff-email'), { target: { value: 'new@example.com' } });
    expect(await within(modal).findByTestId('invite-note', {}, { timeout: 3000 })).toHaveTextContent('an account will be created');
    fireEvent.click((await within(modal).findByRole('button', { name: 'Add staff', hidden: true })));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ email: 'new@example.com', role: 'manager' }));
    expect(await screen.findByText('Staff member added.')).toBeInTheDocument();
  });

  it('picking a customer from the suggestions fills only their email and enables Add', async () => {
    const { calls } = stubFetch({
      'GET /api/staff/admin/all': () => ({ body: { staff: [], total: 0 } }),
      'GET /api/users/admin/all': () => ({
        body: { users: [{ user_id: 20, name: 'Eva', last_name: 'Ruiz', email: 'eva@example.com', phone: null, role: null, total_words: 0, last_used: null, ltv: 0, createdAt: '2026-11-01T00:00:00.000Z' }], total: 1 },
      }),
      'POST /api/staff': () => ({ status: 201, body: member() }),
    });
    show();
    fireEvent.click(await screen.findByTestId('add-staff'));
    const modal = await screen.findByTestId('add-staff-modal');
    const input = await within(modal).findByTestId('add-staff-email');
    const add = await within(modal).findByRole('button', { name: 'Add staff', hidden: true });
    fireEvent.change(input, { target: { value: 'eva' } });
    expect(add).toBeDisabled();
    // The suggestion shows the customer's name beside the email…
    const option = await screen.findByTestId('staff-candidate', {}, { timeout: 3000 });
    expect(option).toHaveTextContent('eva@example.com');
    expect(option).toHaveTextContent('Eva Ruiz');
    // …and choosing it puts the email alone in the field.
    fireEvent.click(option.closest('[role="option"]')!);
    await waitFor(() => expect(input).toHaveValue('eva@example.com'));
    await waitFor(() => expect(add).toBeEnabled());
    // A known customer: no invitation note.
    expect(within(modal).queryByTestId('invite-note')).toBeNull();
    fireEvent.click(add);
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ email: 'eva@example.com', role: 'manager' }));
  });
});
