// Who may see and do what with a group (spec part 2 §6; docs/decisions.md "Organizations"). A group
// belongs to one organization: its Admins and Managers (and staff admins, as its Admin) see all its groups
// and create, edit, delete them and add or remove users; a Member sees only the groups they are in, read
// only (spec §6: a Member "cannot create, edit or delete ... groups, cannot add users to groups"). A group
// outside what the actor may see is a 404; a visible group the role may not change is a 403.
import { GROUP_ACTIONS, type GroupAction } from '@pluma/common/groups';
import { and, eq, exists, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { groups, groupUsers } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { actingIn, type ActorInOrganization } from '../../platform/auth/organization';
import { forbidden, notFound } from '../../platform/http/errors';
import { definePolicy } from '../../platform/policy/define-policy';
import { actorActingOn, organizationRules } from '../organizations';

export type GroupRow = typeof groups.$inferSelect;

const manages = (actor: ActorInOrganization) => organizationRules.can(actor, 'manage_groups', actor.organization);

/** The groups of the actor's organization: all of them for who manages groups there, else those they are in. */
export const groupPolicy = definePolicy<GroupAction, GroupRow, ActorInOrganization>({
  actions: GROUP_ACTIONS,
  table: groups,
  id: groups.groupId,
  visibleTo(actor) {
    const inOrganization = eq(groups.organizationId, actor.organization.organizationId);
    if (manages(actor)) return inOrganization;
    const mine = exists(sql`(select 1 from ${groupUsers} where ${groupUsers.groupId} = ${groups.groupId} and ${groupUsers.userId} = ${actor.user.userId})`);
    return and(inOrganization, mine) as SQL;
  },
  can: (actor, action) => action === 'read' || manages(actor),
});

/** Creating a group in the organization the request acts in (organization_id, resolved by the guard). */
export function requireGroupCreation(actor: Actor, organizationId: number): ActorInOrganization {
  if (!actor.organization || actor.organization.organizationId !== organizationId) throw notFound();
  const acting = actingIn(actor, actor.organization);
  if (!manages(acting)) throw forbidden();
  return acting;
}

/**
 * The group, and the actor acting in its organization, if they may take `action` on it: 404 when the group
 * does not exist, its organization is not theirs, the request acts in another organization, or it is a group
 * a Member is not in; 403 for a Member's change. A request acting in an organization reads the group once.
 */
export async function requireGroup(db: Db | Tx, actor: Actor, groupId: number, action: GroupAction): Promise<{ group: GroupRow; actor: ActorInOrganization }> {
  const acting = await actorActingOn(db, actor, { table: groups, id: groups.groupId, organizationId: groups.organizationId }, groupId);
  return { group: await groupPolicy.require(db, acting, groupId, action), actor: acting };
}
