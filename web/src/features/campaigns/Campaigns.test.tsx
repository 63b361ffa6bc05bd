// The campaigns screens (spec part 2 §2 "Campaigns list", "Campaign detail", "Campaign users page"; §4; §5;
// §6; §8; §9) in English and Spanish against a stubbed API, in the active organization.
import type { Campaign, CampaignDetail } from '@pluma/common/campaigns';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { organizationStore } from '../../api/organization';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import { buildOrganization } from '../organizations/test-organizations';
import CampaignPage from './CampaignPage';
import CampaignsPage from './CampaignsPage';
import CampaignUsersPage from './CampaignUsersPage';

const show = (ui: React.ReactElement, route: string, path?: string, staff = false) =>
  renderScreen(<Suspense fallback={null}>{ui}</Suspense>, {
    session: fakeSession(buildUser(staff ? { staff: { staff_id: 1, role: 'manager' } } : {})),
    route,
    path,
    config: { organizations_enabled: 'true' },
  });

function buildCampaign(overrides: Partial<Campaign> = {}, canManage = true): Campaign {
  return {
    campaign_id: 7,
    name: 'Spring launch',
    description: 'Q2',
    thumbnail: null,
    thumbnail_file_id: null,
    organization_id: 5,
    user_id: 3,
    user: { name: 'Mario', last_name: 'Rossi' },
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    abilities: { read: true, update: canManage, delete: canManage, manage_resources: canManage, manage_access: canManage },
    ...overrides,
  };
}

function buildDetail(overrides: Partial<CampaignDetail> = {}, canManage = true): CampaignDetail {
  return {
    ...buildCampaign({}, canManage),
    campaign_users: [{ user_id: 20, name: 'Marta', last_name: 'Ruiz', email: 'marta@example.com', user_type_id: 3 }],
    campaign_groups: [{ group_id: 4, name: 'Writers' }],
    ...overrides,
  };
}

/** stubFetch reads JSON bodies; the campaign form is multipart, so those calls are recorded here first. */
function withForms(stub: ReturnType<typeof stubFetch>) {
  const forms: { method: string; campaign: unknown; thumbnail: File | null }[] = [];
  const inner = stub.fetchMock.getMockImplementation()!;
  stub.fetchMock.mockImplementation(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    if (init.body instanceof FormData) {
      forms.push({ method: String(init.method), campaign: JSON.parse(String(init.body.get('campaign'))), thumbnail: init.body.get('thumbnail') as File | null });
      return inner(input, { ...init, body: undefined });
    }
    return inner(input, init);
  });
  return forms;
}

function inAcme(role: 'admin' | 'manager' | 'member', routes: Parameters<typeof stubFetch>[0]) {
  organizationStore.set({ organization_id: 5, name: 'Acme' });
  return stubFetch({ 'GET /api/organizations': () => ({ body: { organizations: [buildOrganization({ role })], total: 1 } }), ...routes });
}

const LIST = 'GET /api/campaigns/organization/5query';

