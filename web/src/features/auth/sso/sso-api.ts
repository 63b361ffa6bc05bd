// Calls of single sign-on (issue 33 item 4): the providers' buttons, the exchange of the callback's one-time
// code, the staff admins' provider settings and an organization's choice.
import type { OrganizationSsoRequest, OrganizationSsoResponse, SsoProviderAdmin, SsoProviderPublic, SsoProviderRequest } from '@pluma/common/sso';
import type { LoginResponse } from '@pluma/common/users';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/instance';
import { deviceTokens } from '../trusted-devices';

export const SSO_PROVIDERS_KEY = ['auth', 'sso', 'providers'] as const;
export const SSO_ADMIN_KEY = ['admin', 'sso', 'providers'] as const;
export const organizationSsoKey = (id: number) => ['organizations', id, 'sso'] as const;

export function useSsoProviders() {
  return useQuery({
    queryKey: SSO_PROVIDERS_KEY,
    queryFn: () => api.get<{ providers: SsoProviderPublic[] }>('/auth/sso/providers', { auth: false }).then((r) => r.providers),
    staleTime: 60_000,
  });
}

/** Where the browser goes to sign in with a provider (a full navigation: the server redirects to it). */
export const ssoStartUrl = (providerId: number) => `/api/auth/sso/${providerId}/start`;

export const exchangeSsoCode = (code: string) =>
  api.post<LoginResponse>('/auth/sso/exchange', { code, device_tokens: deviceTokens() }, { auth: false });

export function useAdminSsoProviders() {
  return useQuery({
    queryKey: SSO_ADMIN_KEY,
    queryFn: () => api.get<{ providers: SsoProviderAdmin[] }>('/auth/sso/admin/providers').then((r) => r.providers),
    staleTime: 0,
  });
}
export const createSsoProvider = (body: SsoProviderRequest) => api.post<SsoProviderAdmin>('/auth/sso/admin/providers', body);
export const updateSsoProvider = (id: number, body: SsoProviderRequest) => api.put<SsoProviderAdmin>(`/auth/sso/admin/providers/${id}`, body);
export const deleteSsoProvider = (id: number) => api.delete<void>(`/auth/sso/admin/providers/${id}`);

export function useOrganizationSso(organizationId: number) {
  return useQuery({
    queryKey: organizationSsoKey(organizationId),
    queryFn: () => api.get<OrganizationSsoResponse>(`/auth/sso/organizations/${organizationId}`),
    staleTime: 0,
  });
}
export const saveOrganizationSso = (organizationId: number, body: OrganizationSsoRequest) =>
  api.put<OrganizationSsoResponse>(`/auth/sso/organizations/${organizationId}`, body);
