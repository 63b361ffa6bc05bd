// The organizations screens (spec part 2 §2, §4, §5, §6, §8) in English and Spanish against a stubbed API:
// the lists, the settings form, deletion by name, the picker and the choice at start, staff pages in an
// organization, the admin panel's users table, the user form and the user detail.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { organizationStore } from '../../api/organization';
import { ShellWidgets } from '../../app/shell/ShellWidgets';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import AllOrganizationsPage from './AllOrganizationsPage';
import MemberFormPage from './MemberFormPage';
import MemberPage from './MemberPage';
import MembersPage from './MembersPage';
import { OrganizationGate, PersonalOnlyPages } from './organization-context';
import OrganizationAnalyticsPage from './OrganizationAnalyticsPage';
import OrganizationPicker from './OrganizationPicker';
import OrganizationSettingsPage from './OrganizationSettingsPage';
import OrganizationsPage from './OrganizationsPage';
import { buildMemberRow, buildOrganization } from './test-organizations';
import { resetOrganizationStateAroundEachTest } from './test-organization-hooks';

const staffAdmin = buildUser({ user_id: 1, staff: { staff_id: 1, role: 'admin' } });
const customer = buildUser({ user_id: 7 });
const acme = buildOrganization();
const list = (...organizations: ReturnType<typeof buildOrganization>[]) => ({ body: { organizations, total: organizations.length } });

const show = (ui: React.ReactElement, user: typeof customer, route: string, path?: string) =>
  renderScreen(<Suspense fallback={null}>{ui}</Suspense>, { session: fakeSession(user), route, path, config: { organizations_enabled: 'true' } });
const query = (url: string) => new URL(url, 'http://x').searchParams;

resetOrganizationStateAroundEachTest();

describe('organizations list', () => {
  it('a member sees cards with name and tagline and no admin icons, no create button; opening one makes it active', async () => {
    stubFetch({ 'GET /api/organizations': () => list(buildOrganization({ role: 'member' })) });
    show(<OrganizationsPage />, customer, '/organizations');
    const [card] = await screen.findAllByTestId('organization-card');
    expect(card).toHaveTextContent('Acme');
    expect(card).toHaveTextContent('Writers together');
    expect(within(card).queryByTestId('organization-admin-panel')).toBeNull();
    expect(within(card).queryByTestId('organization-settings')).toBeNull();
    expect(screen.queryByTestId('create-organization')).toBeNull();
    expect(screen.getByTestId('organizations-search')).toBeEnabled();
    fireEvent.click(within(card).getByTestId('open-organization'));
    expect(organizationStore.get()).toEqual({ organization_id: 5, name: 'Acme' });
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('an Admin gets the admin panel and settings icons; staff get Create and All organizations', async () => {
    const { calls } = stubFetch({ 'GET /api/organizations': () => list(acme, buildOrganization({ organization_id: 6, name: 'Beta', role: 'manager' })) });
    show(<OrganizationsPage />, staffAdmin, '/organizations');
    const [first, second] = await screen.findAllByTestId('organization-card');
    expect(within(first).getByRole('button', { name: 'Admin panel of Acme' })).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Settings of Acme' })).toBeInTheDocument();
    // spec part 2 §2: non-Members get both icons — a Manager too (the settings read-only; issue 30 item 20).
    expect(within(second).getByTestId('organization-admin-panel')).toBeInTheDocument();
    expect(within(second).getByRole('button', { name: 'Settings of Beta' })).toBeInTheDocument();
    expect(screen.getByTestId('create-organization')).toHaveAttribute('href', '/organizations/organization-settings');
    expect(screen.getByTestId('all-organizations')).toHaveAttribute('href', '/admin/organizations');
    // The list never depends on the active organization.
    expect(query(calls[0].url).get('organization_id')).toBe('');
    fireEvent.click(within(second).getByTestId('organization-admin-panel'));
    expect(organizationStore.get()?.organization_id).toBe(6);
    expect(screen.getByTestId('location')).toHaveTextContent('/organization/admin-panel');
  });

  it('an invited account accepts an invitation (it joins) and declines another, in English and Spanish', async () => {
    const invitation = (id: number, name: string, inviter = 'Ana Admin') => ({ invitation_id: id, organization_id: id + 10, organization_name: name, thumbnail: null, role: 'manager', inviter, createdAt: '2026-11-20T15:04:00.000Z' });
    let invitations = [invitation(1, 'Acme'), invitation(2, 'Beta', '')];
    let organizations: ReturnType<typeof buildOrganization>[] = [];
    const { calls } = stubFetch({
      'GET /api/organizations': () => list(...organizations),
      'GET /api/organizations/invitations': () => ({ body: { invitations } }),
      'POST /api/organizations/invitations/1/accept': () => {
        invitations = invitations.filter((i) => i.invitation_id !== 1);
        organizations = [buildOrganization({ organization_id: 11, role: 'manager' })];
        return { body: { organization_id: 11, role: 'manager', user_type_id: 2 } };
      },
      'POST /api/organizations/invitations/2/decline': () => {
        invitations = [];
        return { body: { deleted: true } };
      },
    });
    show(<OrganizationsPage />, customer, '/organizations');
    const cards = await screen.findAllByTestId('organization-invitation');
    expect(cards[0]).toHaveTextContent('Acme');
    expect(cards[0]).toHaveTextContent('Ana Admin invited you to join as Manager.');
    expect(cards[1]).toHaveTextContent('You were invited to join as Manager.');
    fireEvent.click(within(cards[0]).getByRole('button', { name: 'Accept the invitation to Acme' }));
    expect(await screen.findByText('You joined Acme')).toBeInTheDocument();
    expect(await screen.findByTestId('organization-card')).toHaveTextContent('Acme');
    await waitFor(() => expect(screen.getAllByTestId('organization-invitation')).toHaveLength(1));
    await setLanguage('es');
    const [beta] = screen.getAllByTestId('organization-invitation');
    expect(beta).toHaveTextContent('Te invitaron a unirte como Gerente.');
    fireEvent.click(within(beta).getByRole('button', { name: 'Rechazar la invitación a Beta' }));
    expect(await screen.findByText('Invitación rechazada')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('organization-invitations')).toBeNull());
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url.split('?')[0])).toEqual(['/api/organizations/invitations/1/accept', '/api/organizations/invitations/2/decline']);
  });

  it('search is disabled while there are no organizations at all; empty and error states', async () => {
    stubFetch({ 'GET /api/organizations': () => list() });
    const { unmount } = show(<OrganizationsPage />, customer, '/organizations');
    expect(await screen.findByTestId('organizations-empty')).toHaveTextContent("You don't belong to any organization yet.");
    expect(screen.getByTestId('organizations-search')).toBeDisabled();
    unmount();
    stubFetch({ 'GET /api/organizations/admin/all': () => ({ status: 500, body: { error: 'internal', message: 'Something went wrong.' } }) });
    show(<AllOrganizationsPage />, staffAdmin, '/admin/organizations');
    expect(await screen.findByTestId('organizations-error')).toHaveTextContent('Something went wrong.');
    expect(screen.getByRole('heading', { name: 'All organizations' })).toBeInTheDocument();
  });

  it('searches 500 ms after typing, in Spanish', async () => {
    await setLanguage('es');
    const { calls } = stubFetch({ 'GET /api/organizations': () => list(acme) });
    show(<OrganizationsPage />, customer, '/organizations');
    await screen.findAllByTestId('organization-card');
    expect(screen.getByRole('heading', { name: 'Organizaciones' })).toBeInTheDocument();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.change(screen.getByTestId('organizations-search'), { target: { value: 'ac' } });
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(calls.some((c) => query(c.url).get('query') === 'ac')).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(300));
    await waitFor(() => expect(calls.some((c) => query(c.url).get('query') === 'ac')).toBe(true));
  });
});