beforeEach(() => organizationStore.set(null));
afterEach(async () => {
  organizationStore.set(null);
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('campaigns list', () => {
  it("a Manager sees the cards (default thumbnail, owner, Open), '+', the menu, and the four sorts sent as sortBy", async () => {
    const { calls } = inAcme('manager', { [LIST]: () => ({ body: { campaigns: [buildCampaign(), buildCampaign({ campaign_id: 8, name: 'Pics', thumbnail: '/api/files/abc.png' })], total: 2 } }) });
    show(<CampaignsPage />, '/organization/campaigns');
    const [card, second] = await screen.findAllByTestId('campaign-card');
    expect(screen.getByRole('heading', { name: 'Campaigns' })).toBeInTheDocument();
    expect(screen.getByTestId('create-campaign')).toBeInTheDocument();
    expect(within(card).getByTestId('campaign-default-thumbnail')).toBeInTheDocument();
    expect(within(second).getByTestId('campaign-thumbnail')).toHaveAttribute('src', '/api/files/abc.png');
    expect(within(card).getByTestId('campaign-owner')).toHaveTextContent('Mario Rossi');
    expect(within(card).getByTestId('open-campaign')).toHaveAttribute('href', '/organization/campaigns/7');
    fireEvent.click(within(card).getByRole('button', { name: 'Options for Spring launch' }));
    const items = await screen.findAllByRole('menuitem', { hidden: true });
    expect(items.map((i) => i.textContent)).toEqual(['Edit Campaign', 'Delete Campaign', 'Add Users']);
    const first = new URL(calls.find((c) => c.url.startsWith('/api/campaigns'))!.url, 'http://x');
    expect(first.pathname).toBe('/api/campaigns/organization/5query');
    expect(first.searchParams.get('sortBy')).toBe('createdAt_desc');
    expect(first.searchParams.get('organization_id')).toBe('5');

    const sort = screen.getByTestId('campaigns-sort');
    fireEvent.click(sort);
    const options = await waitFor(() => within(document.getElementById(sort.getAttribute('aria-controls')!)!).getAllByRole('option', { hidden: true }));
    expect(options.map((o) => o.textContent)).toEqual(['Last Created', 'Last Updated', 'A-Z', 'Z-A']);
    fireEvent.click(options[3]);
    await waitFor(() => expect(calls.some((c) => c.url.includes('sortBy=name_desc'))).toBe(true));
  });

  it('pages past 60 campaigns (page sent to the server)', async () => {
    const { calls } = inAcme('admin', { [LIST]: () => ({ body: { campaigns: [buildCampaign()], total: 61 } }) });
    show(<CampaignsPage />, '/organization/campaigns');
    await screen.findAllByTestId('campaign-card');
    fireEvent.click(await screen.findByRole('button', { name: '2' }));
    await waitFor(() => expect(calls.some((c) => new URL(c.url, 'http://x').searchParams.get('page') === '2')).toBe(true));
  });

  it("a Member sees no '+' and no menu; a staff member does; in Spanish", async () => {
    await setLanguage('es');
    inAcme('member', { [LIST]: () => ({ body: { campaigns: [buildCampaign({}, false)], total: 1 } }) });
    const { unmount } = show(<CampaignsPage />, '/organization/campaigns');
    const [card] = await screen.findAllByTestId('campaign-card');
    expect(screen.getByRole('heading', { name: 'Campañas' })).toBeInTheDocument();
    expect(screen.queryByTestId('create-campaign')).toBeNull();
    expect(within(card).queryByTestId('campaign-menu')).toBeNull();
    expect(within(card).getByTestId('open-campaign')).toHaveTextContent('Abrir');
    unmount();
    inAcme('member', { [LIST]: () => ({ body: { campaigns: [buildCampaign()], total: 1 } }) });
    show(<CampaignsPage />, '/organization/campaigns', undefined, true);
    const [staffCard] = await screen.findAllByTestId('campaign-card');
    expect(screen.getByTestId('create-campaign')).toHaveTextContent('Nueva campaña');
    expect(within(staffCard).getByTestId('campaign-menu')).toBeInTheDocument();
  });

  it('creates a campaign as a multipart form (campaign JSON with the organization, thumbnail), refusing an empty name first', async () => {
    const stub = inAcme('manager', {
      [LIST]: () => ({ body: { campaigns: [], total: 0 } }),
      'POST /api/campaigns': () => ({ status: 201, body: buildCampaign({ campaign_id: 10, name: 'Autumn' }) }),
    });
    const forms = withForms(stub);
    show(<CampaignsPage />, '/organization/campaigns');
    expect(await screen.findByTestId('campaigns-empty')).toHaveTextContent('There are no campaigns yet.');
    fireEvent.click(screen.getByTestId('create-campaign'));
    const modal = await screen.findByTestId('campaign-form-modal');
    const save = await within(modal).findByTestId('campaign-save');
    fireEvent.click(save);
    await waitFor(() => expect(within(modal).getByTestId('campaign-name')).toHaveAttribute('aria-invalid', 'true'));
    expect(forms).toHaveLength(0);
    fireEvent.change(within(modal).getByTestId('campaign-name'), { target: { value: 'Autumn' } });
    fireEvent.change(within(modal).getByTestId('campaign-description'), { target: { value: 'Leaves' } });
    const image = new File([new Uint8Array([137, 80, 78, 71])], 'cover.png', { type: 'image/png' });
    fireEvent.change(modal.querySelector('input[type="file"]')!, { target: { files: [image] } });
    fireEvent.click(save);
    await waitFor(() => expect(forms).toHaveLength(1));
    expect(forms[0]).toMatchObject({ method: 'POST', campaign: { organization_id: 5, name: 'Autumn', description: 'Leaves' } });
    expect(forms[0].thumbnail?.name).toBe('cover.png');
    expect(await screen.findByText('Campaign saved')).toBeInTheDocument();
  });

  it('edits with PUT (the campaign id in the JSON) and deletes from the menu', async () => {
    const stub = inAcme('admin', {
      [LIST]: () => ({ body: { campaigns: [buildCampaign()], total: 1 } }),
      'PUT /api/campaigns': () => ({ body: buildCampaign({ name: 'Summer' }) }),
      'DELETE /api/campaigns/campaign/7': () => ({ body: { deleted: true } }),
    });
    const forms = withForms(stub);
    show(<CampaignsPage />, '/organization/campaigns');
    const [card] = await screen.findAllByTestId('campaign-card');
    fireEvent.click(within(card).getByTestId('campaign-menu'));
    fireEvent.click(await screen.findByTestId('edit-campaign'));
    const modal = await screen.findByTestId('campaign-form-modal');
    const name = await within(modal).findByTestId('campaign-name');
    expect(name).toHaveValue('Spring launch');
    fireEvent.change(name, { target: { value: 'Summer' } });
    fireEvent.click(within(modal).getByTestId('campaign-save'));
    await waitFor(() => expect(forms[0]).toMatchObject({ method: 'PUT', campaign: { campaign_id: 7, name: 'Summer', organization_id: 5 } }));
    expect(await screen.findByText('Campaign saved')).toBeInTheDocument();
    fireEvent.click(within(card).getByTestId('campaign-menu'));
    fireEvent.click(await screen.findByTestId('delete-campaign'));
    const confirm = await screen.findByTestId('delete-campaign-modal');
    fireEvent.click(await within(confirm).findByRole('button', { name: 'Delete', hidden: true }));
    expect(await screen.findByText('Campaign deleted')).toBeInTheDocument();
    expect(stub.calls.some((c) => c.method === 'DELETE' && c.url.startsWith('/api/campaigns/campaign/7'))).toBe(true);
  });
});

describe('campaign page', () => {
  it("toggles Documents and Templates (links to the campaign document page and the template editor), 'No {type}s found', adds and removes", async () => {
    const { calls } = inAcme('manager', {
      'GET /api/campaigns/7': () => ({ body: buildDetail() }),
      'GET /api/campaigns/7/resources': (_init, url) =>
        new URL(url, 'http://x').searchParams.get('resources') === 'document'
          ? { body: { resources: [{ resource_id: 31, campaign_id: 7, type: 'document', name: 'Brief', createdAt: '', updatedAt: '' }], total: 1 } }
          : { body: { resources: [], total: 0 } },
      'GET /api/campaigns/7/candidates': () => ({ body: { resources: [{ resource_id: 41, type: 'template', name: 'Press release' }], organization_total: 2 } }),
      'POST /api/campaigns/campaign-resource/': () => ({ status: 201, body: { campaign_id: 7, resource_id: 41, type: 'template' } }),
      'DELETE /api/campaigns/campaign-resource/document/31/7': () => ({ body: { campaign_id: 7, resource_id: 31, type: 'document' } }),
    });
    show(<CampaignPage />, '/organization/campaigns/7', '/organization/campaigns/:campaignId');
    const [card] = await screen.findAllByTestId('resource-card');
    expect(screen.getByRole('heading', { name: 'Spring launch' })).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Brief' })).toHaveAttribute('href', '/campaign/7/documents/31');
    fireEvent.click(within(card).getByRole('button', { name: 'Remove Brief from the campaign' }));
    expect(await screen.findByText('Campaign document deleted from campaign')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('radio', { name: 'Templates' }));
    expect(await screen.findByTestId('resources-empty')).toHaveTextContent('No templates found');
    fireEvent.click(screen.getByTestId('add-resource'));
    const modal = await screen.findByTestId('add-resource-modal');
    const select = await within(modal).findByTestId('resource-candidate');
    await waitFor(() => expect(select).toBeEnabled());
    fireEvent.click(select);
    const options = await waitFor(() => within(document.getElementById(select.getAttribute('aria-controls')!)!).getAllByRole('option', { hidden: true }));
    fireEvent.click(options[0]);
    fireEvent.click(within(modal).getByTestId('add-resource-confirm'));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ campaign_id: 7, resource_id: 41, type: 'template' }));
    expect(await screen.findByText('Campaign template added')).toBeInTheDocument();
  });

  it('New document asks a name, makes it in the campaign and opens it; Add says when the organization has none yet (EN and ES)', async () => {
    let total = 0;
    const { calls } = inAcme('manager', {
      'GET /api/campaigns/7': () => ({ body: buildDetail() }),
      'GET /api/campaigns/7/resources': () => ({ body: { resources: [], total: 0 } }),
      'GET /api/campaigns/7/candidates': () => ({ body: { resources: [], organization_total: total } }),
      'POST /api/campaigns/7/documents': () => ({ status: 201, body: { resource_id: 55, campaign_id: 7, type: 'document', name: 'Launch plan' } }),
    });
    const { unmount } = show(<CampaignPage />, '/organization/campaigns/7', '/organization/campaigns/:campaignId');
    fireEvent.click(await screen.findByTestId('add-resource'));
    expect(await screen.findByTestId('no-resource-candidates')).toHaveTextContent('The organization has no documents yet. Use New document to write the first one in this campaign.');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel', hidden: true }));
    fireEvent.click(screen.getByTestId('new-campaign-document'));
    const modal = await screen.findByTestId('new-campaign-document-modal');
    const create = within(modal).getByTestId('new-campaign-document-create');
    expect(create).toBeDisabled();
    fireEvent.change(within(modal).getByTestId('new-campaign-document-name'), { target: { value: '  Launch plan ' } });
    fireEvent.click(create);
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Launch plan' }));
    expect(await screen.findByText('Document Launch plan created in the campaign')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/campaign/7/documents/55'));
    unmount();

    // Every document of the organization already in the campaign: the other text, in Spanish.
    total = 3;
    await setLanguage('es');
    show(<CampaignPage />, '/organization/campaigns/7', '/organization/campaigns/:campaignId');
    expect(await screen.findByTestId('new-campaign-document')).toHaveTextContent('Nuevo documento');
    fireEvent.click(screen.getByTestId('add-resource'));
    expect(await screen.findByTestId('no-resource-candidates')).toHaveTextContent('Cada documento de la organización ya está en esta campaña.');
  });

  it('a Member reads: no Add, no delete; a template links to its edit page; in Spanish', async () => {
    await setLanguage('es');
    inAcme('member', {
      'GET /api/campaigns/7': () => ({ body: buildDetail({}, false) }),
      'GET /api/campaigns/7/resources': (_init, url) =>
        new URL(url, 'http://x').searchParams.get('resources') === 'template'
          ? { body: { resources: [{ resource_id: 41, campaign_id: 7, type: 'template', name: 'Press release', createdAt: '', updatedAt: '' }], total: 1 } }
          : { body: { resources: [], total: 0 } },
    });
    show(<CampaignPage />, '/organization/campaigns/7', '/organization/campaigns/:campaignId');
    expect(await screen.findByTestId('resources-empty')).toHaveTextContent('No se encontraron documentos');
    expect(screen.queryByTestId('add-resource')).toBeNull();
    expect(screen.queryByTestId('new-campaign-document')).toBeNull();
    expect(screen.queryByTestId('delete-campaign')).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: 'Plantillas' }));
    const [card] = await screen.findAllByTestId('resource-card');
    expect(within(card).getByRole('link', { name: 'Press release' })).toHaveAttribute('href', '/templates/edit-template/41');
    expect(within(card).queryByTestId('remove-resource')).toBeNull();
  });
});

