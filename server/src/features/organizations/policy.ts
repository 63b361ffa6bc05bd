// Who may do what in an organization (spec part 2 §6; docs/decisions.md "Organizations"). The role comes
// from the actor's membership, resolved like a request's organization_id (platform/auth/organization.ts):
// a stranger gets 404 — the organization does not exist for them — and staff admins act as its Admin.
// A member whose role lacks a right gets 403: they know the organization, but not this action.
import { ORGANIZATION_ROLES, type OrganizationRole } from '@pluma/common/constants';
import { ORGANIZATION_ACTIONS, type OrganizationAction } from '@pluma/common/organizations';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { organizations, userOrganizations } from '../../db/schema';
import type { Actor, OrganizationContext } from '../../platform/auth/actor';
import { forbidden, notFound } from '../../platform/http/errors';

/** The actor's standing in one organization: their role (staff admins: 'admin', asStaff). */
export type OrganizationAccess = OrganizationContext;

const ADMIN_ONLY: readonly OrganizationAction[] = ['update', 'delete', 'manage_users'];
const NON_MEMBERS: readonly OrganizationAction[] = ['view_users', 'manage_groups', 'view_analytics'];

/**
 * spec §6: a Member has no admin icons and no organization tabs; a Manager sees the admin panel and
 * creates and edits groups; the Admin alone adds, edits and removes users, and edits the settings.
 */
export function roleCan(role: OrganizationRole | null, action: OrganizationAction): boolean {
  if (role === null) return false;
  if (action === 'read') return true;
  if (ADMIN_ONLY.includes(action)) return role === 'admin';
  if (NON_MEMBERS.includes(action)) return role === 'admin' || role === 'manager';
  return false;
}

export const organizationAbilitiesOf = (role: OrganizationRole | null) =>
  Object.fromEntries(ORGANIZATION_ACTIONS.map((action) => [action, roleCan(role, action)])) as Record<OrganizationAction, boolean>;

/**
 * The actor's access to organization `organizationId` named in a path (the request's own when it named the
 * same one), or a 404 — the rules of platform/auth/organization.ts, but read-only: `last_use` is written when
 * a request acts in the organization (organization_id), not when a path names it, so a refused call
 * changes nothing.
 */
export async function organizationAccess(db: Db, actor: Actor, organizationId: number): Promise<OrganizationAccess> {
  if (actor.organization?.organizationId === organizationId) return actor.organization;
  const [row] = await db
    .select({ userTypeId: userOrganizations.userTypeId })
    .from(organizations)
    .leftJoin(userOrganizations, and(eq(userOrganizations.organizationId, organizations.organizationId), eq(userOrganizations.userId, actor.user.userId)))
    .where(eq(organizations.organizationId, organizationId))
    .limit(1);
  if (!row) throw notFound();
  if (row.userTypeId === null) {
    if (actor.staffRole === 'admin') return { organizationId, role: 'admin', asStaff: true };
    throw notFound();
  }
  const role = ORGANIZATION_ROLES[row.userTypeId as keyof typeof ORGANIZATION_ROLES];
  if (!role) throw notFound();
  return { organizationId, role, asStaff: false };
}

/** The access if the actor may take `action` there: 404 for strangers, 403 for a role without the right. */
export async function requireOrganization(db: Db, actor: Actor, organizationId: number, action: OrganizationAction): Promise<OrganizationAccess> {
  const access = await organizationAccess(db, actor, organizationId);
  if (!roleCan(access.role, action)) throw forbidden();
  return access;
}

/** For a request that named its organization in organization_id (the guard resolved it), or a 404. */
export function requireRequestOrganization(actor: Actor, organizationId: number, action: OrganizationAction): OrganizationAccess {
  const access = actor.organization;
  if (!access || access.organizationId !== organizationId) throw notFound();
  if (!roleCan(access.role, action)) throw forbidden();
  return access;
}
