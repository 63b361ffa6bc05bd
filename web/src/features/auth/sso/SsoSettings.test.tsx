// Single sign-on settings (issue 33 item 4): the staff admins' providers tab (secret masked, a masked secret
// sent back unchanged) and an organization Admin's choice of provider and requirement.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { buildUser, fakeSession, renderScreen, stubFetch } from '../../../test/render';
import { OrganizationSsoCard } from './OrganizationSsoCard';
import { SsoProvidersPanel } from './SsoProvidersPanel';

const provider = {
  provider_id: 3,
  name: 'Acme ID',
  issuer: 'https://id.acme.example',
  client_id: 'pluma',
  client_secret: '••••••••9xyz',
  enabled: true,
  redirect_uri: 'https://pluma.example/api/auth/sso/callback',
  createdAt: '2026-11-29T00:00:00.000Z',
  updatedAt: '2026-11-29T00:00:00.000Z',
};

describe('single sign-on settings', () => {
  it('lists the providers with the secret masked; editing sends the masked secret back, which keeps it', async () => {
    const { calls } = stubFetch({
      'GET /api/auth/sso/admin/providers': () => ({ body: { providers: [provider] } }),
      'PUT /api/auth/sso/admin/providers/3': () => ({ body: { ...provider, name: 'Acme SSO' } }),
    });
    const admin = buildUser({ staff: { staff_id: 1, role: 'admin' } } as never);
    renderScreen(
      <Suspense fallback={null}>
        <SsoProvidersPanel />
      </Suspense>,
      { session: fakeSession(admin) },
    );
    const row = await screen.findByTestId('sso-admin-provider-3');
    expect(row).toHaveTextContent('••••••••9xyz');
    expect(row).toHaveTextContent(provider.redirect_uri);
    expect(row).not.toHaveTextContent('secret-value');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const name = screen.getByTestId('sso-provider-name');
    await user.clear(name);
    await user.type(name, 'Acme SSO');
    await user.click(screen.getByTestId('sso-provider-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ name: 'Acme SSO', issuer: provider.issuer, client_id: 'pluma', client_secret: '••••••••9xyz', enabled: true });
  });

  it("an organization's Admin picks a provider and requires it for the domain", async () => {
    const answer = (domain: string | null, required = false) => ({ provider_id: required ? 3 : null, required, domain, providers: [{ provider_id: 3, name: 'Acme ID' }] });
    const put = vi.fn(() => ({ body: answer('acme.example', true) }));
    const { calls } = stubFetch({ 'GET /api/auth/sso/organizations/9': () => ({ body: answer('acme.example') }), 'PUT /api/auth/sso/organizations/9': put });
    renderScreen(
      <Suspense fallback={null}>
        <OrganizationSsoCard organizationId={9} />
      </Suspense>,
    );
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('organization-sso-provider'));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme ID', hidden: true }));
    expect(screen.queryByTestId('organization-sso-signs-out')).toBeNull();
    fireEvent.click(screen.getByLabelText("Require SSO for the organization's domain"));
    // Said before saving: the domain's sessions end.
    expect(screen.getByTestId('organization-sso-signs-out').textContent).toContain('everyone whose email is on acme.example');
    await user.click(screen.getByTestId('organization-sso-save'));
    await waitFor(() => expect(put).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ provider_id: 3, required: true });
    // Saved: already required, nothing more would end.
    await waitFor(() => expect(screen.queryByTestId('organization-sso-signs-out')).toBeNull());
  });

  it('shows why the requirement is off when the organization has no domain', async () => {
    stubFetch({ 'GET /api/auth/sso/organizations/9': () => ({ body: { provider_id: null, required: false, domain: null, providers: [{ provider_id: 3, name: 'Acme ID' }] } }) });
    renderScreen(
      <Suspense fallback={null}>
        <OrganizationSsoCard organizationId={9} />
      </Suspense>,
    );
    expect(await screen.findByText("Set the organization's domain above to require single sign-on.")).toBeInTheDocument();
    expect(screen.getByLabelText("Require SSO for the organization's domain")).toBeDisabled();
  });
});