describe('campaign users page', () => {
  it('shows the owner, the Users and Groups tables; gives access to a group and revokes a user', async () => {
    const { calls } = inAcme('admin', {
      'GET /api/campaigns/7': () => ({ body: buildDetail() }),
      'GET /api/campaigns/7/access-candidates': () => ({ body: { users: [], groups: [{ group_id: 6, name: 'Sales' }] } }),
      'POST /api/campaigns/give-access/7': () => ({ status: 201, body: { campaign_id: 7, user_id: null, group_id: 6 } }),
      'POST /api/campaigns/revoke-access/7': () => ({ body: { campaign_id: 7, user_id: 20, group_id: null } }),
    });
    show(<CampaignUsersPage />, '/organization/campaigns/7/users', '/organization/campaigns/:campaignId/users');
    const [row] = await screen.findAllByTestId('campaign-user-row');
    expect(screen.getByTestId('campaign-owner')).toHaveTextContent('Owner: Mario Rossi');
    expect(within(screen.getByTestId('campaign-users')).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['#ID', 'Name', 'Email', 'Role', 'Actions']);
    expect(within(screen.getByTestId('campaign-groups')).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['#ID', 'Name', 'Actions']);
    expect(row).toHaveTextContent('#20');
    expect(row).toHaveTextContent('Marta Ruiz');
    expect(row).toHaveTextContent('Member');
    expect(screen.getByTestId('campaign-group-row')).toHaveTextContent('Writers');

    fireEvent.click(screen.getByTestId('add-campaign-group'));
    const modal = await screen.findByTestId('give-access-modal');
    const select = await within(modal).findByTestId('access-candidate');
    await waitFor(() => expect(select).toBeEnabled());
    fireEvent.click(select);
    const options = await waitFor(() => within(document.getElementById(select.getAttribute('aria-controls')!)!).getAllByRole('option', { hidden: true }));
    expect(options.map((o) => o.textContent)).toEqual(['Sales']);
    fireEvent.click(options[0]);
    fireEvent.click(within(modal).getByTestId('give-access'));
    await waitFor(() => expect(calls.find((c) => c.url.startsWith('/api/campaigns/give-access/7'))?.body).toEqual({ group_id: 6 }));
    expect(await screen.findByText('Gave campaign access')).toBeInTheDocument();

    fireEvent.click(within(row).getByRole('button', { name: 'Remove access of Marta Ruiz' }));
    await waitFor(() => expect(calls.find((c) => c.url.startsWith('/api/campaigns/revoke-access/7'))?.body).toEqual({ user_id: 20 }));
    expect(await screen.findByText('Removed Access')).toBeInTheDocument();
  });

  it("a grant refused by the server shows the server's error", async () => {
    inAcme('admin', {
      'GET /api/campaigns/7': () => ({ body: buildDetail({ campaign_users: [] }) }),
      'GET /api/campaigns/7/access-candidates': () => ({ body: { users: [{ user_id: 21, name: 'Leo', last_name: 'Sanz', email: 'leo@example.com', user_type_id: 3 }], groups: [] } }),
      'POST /api/campaigns/give-access/7': () => ({ status: 409, body: { error: 'conflict', message: 'They already have access to this campaign.' } }),
    });
    show(<CampaignUsersPage />, '/organization/campaigns/7/users', '/organization/campaigns/:campaignId/users');
    expect(await screen.findByTestId('campaign-users-empty')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('add-campaign-user'));
    const modal = await screen.findByTestId('give-access-modal');
    const select = await within(modal).findByTestId('access-candidate');
    await waitFor(() => expect(select).toBeEnabled());
    fireEvent.click(select);
    const options = await waitFor(() => within(document.getElementById(select.getAttribute('aria-controls')!)!).getAllByRole('option', { hidden: true }));
    fireEvent.click(options[0]);
    fireEvent.click(within(modal).getByTestId('give-access'));
    expect(await screen.findByText('They already have access to this campaign.')).toBeInTheDocument();
  });
});
