// The groups screens (spec part 2 §2 "Groups list", "Group page", §4, §5, §6, §8) in English and Spanish
// against a stubbed API, in the active organization.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { organizationStore } from '../../api/organization';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import { buildGroup, buildGroupDetail, buildOrganization } from '../organizations/test-organizations';
import GroupPage from './GroupPage';
import GroupsPage from './GroupsPage';

const user = buildUser();
const show = (ui: React.ReactElement, route: string, path?: string) =>
  renderScreen(<Suspense fallback={null}>{ui}</Suspense>, { session: fakeSession(user), route, path, config: { organizations_enabled: 'true' } });

function inAcme(role: 'admin' | 'manager' | 'member', routes: Parameters<typeof stubFetch>[0]) {
  organizationStore.set({ organization_id: 5, name: 'Acme' });
  return stubFetch({ 'GET /api/organizations': () => ({ body: { organizations: [buildOrganization({ role })], total: 1 } }), ...routes });
}

beforeEach(() => organizationStore.set(null));
afterEach(async () => {
  organizationStore.set(null);
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('groups list', () => {
  it('a Manager sees Organization Groups with Create Group, 130px cards with edit, delete and view', async () => {
    const { calls } = inAcme('manager', { 'GET /api/groups/organization/5': () => ({ body: { groups: [buildGroup()], total: 1 } }) });
    show(<GroupsPage />, '/organization/groups');
    const [card] = await screen.findAllByTestId('group-card');
    expect(screen.getByRole('heading', { name: 'Organization Groups' })).toBeInTheDocument();
    expect(screen.getByTestId('create-group')).toHaveTextContent('Create Group');
    expect(card).toHaveStyle({ height: '130px' });
    expect(card).toHaveTextContent('Editors');
    expect(within(card).getByRole('button', { name: 'Edit Editors' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Delete Editors' })).toBeInTheDocument();
    expect(within(card).getByTestId('view-group')).toHaveAttribute('href', '/organization/groups/9');
    expect(new URL(calls.find((c) => c.url.startsWith('/api/groups'))!.url, 'http://x').searchParams.get('organization_id')).toBe('5');
  });

  it('a Member sees the cards without Create, edit or delete; in Spanish', async () => {
    await setLanguage('es');
    inAcme('member', { 'GET /api/groups/organization/5': () => ({ body: { groups: [buildGroup({}, false)], total: 1 } }) });
    show(<GroupsPage />, '/organization/groups');
    const [card] = await screen.findAllByTestId('group-card');
    expect(screen.getByRole('heading', { name: 'Grupos de la organización' })).toBeInTheDocument();
    expect(screen.queryByTestId('create-group')).toBeNull();
    expect(within(card).queryByTestId('edit-group')).toBeNull();
    expect(within(card).queryByTestId('delete-group')).toBeNull();
    expect(within(card).getByTestId('view-group')).toHaveTextContent('Ver');
  });

  it('creates a group (POST with the organization), refusing an empty name first', async () => {
    const { calls } = inAcme('manager', {
      'GET /api/groups/organization/5': () => ({ body: { groups: [], total: 0 } }),
      'POST /api/groups': () => ({ status: 201, body: buildGroup({ group_id: 10, name: 'Sales' }) }),
    });
    show(<GroupsPage />, '/organization/groups');
    expect(await screen.findByTestId('groups-empty')).toHaveTextContent('There are no groups yet.');
    fireEvent.click(screen.getByTestId('create-group'));
    const modal = await screen.findByTestId('group-form-modal');
    const save = await within(modal).findByTestId('group-save');
    fireEvent.click(save);
    await waitFor(() => expect(within(modal).getByTestId('group-name')).toHaveAttribute('aria-invalid', 'true'));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(within(modal).getByTestId('group-name'), { target: { value: 'Sales' } });
    fireEvent.click(save);
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Sales', organization_id: 5 }));
    expect(await screen.findByText('Group saved')).toBeInTheDocument();
  });

  it('renames with PUT and deletes after the warning that it cannot be reversed', async () => {
    const { calls } = inAcme('admin', {
      'GET /api/groups/organization/5': () => ({ body: { groups: [buildGroup()], total: 1 } }),
      'PUT /api/groups': () => ({ body: buildGroupDetail({ name: 'Writers' }) }),
      'DELETE /api/groups/9': () => ({ body: { deleted: true } }),
    });
    show(<GroupsPage />, '/organization/groups');
    const [card] = await screen.findAllByTestId('group-card');
    fireEvent.click(within(card).getByTestId('edit-group'));
    const form = await screen.findByTestId('group-form-modal');
    const name = await within(form).findByTestId('group-name');
    expect(name).toHaveValue('Editors');
    fireEvent.change(name, { target: { value: 'Writers' } });
    fireEvent.click(within(form).getByTestId('group-save'));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ group_id: 9, name: 'Writers' }));
    expect(await screen.findByText('Group saved')).toBeInTheDocument();
    fireEvent.click(within(card).getByTestId('delete-group'));
    const modal = await screen.findByTestId('delete-group-modal');
    await waitFor(() => expect(modal).toHaveTextContent('This action cannot be reversed.'));
    fireEvent.click(within(modal).getByRole('button', { name: 'Delete', hidden: true }));
    expect(await screen.findByText('Group deleted')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url.startsWith('/api/groups/9'))).toBe(true);
  });

  it('shows the load error', async () => {
    inAcme('admin', { 'GET /api/groups/organization/5': () => ({ status: 500, body: { error: 'internal', message: 'Something went wrong.' } }) });
    show(<GroupsPage />, '/organization/groups');
    expect(await screen.findByTestId('groups-error')).toHaveTextContent('Something went wrong.');
  });
});

describe('group page', () => {
  it('lists the users; Add Users to Group offers only the candidates and adds the chosen one', async () => {
    const { calls } = inAcme('manager', {
      'GET /api/groups/9': () => ({ body: buildGroupDetail() }),
      'GET /api/groups/9/candidates': () => ({ body: { users: [{ user_id: 21, name: 'Leo', last_name: 'Sanz', email: 'leo@example.com', user_type_id: 3 }] } }),
      'POST /api/groups/users/21/9': () => ({ status: 201, body: { group_id: 9, user_id: 21 } }),
    });
    show(<GroupPage />, '/organization/groups/9', '/organization/groups/:groupId');
    const [row] = await screen.findAllByTestId('group-user-row');
    expect(row).toHaveTextContent('#20');
    expect(row).toHaveTextContent('Marta Ruiz');
    expect(row).toHaveTextContent('Member');
    expect(within(row).getByRole('link', { name: 'Marta Ruiz' })).toHaveAttribute('href', '/organization/groups/9/users/20');
    fireEvent.click(screen.getByTestId('add-group-users'));
    const modal = await screen.findByTestId('add-group-users-modal');
    const add = await within(modal).findByTestId('add-group-user');
    // Nothing chosen yet: adding does not proceed.
    expect(add).toBeDisabled();
    const select = await within(modal).findByTestId('group-candidate');
    await waitFor(() => expect(select).toBeEnabled());
    fireEvent.click(select);
    const options = await waitFor(() => within(document.getElementById(select.getAttribute('aria-controls')!)!).getAllByRole('option', { hidden: true }));
    expect(options.map((o) => o.textContent)).toEqual(['Leo Sanz · leo@example.com']);
    fireEvent.click(options[0]);
    fireEvent.click(add);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url.startsWith('/api/groups/users/21/9'))).toBe(true));
    expect(await screen.findByText('User added')).toBeInTheDocument();
  });

  it('with no candidates left it says so and Add stays disabled', async () => {
    inAcme('admin', {
      'GET /api/groups/9': () => ({ body: buildGroupDetail() }),
      'GET /api/groups/9/candidates': () => ({ body: { users: [] } }),
    });
    show(<GroupPage />, '/organization/groups/9', '/organization/groups/:groupId');
    fireEvent.click(await screen.findByTestId('add-group-users'));
    const modal = await screen.findByTestId('add-group-users-modal');
    expect(await within(modal).findByTestId('no-candidates')).toBeInTheDocument();
    expect(within(modal).getByTestId('add-group-user')).toBeDisabled();
  });

  it('a Member reads the users without any action; an unknown group is an error', async () => {
    inAcme('member', { 'GET /api/groups/9': () => ({ body: buildGroupDetail({}, false) }) });
    const { unmount } = show(<GroupPage />, '/organization/groups/9', '/organization/groups/:groupId');
    const [row] = await screen.findAllByTestId('group-user-row');
    expect(within(row).queryByRole('button')).toBeNull();
    expect(within(row).queryByRole('link')).toBeNull();
    expect(screen.queryByTestId('add-group-users')).toBeNull();
    expect(screen.queryByTestId('delete-group')).toBeNull();
    unmount();
    inAcme('member', { 'GET /api/groups/9': () => ({ status: 404, body: { error: 'not_found', message: 'Not found.' } }) });
    show(<GroupPage />, '/organization/groups/9', '/organization/groups/:groupId');
    expect(await screen.findByTestId('group-error')).toHaveTextContent('Not found.');
  });

  it('removes a user from the group', async () => {
    const { calls } = inAcme('admin', {
      'GET /api/groups/9': () => ({ body: buildGroupDetail() }),
      'DELETE /api/groups/users/20/9': () => ({ body: { group_id: 9, user_id: 20 } }),
    });
    show(<GroupPage />, '/organization/groups/9', '/organization/groups/:groupId');
    const [row] = await screen.findAllByTestId('group-user-row');
    fireEvent.click(within(row).getByRole('button', { name: 'Remove Marta Ruiz from the group' }));
    expect(await screen.findByText('User deleted')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url.startsWith('/api/groups/users/20/9'))).toBe(true);
  });
});
