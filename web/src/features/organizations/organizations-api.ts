// The organizations calls (spec part 2 §7 "Organizations"): the user's organizations, all of them (staff),
// one organization, create, update (the settings form), delete by name, and the members of the active
// organization (table, detail, add, change role, remove, recovery).
import type {
  AddOrganizationUserRequest,
  MyOrganizationInvitation,
  PendingOrganizationInvitation,
  CreateOrganizationRequest,
  Organization,
  OrganizationList,
  OrganizationUserDetail,
  OrganizationUserSaved,
  OrganizationUsersQuery,
  OrganizationUsersResponse,
  UpdateOrganizationRequest,
  UpdateOrganizationUserRequest,
} from '@pluma/common/organizations';
import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/api-error';
import { api } from '../../api/instance';
import { useActiveOrganization } from '../../api/organization';

/**
 * A call about organization `id` acts in it, whichever is active: the server checks the caller's role
 * there, and a body naming it must agree with the query's organization_id.
 */
const inOrganization = (id: number) => ({ organization_id: id });

/** Every organizations query starts with this (invalidated after any organization change). */
export const ORGANIZATIONS_KEY = ['organizations'] as const;
export const MY_ORGANIZATIONS_KEY = [...ORGANIZATIONS_KEY, 'mine'] as const;
export const organizationKey = (id: number) => [...ORGANIZATIONS_KEY, 'one', id] as const;
export const membersKey = (id: number) => [...ORGANIZATIONS_KEY, 'members', id] as const;

/**
 * The user's organizations, asked in Personal (`organization_id=`): the list decides which organization is
 * active, so it must not depend on the active one (a saved id the user lost would make it a 404).
 */
export const fetchMyOrganizations = (query = '') =>
  api.get<OrganizationList>('/organizations', { query: { organization_id: '', ...(query ? { query } : {}) } });

export function useMyOrganizations(enabled = true) {
  return useQuery({ queryKey: MY_ORGANIZATIONS_KEY, queryFn: () => fetchMyOrganizations(), enabled, staleTime: 60_000 });
}

/** The list pages: the user's organizations, or every organization (staff, /admin/organizations). */
export function useOrganizationList(scope: 'mine' | 'all', query: string) {
  return useQuery({
    queryKey: [...ORGANIZATIONS_KEY, 'list', scope, query],
    queryFn: () =>
      scope === 'mine' ? fetchMyOrganizations(query) : api.get<OrganizationList>('/organizations/admin/all', { query: { organization_id: '', ...(query ? { query } : {}) } }),
    placeholderData: keepPreviousData,
  });
}

export function useOrganization(id: number | null) {
  return useQuery({
    queryKey: organizationKey(id ?? 0),
    queryFn: () => api.get<Organization>(`/organizations/${id}`, { query: inOrganization(id ?? 0) }),
    enabled: id !== null,
    // The settings form shows what is stored now.
    staleTime: 0,
  });
}

export const createOrganization = (body: CreateOrganizationRequest) => api.post<Organization>('/organizations', body);
export const updateOrganization = (body: UpdateOrganizationRequest) => api.post<Organization>('/organizations/update', body, { query: inOrganization(body.organization_id) });
/** spec part 2 §5: deletion is confirmed by typing the exact name; the server checks it again. */
export const deleteOrganization = (id: number, name: string) => api.delete<{ deleted: true }>(`/organizations/${id}`, { query: { ...inOrganization(id), name } });

export function useOrganizationUsers(organizationId: number, query: OrganizationUsersQuery) {
  return useQuery({
    queryKey: [...membersKey(organizationId), 'list', query],
    queryFn: () => api.get<OrganizationUsersResponse>(`/organizations/${organizationId}/users`, { query: { ...(query as Record<string, string | number | undefined>), ...inOrganization(organizationId) } }),
    placeholderData: keepPreviousData,
  });
}

export function useOrganizationUser(organizationId: number, userId: number | null) {
  return useQuery({
    queryKey: [...membersKey(organizationId), 'one', userId ?? 0],
    queryFn: () => api.get<OrganizationUserDetail>(`/organizations/${organizationId}/users/${userId}`, { query: inOrganization(organizationId) }),
    enabled: userId !== null,
  });
}

