// Who may see and do what with a group (spec part 2 §6; docs/decisions.md "Organizations"). A group
// belongs to one organization: its Admins and Managers (and staff admins, as its Admin) see all its groups
// and create, edit, delete them and add or remove users; a Member sees only the groups they are in, read
// only (spec §6: a Member "cannot create, edit or delete ... groups, cannot add users to groups"). A group
// outside what the actor may see is a 404; a visible group the role may not change is a 403.
import type { OrganizationRole } from '@pluma/common/constants';
import { GROUP_ACTIONS, type GroupAction } from '@pluma/common/groups';
import { and, eq, exists, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { groups, groupUsers } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { forbidden, notFound } from '../../platform/http/errors';
import { organizationAccess, roleCan, type OrganizationAccess } from '../organizations';

export type GroupRow = typeof groups.$inferSelect;

/** The scope of every group query in an organization, for the actor's role there. */
export function visibleGroups(actor: Actor, access: OrganizationAccess): SQL {
  const inOrganization = eq(groups.organizationId, access.organizationId);
  if (roleCan(access.role, 'manage_groups')) return inOrganization;
  const mine = exists(sql`(select 1 from ${groupUsers} where ${groupUsers.groupId} = ${groups.groupId} and ${groupUsers.userId} = ${actor.user.userId})`);
  return and(inOrganization, mine) as SQL;
}

export function can(role: OrganizationRole, action: GroupAction): boolean {
  return action === 'read' || roleCan(role, 'manage_groups');
}

export const groupAbilitiesOf = (role: OrganizationRole) => Object.fromEntries(GROUP_ACTIONS.map((a) => [a, can(role, a)])) as Record<GroupAction, boolean>;

/**
 * The group and the actor's access to its organization if they may take `action` on it: 404 when the
 * group does not exist, its organization is not theirs, the request names another organization, or it is
 * a group a Member is not in; 403 for a Member's change.
 */
export async function requireGroup(db: Db, actor: Actor, groupId: number, action: GroupAction): Promise<{ group: GroupRow; access: OrganizationAccess }> {
  const [found] = await db.select({ organizationId: groups.organizationId }).from(groups).where(eq(groups.groupId, groupId)).limit(1);
  if (!found) throw notFound();
  // A record is visible only in its own context (DESIGN.md §7): a request in another organization misses it.
  if (actor.organization && actor.organization.organizationId !== found.organizationId) throw notFound();
  const access = await organizationAccess(db, actor, found.organizationId);
  const [group] = await db
    .select()
    .from(groups)
    .where(and(eq(groups.groupId, groupId), visibleGroups(actor, access)))
    .limit(1);
  if (!group) throw notFound();
  if (!can(access.role, action)) throw forbidden();
  return { group, access };
}