describe('organization settings', () => {
  it("creating: every field is there at once; an empty name is refused with the spec's alert and nothing is sent; a name creates and opens its settings", async () => {
    const { calls } = stubFetch({ 'POST /api/organizations': () => ({ status: 201, body: buildOrganization({ organization_id: 6, name: 'Nueva' }) }) });
    show(<OrganizationSettingsPage />, staffAdmin, '/organizations/organization-settings', '/organizations/organization-settings');
    // spec part 2 §2 "Organization form" before the first save (issue 30 item 20).
    for (const field of ['organization-thumbnail', 'organization-video-source', 'organization-stripe-public', 'secret-stripe_secret', 'secret-stripe_webhook_secret', 'secret-openai_api_key'])
      expect(await screen.findByTestId(field)).toBeInTheDocument();
    expect(screen.getByTestId('organization-webhook-later')).toHaveTextContent('once the organization is saved');
    fireEvent.click(await screen.findByTestId('organization-save'));
    expect((await screen.findAllByText('Please add a name to your organization')).length).toBeGreaterThanOrEqual(1);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    fireEvent.change(screen.getByTestId('organization-name'), { target: { value: 'Nueva' } });
    fireEvent.click(screen.getByTestId('replace-openai_api_key'));
    fireEvent.change(screen.getByTestId('secret-openai_api_key'), { target: { value: 'sk-org-key' } });
    fireEvent.change(screen.getByTestId('organization-stripe-public'), { target: { value: 'pk_test_9' } });
    // Its own web search (issue 32): the URL and key fields show for the provider chosen.
    expect(screen.queryByTestId('organization-web-search-url')).toBeNull();
    fireEvent.click(screen.getByTestId('organization-web-search-provider'));
    fireEvent.click(await screen.findByRole('option', { name: 'Brave Search API', hidden: true }));
    fireEvent.change(await screen.findByTestId('organization-web-search-url'), { target: { value: 'https://brave.example.com' } });
    fireEvent.click(screen.getByTestId('replace-web_search_api_key'));
    fireEvent.change(screen.getByTestId('secret-web_search_api_key'), { target: { value: 'brave-org-key' } });
    fireEvent.click(screen.getByTestId('organization-save'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        name: 'Nueva',
        tagline: '',
        slug: '',
        domain: '',
        stripe_public: 'pk_test_9',
        openai_api_key: 'sk-org-key',
        web_search_provider: 'brave',
        web_search_url: 'https://brave.example.com',
        web_search_api_key: 'brave-org-key',
        thumbnail_file_id: null,
        require_two_factor_admins: false,
        welcome_video_file_id: null,
        welcome_video_url: null,
      }),
    );
    expect(await screen.findByText('Organization saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/organizations/organization-settings/6'));
  });

  it('shows secrets masked and sends only the replaced one, in the organization it edits', async () => {
    const stored = buildOrganization({ stripe_secret: '••••••••4242', openai_api_key: '••••••••wxyz', stripe_public: 'pk_test_1' });
    const { calls } = stubFetch({
      'GET /api/organizations/5': () => ({ body: stored }),
      'POST /api/organizations/update': () => ({ body: { ...stored, openai_api_key: '••••••••-new' } }),
    });
    organizationStore.set({ organization_id: 8, name: 'Other' });
    show(<OrganizationSettingsPage />, customer, '/organizations/organization-settings/5', '/organizations/organization-settings/:id');
    expect(await screen.findByTestId('secret-stripe_secret')).toHaveValue('••••••••4242');
    expect(screen.getByTestId('secret-stripe_webhook_secret')).toHaveValue('Not set');
    fireEvent.click(screen.getByTestId('replace-openai_api_key'));
    fireEvent.change(screen.getByTestId('secret-openai_api_key'), { target: { value: 'sk-live-new' } });
    fireEvent.change(screen.getByTestId('organization-tagline'), { target: { value: 'New line' } });
    fireEvent.click(screen.getByTestId('organization-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toMatchObject({ organization_id: 5, name: 'Acme', tagline: 'New line', openai_api_key: 'sk-live-new', stripe_public: 'pk_test_1' });
    expect(post.body).not.toHaveProperty('stripe_secret');
    // The body names organization 5, and so does the query, whichever organization is active.
    expect(query(post.url).get('organization_id')).toBe('5');
    expect(await screen.findByText('Organization saved')).toBeInTheDocument();
  });

  it('a server refusal of a field shows under it and changes nothing on screen', async () => {
    stubFetch({
      'GET /api/organizations/5': () => ({ body: acme }),
      'POST /api/organizations/update': () => ({ status: 400, body: { error: 'validation', message: 'Invalid.', details: { domain: 'Another organization already uses this domain.' } } }),
    });
    show(<OrganizationSettingsPage />, customer, '/organizations/organization-settings/5', '/organizations/organization-settings/:id');
    fireEvent.change(await screen.findByTestId('organization-domain'), { target: { value: 'taken.example.com' } });
    fireEvent.click(screen.getByTestId('organization-save'));
    expect(await screen.findByText('Another organization already uses this domain.')).toBeInTheDocument();
    expect(screen.queryByText('Organization saved')).toBeNull();
  });

  it('a Manager sees the settings read-only (no keys, no Save, no Delete); a Member is refused; in Spanish', async () => {
    await setLanguage('es');
    stubFetch({ 'GET /api/organizations/5': () => ({ body: buildOrganization({ role: 'manager' }) }) });
    const { unmount } = show(<OrganizationSettingsPage />, customer, '/organizations/organization-settings/5', '/organizations/organization-settings/:id');
    expect(await screen.findByTestId('organization-form-read-only')).toHaveTextContent('Solo el Admin de la organización puede cambiar su configuración');
    expect(screen.getByTestId('organization-name')).toHaveValue('Acme');
    expect(screen.getByTestId('organization-name')).toBeDisabled();
    expect(screen.queryByTestId('organization-save')).toBeNull();
    expect(screen.queryByTestId('delete-organization')).toBeNull();
    expect(screen.queryByTestId('secret-stripe_secret')).toBeNull();
    unmount();
    stubFetch({ 'GET /api/organizations/5': () => ({ body: buildOrganization({ role: 'member' }) }) });
    show(<OrganizationSettingsPage />, customer, '/organizations/organization-settings/5', '/organizations/organization-settings/:id');
    expect(await screen.findByTestId('organization-form-refused')).toBeInTheDocument();
  });

  it('an Admin without a second factor in an organization that requires one gets the gate to Settings; with one, the form (issue 33)', async () => {
    stubFetch({ 'GET /api/organizations/5': () => ({ body: buildOrganization({ require_two_factor_admins: true }) }) });
    const unverified = buildUser({ user_id: 7, two_factor: { enabled: false, required: false, verified: false } });
    const { unmount } = show(<OrganizationSettingsPage />, unverified, '/organizations/organization-settings/5', '/organizations/organization-settings/:id');
    const gate = await screen.findByTestId('two-factor-gate');
    expect(gate).toHaveTextContent('This organization requires its Admins to use two-factor authentication');
    expect(within(gate).getByRole('link', { name: 'Set it up in Settings' })).toHaveAttribute('href', '/settings#security');
    expect(screen.queryByTestId('organization-name')).toBeNull();
    unmount();
    const verified = buildUser({ user_id: 7, two_factor: { enabled: true, required: false, verified: true } });
    show(<OrganizationSettingsPage />, verified, '/organizations/organization-settings/5', '/organizations/organization-settings/:id');
    expect(await screen.findByTestId('organization-require-two-factor')).toBeChecked();
    expect(screen.queryByTestId('two-factor-gate')).toBeNull();
  });

  it('a stranger gets the not-found error', async () => {
    stubFetch({ 'GET /api/organizations/5': () => ({ status: 404, body: { error: 'not_found', message: 'Not found.' } }) });
    show(<OrganizationSettingsPage />, customer, '/organizations/organization-settings/5', '/organizations/organization-settings/:id');
    expect(await screen.findByTestId('organization-form-error')).toHaveTextContent('Not found.');
  });

  it('deletes only with the exact name, then acts in Personal', async () => {
    const { calls } = stubFetch({ 'GET /api/organizations/5': () => ({ body: acme }), 'DELETE /api/organizations/5': () => ({ body: { deleted: true } }) });
    organizationStore.set({ organization_id: 5, name: 'Acme' });
    show(<OrganizationSettingsPage />, customer, '/organizations/organization-settings/5', '/organizations/organization-settings/:id');
    fireEvent.click(await screen.findByTestId('delete-organization'));
    const modal = await screen.findByTestId('delete-organization-modal');
    fireEvent.change(await within(modal).findByTestId('delete-organization-name'), { target: { value: 'acme' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Delete organization', hidden: true }));
    expect(await screen.findByText('Organization name does not match. Deletion aborted.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.change(within(modal).getByTestId('delete-organization-name'), { target: { value: 'Acme' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Delete organization', hidden: true }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(query(calls.find((c) => c.method === 'DELETE')!.url).get('name')).toBe('Acme');
    await waitFor(() => expect(organizationStore.get()).toBeNull());
    expect(await screen.findByText('Organization deleted')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/organizations');
  });
});

describe('choosing the organization', () => {
  const Screen = () => <div data-testid="screen">screen</div>;
  /** The app's organization gate around a screen, at /. */
  const showGate = (user: typeof customer) =>
    show(
      <OrganizationGate>
        <Screen />
      </OrganizationGate>,
      user,
      '/',
    );

  it('starts in the saved organization after a loading screen', async () => {
    localStorage.setItem('organization_id', '6');
    const beta = buildOrganization({ organization_id: 6, name: 'Beta', role: 'member' });
    stubFetch({ 'GET /api/organizations': () => list(acme, beta) });
    showGate(customer);
    expect(screen.getByTestId('loading-screen')).toBeInTheDocument();
    expect(await screen.findByTestId('screen')).toBeInTheDocument();
    expect(organizationStore.get()).toEqual({ organization_id: 6, name: 'Beta' });
  });

  it('a saved organization the user left is skipped: the default organization, else Personal', async () => {
    localStorage.setItem('organization_id', '99');
    stubFetch({ 'GET /api/organizations': () => list(acme) });
    showGate(buildUser({ default_organization: { organization_id: 5 } }));
    await screen.findByTestId('screen');
    expect(organizationStore.get()?.organization_id).toBe(5);
  });

  it('Personal chosen on this browser comes before the default organization', async () => {
    organizationStore.set(null);
    stubFetch({ 'GET /api/organizations': () => list(acme) });
    showGate(buildUser({ default_organization: { organization_id: 5 } }));
    expect(screen.getByTestId('screen')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(organizationStore.get()).toBeNull();
  });

  it('without a slug, saved id or default, the screen shows at once in Personal', async () => {
    stubFetch({ 'GET /api/organizations': () => list(acme) });
    showGate(customer);
    expect(screen.getByTestId('screen')).toBeInTheDocument();
    expect(organizationStore.get()).toBeNull();
  });

  it('the picker lists Personal and the organizations; switching goes home in the new context', async () => {
    stubFetch({ 'GET /api/organizations': () => list(acme, buildOrganization({ organization_id: 6, name: 'Beta', role: 'member' })) });
    show(<OrganizationPicker />, customer, '/conversations');
    const select = await screen.findByTestId('organization-select');
    expect(select).toHaveValue('Personal');
    fireEvent.click(select);
    const options = await waitFor(() => within(document.getElementById(select.getAttribute('aria-controls')!)!).getAllByRole('option', { hidden: true }));
    expect(options.map((o) => o.textContent)).toEqual(['Personal', 'Acme', 'Beta']);
    fireEvent.click(options.find((o) => o.textContent === 'Beta')!);
    await waitFor(() => expect(organizationStore.get()?.organization_id).toBe(6));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    // A Member has no organization tabs, only the campaigns and groups (what is granted to them).
    expect(await screen.findByTestId('organization-nav-groups')).toBeInTheDocument();
    expect(screen.getByTestId('organization-nav-campaigns')).toHaveAttribute('href', '/organization/campaigns');
    expect(screen.queryByTestId('organization-nav-admin-panel')).toBeNull();
    expect(screen.queryByTestId('organization-nav-organization-settings')).toBeNull();
  });

  it('the picker links pending invitations to the organizations list', async () => {
    stubFetch({
      'GET /api/organizations': () => list(),
      'GET /api/organizations/invitations': () => ({ body: { invitations: [{ invitation_id: 1, organization_id: 11, organization_name: 'Acme', thumbnail: null, role: 'member', inviter: 'Ana', createdAt: '2026-11-20T15:04:00.000Z' }] } }),
    });
    show(<OrganizationPicker />, customer, '/');
    const link = await screen.findByTestId('organization-nav-invitations');
    expect(link).toHaveAttribute('href', '/organizations');
    expect(link).toHaveTextContent('1 invitation to answer');
  });

  it("an Admin's picker links the organization tabs; nothing shows when organizations are off", async () => {
    organizationStore.set({ organization_id: 5, name: 'Acme' });
    stubFetch({ 'GET /api/organizations': () => list(acme) });
    const { unmount } = show(<OrganizationPicker />, customer, '/');
    expect(await screen.findByTestId('organization-nav-admin-panel')).toHaveAttribute('href', '/organization/admin-panel');
    expect(screen.getByTestId('organization-nav-organization-settings')).toHaveAttribute('href', '/organizations/organization-settings/5');
    unmount();
    renderScreen(<OrganizationPicker />, { session: fakeSession(customer), config: { organizations_enabled: 'false' } });
    expect(screen.queryByTestId('organization-picker')).toBeNull();
  });

  it("on phones, following a picker link closes the sidebar like the sidebar's own links", async () => {
    organizationStore.set({ organization_id: 5, name: 'Acme' });
    stubFetch({ 'GET /api/organizations': () => list(acme) });
    const closeSidebar = vi.fn();
    // The sidebar's widget slot, as the shell renders it: the registered picker gets the close handler.
    show(<ShellWidgets slot="sidebarTop" onNavigate={closeSidebar} />, customer, '/');
    fireEvent.click(await screen.findByTestId('organization-nav-admin-panel'));
    expect(closeSidebar).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('location')).toHaveTextContent('/organization/admin-panel');
    fireEvent.click(screen.getByTestId('organization-nav-list'));
    expect(closeSidebar).toHaveBeenCalledTimes(2);
  });

  it('an active organization the user lost (404) goes back to Personal with a message', async () => {
    organizationStore.set({ organization_id: 5, name: 'Acme' });
    stubFetch({
      'GET /api/organizations': () => list(),
      'GET /api/organizations/5': () => ({ status: 404, body: { error: 'not_found', message: 'Not found.' } }),
    });
    show(<OrganizationPicker />, customer, '/organization/groups');
    expect(await screen.findByText('You no longer belong to Acme. You are in Personal now.')).toBeInTheDocument();
    expect(organizationStore.get()).toBeNull();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('staff opening a back-office page inside an organization are offered to switch to Personal', async () => {
    await setLanguage('es');
    organizationStore.set({ organization_id: 5, name: 'Acme' });
    show(
      <PersonalOnlyPages>
        <Screen />
      </PersonalOnlyPages>,
      staffAdmin,
      '/admin/users',
    );
    expect(await screen.findByTestId('personal-only')).toHaveTextContent('Estás trabajando en Acme');
    expect(screen.queryByTestId('screen')).toBeNull();
    fireEvent.click(screen.getByTestId('switch-to-personal'));
    expect(await screen.findByTestId('screen')).toBeInTheDocument();
    expect(organizationStore.get()).toBeNull();
  });
});

describe('organization admin panel', () => {
  const inAcme = (role: 'admin' | 'manager' | 'member' = 'admin', extra: Parameters<typeof stubFetch>[0] = {}) => {
    organizationStore.set({ organization_id: 5, name: 'Acme' });
    return stubFetch({ 'GET /api/organizations': () => list(buildOrganization({ role })), ...extra });
  };

  it('shows the columns, Not used yet and LTV, asks the current month in the active organization; Add, Edit and Remove for the Admin', async () => {
    const { calls } = inAcme('admin', {
      'GET /api/organizations/5/users': () => ({ body: { users: [buildMemberRow(), buildMemberRow({ user_id: 21, name: 'Leo', role: 'manager', last_used: '2026-11-20T15:04:00.000Z' })], total: 2 } }),
    });
    show(<MembersPage />, customer, '/organization/admin-panel');
    const rows = await screen.findAllByTestId('member-row');
    expect(rows[0]).toHaveTextContent('#20');
    expect(rows[0]).toHaveTextContent('Marta Ruiz');
    expect(rows[0]).toHaveTextContent('Member');
    expect(rows[0]).toHaveTextContent('2,500');
    expect(rows[0]).toHaveTextContent('Not used yet');
    expect(rows[0]).toHaveTextContent('$19.50');
    expect(rows[1]).toHaveTextContent('Manager');
    expect(rows[1]).toHaveTextContent(/20 Nov 2026/);
    expect(screen.getByTestId('add-member')).toHaveAttribute('href', '/organization/admin-panel/new');
    expect(within(rows[0]).getByRole('button', { name: 'Edit Marta Ruiz' })).toBeInTheDocument();
    const first = query(calls.find((c) => c.url.startsWith('/api/organizations/5/users'))!.url);
    const today = new Date();
    expect(first.get('start_date')).toBe(`${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-01`);
    expect(first.get('organization_id')).toBe('5');
  });

  it('a Manager reads the table without Add, Edit or Remove; in Spanish', async () => {
    await setLanguage('es');
    inAcme('manager', { 'GET /api/organizations/5/users': () => ({ body: { users: [buildMemberRow()], total: 1 } }) });
    show(<MembersPage />, customer, '/organization/admin-panel');
    const [row] = await screen.findAllByTestId('member-row');
    expect(row).toHaveTextContent('Sin uso todavía');
    expect(row).toHaveTextContent('Miembro');
    expect(screen.queryByTestId('add-member')).toBeNull();
    expect(within(row).queryByRole('button')).toBeNull();
  });

  it('a Member is refused the table; Personal is asked to choose an organization', async () => {
    inAcme('member');
    const { unmount } = show(<MembersPage />, customer, '/organization/admin-panel');
    expect(await screen.findByTestId('members-refused')).toBeInTheDocument();
    unmount();
    organizationStore.set(null);
    show(<MembersPage />, customer, '/organization/admin-panel');
    expect(await screen.findByTestId('choose-organization')).toBeInTheDocument();
  });

  it('removes a user after the warning', async () => {
    const { calls } = inAcme('admin', {
      'GET /api/organizations/5/users': () => ({ body: { users: [buildMemberRow()], total: 1 } }),
      'DELETE /api/organizations/5/20': () => ({ body: { deleted: true } }),
    });
    show(<MembersPage />, customer, '/organization/admin-panel');
    const [row] = await screen.findAllByTestId('member-row');
    fireEvent.click(within(row).getByRole('button', { name: 'Remove Marta Ruiz' }));
    const modal = await screen.findByTestId('remove-member-modal');
    // The modal's content mounts after its opening transition.
    await waitFor(() => expect(modal).toHaveTextContent('cannot be undone'));
    fireEvent.click(within(modal).getByRole('button', { name: 'Remove', hidden: true }));
    expect(await screen.findByText('User deleted from the organization')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url.startsWith('/api/organizations/5/20'))).toBe(true);
  });

  it('adds a new user by email (they get the recovery email) and returns to the table', async () => {
    const { calls } = inAcme('admin', {
      'POST /api/organizations/users': () => ({
        status: 201,
        body: { user_organization_id: 3, organization_id: 5, user_id: 30, user_type_id: 2, role: 'manager', invited: true, pending: false, invitation_id: null, user: { user_id: 30, name: 'new', last_name: '', email: 'new@example.com' } },
      }),
    });
    show(<MemberFormPage />, customer, '/organization/admin-panel/new', '/organization/admin-panel/:userId');
    fireEvent.click(await screen.findByTestId('member-save'));
    expect(await screen.findByText('Please enter your email.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByTestId('member-email'), { target: { value: 'new@example.com' } });
    const role = screen.getByTestId('member-role');
    fireEvent.click(role);
    const options = await waitFor(() => within(document.getElementById(role.getAttribute('aria-controls')!)!).getAllByRole('option', { hidden: true }));
    fireEvent.click(options.find((o) => o.textContent === 'Manager')!);
    fireEvent.click(screen.getByTestId('member-save'));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ organization_id: 5, email: 'new@example.com', user_type_id: 2 }));
    expect(await screen.findByText(/We've emailed them a link to choose a password/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/organization\/admin-panel$/));
  });

  it('an existing account is invited: the toast says it joins when it accepts', async () => {
    inAcme('admin', {
      'POST /api/organizations/users': () => ({
        status: 201,
        body: { user_organization_id: null, organization_id: 5, user_id: 31, user_type_id: 3, role: 'member', invited: false, pending: true, invitation_id: 4, user: { user_id: 31, name: '', last_name: '', email: 'eve@example.com' } },
      }),
    });
    show(<MemberFormPage />, customer, '/organization/admin-panel/new', '/organization/admin-panel/:userId');
    expect(await screen.findByText(/they get an invitation and join when they accept it/)).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('member-email'), { target: { value: 'eve@example.com' } });
    fireEvent.click(screen.getByTestId('member-save'));
    expect(await screen.findByText('Invitation sent to eve@example.com. They join the organization when they accept it.')).toBeInTheDocument();
  });

  it('the Admin sees the pending invitations and revokes one; a Manager does not see them', async () => {
    const pending = { invitation_id: 4, email: 'eve@example.com', role: 'member', user_type_id: 3, createdAt: '2026-11-20T15:04:00.000Z' };
    let invitations = [pending];
    const { calls } = inAcme('admin', {
      'GET /api/organizations/5/users': () => ({ body: { users: [buildMemberRow()], total: 1 } }),
      'GET /api/organizations/5/invitations': () => ({ body: { invitations } }),
      'DELETE /api/organizations/5/invitations/4': () => {
        invitations = [];
        return { body: { deleted: true } };
      },
    });
    const { unmount } = show(<MembersPage />, customer, '/organization/admin-panel');
    const [row] = await screen.findAllByTestId('pending-invitation');
    expect(row).toHaveTextContent('eve@example.com');
    expect(row).toHaveTextContent('Member');
    // Not a member: not in the users table.
    expect(screen.getByTestId('members-table')).not.toHaveTextContent('eve@example.com');
    fireEvent.click(within(row).getByRole('button', { name: 'Revoke the invitation of eve@example.com' }));
    expect(await screen.findByText('Invitation revoked')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('pending-invitations')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE' && query(c.url).get('organization_id') === '5')).toBe(true);
    unmount();
    const manager = inAcme('manager', { 'GET /api/organizations/5/users': () => ({ body: { users: [buildMemberRow()], total: 1 } }) });
    show(<MembersPage />, customer, '/organization/admin-panel');
    await screen.findAllByTestId('member-row');
    expect(screen.queryByTestId('pending-invitations')).toBeNull();
    expect(manager.calls.some((c) => c.url.includes('/invitations'))).toBe(false);
  });

  it('shows the returned error when adding fails, and a Manager cannot open the form', async () => {
    inAcme('admin', { 'POST /api/organizations/users': () => ({ status: 409, body: { error: 'already_member', message: 'This user is already in the organization.' } }) });
    const { unmount } = show(<MemberFormPage />, customer, '/organization/admin-panel/new', '/organization/admin-panel/:userId');
    fireEvent.change(await screen.findByTestId('member-email'), { target: { value: 'marta@example.com' } });
    fireEvent.click(screen.getByTestId('member-save'));
    expect(await screen.findByText('This user is already in the organization.')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/organization/admin-panel/new');
    unmount();
    inAcme('manager');
    show(<MemberFormPage />, customer, '/organization/admin-panel/20', '/organization/admin-panel/:userId');
    expect(await screen.findByTestId('member-form-refused')).toBeInTheDocument();
  });

  it('edits a role with PUT', async () => {
    const detail = { user_organization_id: 1, user_id: 20, name: 'Marta', last_name: 'Ruiz', email: 'marta@example.com', picture: null, role: 'member', user_type_id: 3, total_words: 10, ltv: 0, last_use: null, createdAt: '2026-11-01T00:00:00.000Z', groups: [] };
    const { calls } = inAcme('admin', {
      'GET /api/organizations/5/users/20': () => ({ body: detail }),
      'PUT /api/organizations/users': () => ({ body: { user_organization_id: 1, organization_id: 5, user_id: 20, user_type_id: 1, role: 'admin', invited: false, pending: false, invitation_id: null, user: { user_id: 20, name: 'Marta', last_name: 'Ruiz', email: 'marta@example.com' } } }),
    });
    show(<MemberFormPage />, customer, '/organization/admin-panel/20', '/organization/admin-panel/:userId');
    expect(await screen.findByTestId('member-form-email')).toHaveTextContent('marta@example.com');
    const role = screen.getByTestId('member-role');
    fireEvent.click(role);
    const options = await waitFor(() => within(document.getElementById(role.getAttribute('aria-controls')!)!).getAllByRole('option', { hidden: true }));
    fireEvent.click(options.find((o) => o.textContent === 'Admin')!);
    fireEvent.click(screen.getByTestId('member-save'));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ organization_id: 5, user_id: 20, user_type_id: 1 }));
    expect(await screen.findByText('User saved')).toBeInTheDocument();
  });

  it('the user detail shows the customer card, Total Words, Last use and the recovery email (the reset link is staff-only)', async () => {
    const detail = { user_organization_id: 1, user_id: 20, name: 'Marta', last_name: 'Ruiz', email: 'marta@example.com', picture: null, role: 'member', user_type_id: 3, total_words: 1234, ltv: 5, last_use: null, createdAt: '2026-11-01T00:00:00.000Z', groups: [{ group_id: 9, name: 'Editors' }] };
    const { calls } = inAcme('admin', {
      'GET /api/organizations/5/users/20': () => ({ body: detail }),
      'POST /api/organizations/5/users/20/send-reset-email': () => ({ body: { message: 'sent' } }),
    });
    show(<MemberPage />, customer, '/organization/admin-panel/users/20', '/organization/admin-panel/users/:userId');
    const card = await screen.findByTestId('profile-card');
    expect(card).toHaveTextContent('Marta Ruiz');
    expect(card).toHaveTextContent('1,234');
    expect(card).toHaveTextContent('Not used yet');
    expect(card).toHaveTextContent('Editors');
    expect(screen.getByTestId('delete-member')).toHaveTextContent('Delete User');
    expect(screen.queryByTestId('member-reset-link')).toBeNull();
    fireEvent.click(screen.getByTestId('member-send-recovery'));
    expect(await screen.findByText("We've sent the password reset email.")).toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/api/organizations/5/users/20/send-reset-email'))).toBe(true);
  });
});

describe('organization analytics', () => {
  const customerRow = (overrides = {}) => ({ user_id: 20, name: 'Marta', last_name: 'Ruiz', email: 'marta@example.com', date: '2026-11-03T10:00:00.000Z', last_used: null, used_words: 1200, cancel_reason: null, ...overrides });
  const analytics = {
    start_date: '2026-11-01',
    end_date: '2026-11-30',
    signups: { count: 2, users: [customerRow(), customerRow({ user_id: 21, name: 'Leo', email: 'leo@example.com' })] },
    active: { count: 1, users: [customerRow()] },
    cancelled: { count: 1, users: [customerRow({ user_id: 22, name: 'Ana', email: 'ana@example.com', cancel_reason: 'Too expensive' })] },
    products: [{ product_id: 3, name: 'Team plan', purchases: 4, total_paid: 80 }],
    total_paid: 80,
    months: [{ month: '2026-11', signups: 2, total: 4, total_paid: 80 }],
  };

  it('shows the cards, one list at a time (the cancel reason for cancelled), purchases by product and the charts, for the current month', async () => {
    organizationStore.set({ organization_id: 5, name: 'Acme' });
    const { calls } = stubFetch({
      'GET /api/organizations': () => list(buildOrganization({ role: 'manager' })),
      'GET /api/organizations/5/analytics': () => ({ body: analytics }),
    });
    show(<OrganizationAnalyticsPage />, customer, '/organization/analytics');
    expect(await screen.findByTestId('analytics-count-signups')).toHaveTextContent('2');
    expect(screen.getByTestId('analytics-count-cancelled')).toHaveTextContent('1');
    const request = query(calls.find((c) => c.url.startsWith('/api/organizations/5/analytics'))!.url);
    const today = new Date();
    expect(request.get('start_date')).toBe(`${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-01`);
    expect(request.get('organization_id')).toBe('5');
    fireEvent.click(screen.getByTestId('analytics-expand-signups'));
    expect(await screen.findAllByTestId('analytics-customer')).toHaveLength(2);
    expect(screen.getByTestId('analytics-list-signups')).toHaveTextContent('Not used yet');
    fireEvent.click(screen.getByTestId('analytics-expand-cancelled'));
    expect(screen.queryByTestId('analytics-list-signups')).toBeNull();
    expect(screen.getByTestId('analytics-list-cancelled')).toHaveTextContent('Too expensive');
    fireEvent.click(screen.getByTestId('analytics-expand-cancelled'));
    expect(screen.queryByTestId('analytics-list-cancelled')).toBeNull();
    expect(screen.getByTestId('analytics-products')).toHaveTextContent('Team plan');
    expect(screen.getByTestId('analytics-products')).toHaveTextContent('$80.00');
    expect(screen.getByTestId('analytics-donut')).toBeInTheDocument();
    expect(screen.getByTestId('analytics-monthly')).toBeInTheDocument();
  });

  it('a Member is refused; a failed load says so', async () => {
    organizationStore.set({ organization_id: 5, name: 'Acme' });
    stubFetch({ 'GET /api/organizations': () => list(buildOrganization({ role: 'member' })) });
    const { unmount } = show(<OrganizationAnalyticsPage />, customer, '/organization/analytics');
    expect(await screen.findByTestId('analytics-refused')).toBeInTheDocument();
    unmount();
    stubFetch({ 'GET /api/organizations': () => ({ status: 500, body: { error: 'internal', message: 'Something went wrong.' } }) });
    show(<OrganizationAnalyticsPage />, customer, '/organization/analytics');
    expect(await screen.findByTestId('organization-load-error')).toBeInTheDocument();
  });
});
