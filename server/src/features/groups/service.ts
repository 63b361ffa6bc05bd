// Groups (spec part 2 §2 "Groups list", "Group page"; §3 Group; §5 "Add-user-to-group ... candidates exclude
// users already in the group"; §7 "Groups"). Framework-free: verbNoun({ actor, db, ... }), each operation
// authorizes through policy.ts and returns the group with the actor acting in its organization (for abilities).
import { ErrorIds } from '@pluma/common/errors';
import { GROUPS_PAGE_SIZE, groupListQuery, type GroupListQuery } from '@pluma/common/groups';
import { and, asc, count, eq, ilike, notExists, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { groups, groupUsers, userOrganizations, users } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError, notFound } from '../../platform/http/errors';
import { escapeLikePattern } from '../../platform/http/like-pattern';
import { actorInOrganization } from '../organizations';
import { groupPolicy, requireGroup, requireGroupCreation, type GroupRow } from './policy';

const usersCount = sql<number>`(select count(*) from group_users gu where gu.group_id = ${groups.groupId})::int`;

/** GET /groups/organization/{id}: the groups the actor sees there, by name, `query` a part of it. */
export async function listGroups({ actor, db, organizationId, query }: { actor: Actor; db: Db; organizationId: number; query: GroupListQuery }) {
  const acting = await actorInOrganization(db, actor, organizationId);
  const q = groupListQuery.parse(query);
  const filters: SQL[] = [groupPolicy.visibleTo(acting)];
  if (q.query) filters.push(ilike(groups.name, `%${escapeLikePattern(q.query)}%`));
  const where = and(...filters);
  const rows = await db
    .select({ group: groups, usersCount })
    .from(groups)
    .where(where)
    .orderBy(sql`lower(${groups.name})`, asc(groups.groupId))
    .limit(GROUPS_PAGE_SIZE)
    .offset((q.page - 1) * GROUPS_PAGE_SIZE);
  const [{ total }] = await db.select({ total: count() }).from(groups).where(where);
  return { rows: rows.map((r) => ({ group: r.group, usersCount: Number(r.usersCount) })), total, actor: acting };
}

export type GroupMember = Awaited<ReturnType<typeof membersOf>>[number];

/** The group's users (members of its organization), by name. */
function membersOf(db: Db, group: GroupRow) {
  return db
    .select({
      user_id: users.userId,
      name: users.name,
      last_name: users.lastName,
      email: users.email,
      user_type_id: userOrganizations.userTypeId,
      addedAt: groupUsers.createdAt,
    })
    .from(groupUsers)
    .innerJoin(users, eq(users.userId, groupUsers.userId))
    .innerJoin(userOrganizations, and(eq(userOrganizations.userId, groupUsers.userId), eq(userOrganizations.organizationId, group.organizationId)))
    .where(eq(groupUsers.groupId, group.groupId))
    .orderBy(sql`lower(${users.name})`, asc(users.userId));
}

/** GET /groups/{id}: the group and its users. */
export async function readGroup({ actor, db, groupId }: { actor: Actor; db: Db; groupId: number }) {
  const found = await requireGroup(db, actor, groupId, 'read');
  return { ...found, members: await membersOf(db, found.group) };
}

/** POST /groups: Admins and Managers of the organization the request acts in. */
export async function createGroup({ actor, db, organizationId, name }: { actor: Actor; db: Db; organizationId: number; name: string }) {
  const acting = requireGroupCreation(actor, organizationId);
  const [group] = await db.insert(groups).values({ organizationId, name, createdBy: actor.user.userId }).returning();
  return { group, actor: acting };
}

/** PUT /groups: the new name; `previousName` for the audit. */
export async function renameGroup({ actor, db, groupId, name }: { actor: Actor; db: Db; groupId: number; name: string }) {
  const { group: before, actor: acting } = await requireGroup(db, actor, groupId, 'update');
  const [group] = await db.update(groups).set({ name, updatedAt: new Date() }).where(eq(groups.groupId, before.groupId)).returning();
  return { group, actor: acting, previousName: before.name, members: await membersOf(db, group) };
}

/** DELETE /groups/{id}: the group and its user links (spec §5: it cannot be reversed). Returns what was deleted. */
export async function deleteGroup({ actor, db, groupId }: { actor: Actor; db: Db; groupId: number }): Promise<GroupRow> {
  const { group } = await requireGroup(db, actor, groupId, 'delete');
  await db.delete(groups).where(eq(groups.groupId, group.groupId));
  return group;
}

async function assertMember(db: Db, organizationId: number, userId: number) {
  const [member] = await db
    .select({ id: userOrganizations.userOrganizationId })
    .from(userOrganizations)
    .where(and(eq(userOrganizations.organizationId, organizationId), eq(userOrganizations.userId, userId)))
    .limit(1);
  // Only the organization's members can be in its groups; anyone else is unknown here.
  if (!member) throw notFound();
}

/** POST /groups/users/{userId}/{groupId}: a member of the group's organization joins it (409 when already in). */
export async function addGroupUser({ actor, db, groupId, userId }: { actor: Actor; db: Db; groupId: number; userId: number }) {
  const { group } = await requireGroup(db, actor, groupId, 'add_users');
  await assertMember(db, group.organizationId, userId);
  const inserted = await db.insert(groupUsers).values({ groupId: group.groupId, userId }).onConflictDoNothing().returning();
  if (inserted.length === 0) throw new AppError(409, ErrorIds.conflict, 'group_user_exists');
}

/** DELETE /groups/users/{userId}/{groupId}: 404 when the user is not in the group. */
export async function removeGroupUser({ actor, db, groupId, userId }: { actor: Actor; db: Db; groupId: number; userId: number }) {
  const { group } = await requireGroup(db, actor, groupId, 'remove_users');
  const removed = await db
    .delete(groupUsers)
    .where(and(eq(groupUsers.groupId, group.groupId), eq(groupUsers.userId, userId)))
    .returning();
  if (removed.length === 0) throw notFound();
}

/** The "Add Users to Group" candidates: the organization's members not in the group, by name (at most 100). */
export async function groupCandidates({ actor, db, groupId, query }: { actor: Actor; db: Db; groupId: number; query?: string }) {
  const { group } = await requireGroup(db, actor, groupId, 'add_users');
  const filters: SQL[] = [
    eq(userOrganizations.organizationId, group.organizationId),
    notExists(sql`(select 1 from ${groupUsers} where ${groupUsers.groupId} = ${group.groupId} and ${groupUsers.userId} = ${userOrganizations.userId})`),
  ];
  if (query) {
    const pattern = `%${escapeLikePattern(query)}%`;
    filters.push(sql`(${users.name} ilike ${pattern} or ${users.lastName} ilike ${pattern} or ${users.email} ilike ${pattern})`);
  }
  return db
    .select({ user_id: users.userId, name: users.name, last_name: users.lastName, email: users.email, user_type_id: userOrganizations.userTypeId })
    .from(userOrganizations)
    .innerJoin(users, eq(users.userId, userOrganizations.userId))
    .where(and(...filters))
    .orderBy(sql`lower(${users.name})`, asc(users.userId))
    .limit(100);
}
