// The JSON of a group (spec part 2 §3 Group: group_id, name, organization_id, group_users[] (user)).
import type { OrganizationRole } from '@pluma/common/constants';
import type { Group, GroupDetail } from '@pluma/common/groups';
import { groupAbilitiesOf, type GroupRow } from './policy';
import type { groupMembers } from './service';

export function presentGroup(role: OrganizationRole, group: GroupRow, usersCount: number): Group {
  return {
    group_id: group.groupId,
    name: group.name,
    organization_id: group.organizationId,
    users_count: usersCount,
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
    abilities: groupAbilitiesOf(role),
  };
}

export function presentGroupDetail(role: OrganizationRole, group: GroupRow, members: Awaited<ReturnType<typeof groupMembers>>): GroupDetail {
  return {
    ...presentGroup(role, group, members.length),
    group_users: members.map((m) => ({
      user: { user_id: m.user_id, name: m.name, last_name: m.last_name, email: m.email, user_type_id: m.user_type_id, createdAt: m.addedAt.toISOString() },
    })),
  };
}