export const addOrganizationUser = (body: AddOrganizationUserRequest) => api.post<OrganizationUserSaved>('/organizations/users', body, { query: inOrganization(body.organization_id) });
export const updateOrganizationUser = (body: UpdateOrganizationUserRequest) => api.put<OrganizationUserSaved>('/organizations/users', body, { query: inOrganization(body.organization_id) });
export const removeOrganizationUser = (organizationId: number, userId: number) => api.delete<{ deleted: true }>(`/organizations/${organizationId}/${userId}`, { query: inOrganization(organizationId) });

/** A public image for the thumbnail (POST /files with public=true): its file id goes in the form. */
export async function uploadFile(file: File, options: { public?: boolean } = {}): Promise<{ file_id: number; src: string }> {
  const form = new FormData();
  // The field before the file: the server reads fields as they come.
  if (options.public) form.append('public', 'true');
  form.append('file', file);
  return api.post<{ file_id: number; src: string }>('/files', form);
}

/**
 * The active organization as the server presents it (role, abilities): from the user's list, or fetched
 * when staff act in an organization they are not a member of. null in Personal or until known.
 */
export function useActiveOrganizationRecord(): Organization | null {
  return useActiveOrganizationQuery().record;
}

/**
 * The active organization's record, whether it could not be loaded, and whether it is gone for this user
 * (removed from it, or it was deleted: a 404).
 */
export function useActiveOrganizationQuery(): { record: Organization | null; failed: boolean; gone: boolean } {
  const active = useActiveOrganization();
  const mine = useMyOrganizations(active !== null);
  const listed = active ? (mine.data?.organizations.find((o) => o.organization_id === active.organization_id) ?? null) : null;
  const fetched = useQuery({
    queryKey: organizationKey(active?.organization_id ?? 0),
    queryFn: () => api.get<Organization>(`/organizations/${active?.organization_id}`, { query: inOrganization(active?.organization_id ?? 0) }),
    enabled: active !== null && mine.isSuccess && listed === null,
  });
  const gone = fetched.error instanceof ApiError && fetched.error.status === 404;
  return { record: listed ?? fetched.data ?? null, failed: mine.isError || fetched.isError, gone };
}

/** The user detail's recovery buttons (spec part 2 §2): the reset email (the Admin), the link (staff only). */
export const sendMemberRecoveryEmail = (organizationId: number, userId: number) =>
  api.post<{ message: string }>(`/organizations/${organizationId}/users/${userId}/send-reset-email`, undefined, { query: inOrganization(organizationId) });
export const createMemberResetLink = (organizationId: number, userId: number) =>
  api.post<{ link: string }>(`/organizations/${organizationId}/users/${userId}/reset-link`, undefined, { query: inOrganization(organizationId) });

// ---- Invitations (issue 30 item 12): an existing account invited by an Admin accepts or declines.

export const MY_INVITATIONS_KEY = [...ORGANIZATIONS_KEY, 'invitations', 'mine'] as const;
export const pendingInvitationsKey = (id: number) => [...membersKey(id), 'invitations'] as const;

/** The signed-in account's pending invitations (asked in Personal, like the list of its organizations). */
export function useMyInvitations(enabled = true) {
  return useQuery({
    queryKey: MY_INVITATIONS_KEY,
    queryFn: () => api.get<{ invitations: MyOrganizationInvitation[] }>('/organizations/invitations', { query: { organization_id: '' } }),
    enabled,
    staleTime: 60_000,
  });
}

export const acceptInvitation = (invitationId: number) =>
  api.post<{ organization_id: number; role: string; user_type_id: number }>(`/organizations/invitations/${invitationId}/accept`, undefined, { query: { organization_id: '' } });
export const declineInvitation = (invitationId: number) =>
  api.post<{ deleted: true }>(`/organizations/invitations/${invitationId}/decline`, undefined, { query: { organization_id: '' } });

/** After an answer: the invitations and the organizations (a new membership) are read again. */
export const invitationAnswered = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: ORGANIZATIONS_KEY });

/** The organization's invitations nobody has answered yet (the Admin's). */
export function usePendingInvitations(organizationId: number, enabled: boolean) {
  return useQuery({
    queryKey: pendingInvitationsKey(organizationId),
    queryFn: () => api.get<{ invitations: PendingOrganizationInvitation[] }>(`/organizations/${organizationId}/invitations`, { query: inOrganization(organizationId) }),
    enabled,
  });
}

export const revokeInvitation = (organizationId: number, invitationId: number) =>
  api.delete<{ deleted: true }>(`/organizations/${organizationId}/invitations/${invitationId}`, { query: inOrganization(organizationId) });
