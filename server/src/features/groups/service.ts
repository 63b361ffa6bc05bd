// Groups (spec part 2 §2 "Groups list", "Group page"; §3 Group; §5 "Add-user-to-group ... candidates exclude
// users already in the group"; §7 "Groups"). Framework-free; routes.ts checks policy.ts first and passes the
// organization access it resolved.
import { ErrorIds } from '@pluma/common/errors';
import { GROUPS_PAGE_SIZE, groupListQuery, type GroupListQuery } from '@pluma/common/groups';
import { and, asc, count, eq, ilike, notExists, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { groups, groupUsers, userOrganizations, users } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError, notFound } from '../../platform/http/errors';
import { escapeLikePattern } from '../../platform/http/like-pattern';
import type { OrganizationAccess } from '../organizations';
import { visibleGroups, type GroupRow } from './policy';

const usersCount = sql<number>`(select count(*) from group_users gu where gu.group_id = ${groups.groupId})::int`;

/** GET /groups/organization/{id}: the groups the actor sees there, by name, `query` a part of it. */
export async function listGroups({ db, actor, access, query }: { db: Db; actor: Actor; access: OrganizationAccess; query: GroupListQuery }) {
  const q = groupListQuery.parse(query);
  const filters: SQL[] = [visibleGroups(actor, access)];
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
  return { rows: rows.map((r) => ({ group: r.group, usersCount: Number(r.usersCount) })), total };
}

/** The group's users (members of its organization), by name. */
export async function groupMembers(db: Db, group: GroupRow) {
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

export async function createGroup({ db, actor, organizationId, name }: { db: Db; actor: Actor; organizationId: number; name: string }): Promise<GroupRow> {
  const [group] = await db.insert(groups).values({ organizationId, name, createdBy: actor.user.userId }).returning();
  return group;
}

export async function renameGroup({ db, groupId, name }: { db: Db; groupId: number; name: string }): Promise<GroupRow> {
  const [group] = await db.update(groups).set({ name, updatedAt: new Date() }).where(eq(groups.groupId, groupId)).returning();
  return group;
}

/** DELETE /groups/{id}: the group and its user links (spec §5: it cannot be reversed). */
export async function deleteGroup({ db, groupId }: { db: Db; groupId: number }) {
  await db.delete(groups).where(eq(groups.groupId, groupId));
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
export async function addGroupUser({ db, group, userId }: { db: Db; group: GroupRow; userId: number }) {
  await assertMember(db, group.organizationId, userId);
  const inserted = await db.insert(groupUsers).values({ groupId: group.groupId, userId }).onConflictDoNothing().returning();
  if (inserted.length === 0) throw new AppError(409, ErrorIds.conflict, 'group_user_exists');
}

/** DELETE /groups/users/{userId}/{groupId}: 404 when the user is not in the group. */
export async function removeGroupUser({ db, group, userId }: { db: Db; group: GroupRow; userId: number }) {
  const removed = await db
    .delete(groupUsers)
    .where(and(eq(groupUsers.groupId, group.groupId), eq(groupUsers.userId, userId)))
    .returning();
  if (removed.length === 0) throw notFound();
}

/** The "Add Users to Group" candidates: the organization's members not in the group, by name (at most 100). */
export async function groupCandidates({ db, group, query }: { db: Db; group: GroupRow; query?: string }) {
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
