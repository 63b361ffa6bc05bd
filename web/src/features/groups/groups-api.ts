// The groups calls (spec part 2 §7 "Groups"): the active organization's groups, one group with its users,
// create (POST) or rename (PUT) by the save rule (§4), delete, add and remove a user, and the candidates
// for "Add Users to Group" (members not in the group yet, §5). Every call acts in the active organization
// (the API client appends its organization_id).
import type { CreateGroupRequest, Group, GroupCandidates, GroupDetail, GroupList } from '@pluma/common/groups';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';

export const GROUPS_KEY = ['groups'] as const;
export const groupKey = (groupId: number) => [...GROUPS_KEY, 'one', groupId] as const;

export function useGroups(organizationId: number, query: string) {
  return useQuery({
    queryKey: [...GROUPS_KEY, 'list', organizationId, query],
    queryFn: () => api.get<GroupList>(`/groups/organization/${organizationId}`, { query: query ? { query } : {} }),
    placeholderData: keepPreviousData,
  });
}

export function useGroup(groupId: number | null) {
  return useQuery({ queryKey: groupKey(groupId ?? 0), queryFn: () => api.get<GroupDetail>(`/groups/${groupId}`), enabled: groupId !== null });
}

export function useGroupCandidates(groupId: number, enabled: boolean) {
  return useQuery({ queryKey: [...groupKey(groupId), 'candidates'], queryFn: () => api.get<GroupCandidates>(`/groups/${groupId}/candidates`), enabled, staleTime: 0 });
}

/** spec part 2 §4: no id creates (POST), an id renames (PUT). */
export const saveGroup = (groupId: number | null, body: CreateGroupRequest) =>
  groupId === null ? api.post<Group>('/groups', body) : api.put<Group>('/groups', { group_id: groupId, name: body.name });

export const deleteGroup = (groupId: number) => api.delete<{ deleted: true }>(`/groups/${groupId}`);
export const addGroupUser = (groupId: number, userId: number) => api.post<{ group_id: number; user_id: number }>(`/groups/users/${userId}/${groupId}`);
export const removeGroupUser = (groupId: number, userId: number) => api.delete<{ deleted: true }>(`/groups/users/${userId}/${groupId}`);
