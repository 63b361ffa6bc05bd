// The JSON of a group (spec part 2 §3 Group: group_id, name, organization_id, group_users[] (user)).
import type { Group, GroupDetail } from '@pluma/common/groups';
import type { ActorInOrganization } from '../../platform/auth/organization';
import { groupPolicy, type GroupRow } from './policy';
import type { GroupMember } from './service';

/** `actor`: acting in the group's organization (as the service returned it). */
export function presentGroup(actor: ActorInOrganization, group: GroupRow, usersCount: number): Group {
  return {
    group_id: group.groupId,
    name: group.name,
    organization_id: group.organizationId,
    users_count: usersCount,
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
    abilities: groupPolicy.abilities(actor, group),
  };
}

export function presentGroupDetail(actor: ActorInOrganization, group: GroupRow, members: GroupMember[]): GroupDetail {
  return {
    ...presentGroup(actor, group, members.length),
    group_users: members.map((m) => ({
      user: { user_id: m.user_id, name: m.name, last_name: m.last_name, email: m.email, user_type_id: m.user_type_id, createdAt: m.addedAt.toISOString() },
    })),
  };
}
