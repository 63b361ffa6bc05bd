// Groups of an organization (spec part 2 §2 "Groups list", "Group page", §3 Group, §5, §6, §7 "Groups"):
// requests and responses of /api/groups. Rights per role: docs/decisions.md "Organizations".
import { z } from 'zod';
import { id, idParam, text } from './schema-kit';

export const GROUP_NAME_MAX = 200;
export const GROUPS_PAGE_SIZE = 100;

export const GROUP_ACTIONS = ['read', 'update', 'delete', 'add_users', 'remove_users'] as const;
export type GroupAction = (typeof GROUP_ACTIONS)[number];
export const groupAbilities = z.object(Object.fromEntries(GROUP_ACTIONS.map((a) => [a, z.boolean()])) as Record<GroupAction, z.ZodBoolean>);

export const groupUser = z.object({
  user_id: z.number(),
  name: z.string(),
  last_name: z.string(),
  email: z.string(),
  user_type_id: z.number(),
  /** When the user was added to the group. */
  createdAt: z.string(),
});
export type GroupUser = z.infer<typeof groupUser>;

export const group = z.object({
  group_id: z.number(),
  name: z.string(),
  organization_id: z.number(),
  users_count: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  abilities: groupAbilities,
});
export type Group = z.infer<typeof group>;

/** GET /groups/{id}: the group with its users (spec §3: group_users[] (user)). */
export const groupDetail = group.extend({ group_users: z.array(z.object({ user: groupUser })) });
export type GroupDetail = z.infer<typeof groupDetail>;

export const groupList = z.object({ groups: z.array(group), total: z.number() });
export type GroupList = z.infer<typeof groupList>;

export const groupListQuery = z.object({
  /** Part of the name, any case. */
  query: text().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type GroupListQuery = z.input<typeof groupListQuery>;

export const groupIdParams = z.object({ id: idParam() });
/** POST and DELETE /groups/users/{userId}/{groupId}. */
export const groupUserParams = z.object({ userId: idParam(), groupId: idParam() });

const name = text({ error: 'group_name_required' }).trim().min(1, { error: 'group_name_required' }).max(GROUP_NAME_MAX);

export const createGroupRequest = z.object({ name, organization_id: id() });
export type CreateGroupRequest = z.input<typeof createGroupRequest>;

export const updateGroupRequest = z.object({ group_id: id(), name });
export type UpdateGroupRequest = z.input<typeof updateGroupRequest>;

/** GET /groups/{id}/candidates: the organization's members not in the group ("Add Users to Group", §5). */
export const groupCandidatesQuery = z.object({ query: text().trim().max(200).optional() });
export const groupCandidates = z.object({ users: z.array(groupUser.omit({ createdAt: true })) });
export type GroupCandidates = z.infer<typeof groupCandidates>;

export const groupUserResponse = z.object({ group_id: z.number(), user_id: z.number() });
export const groupDeletedResponse = z.object({ deleted: z.literal(true) });
