// Who may do what in an organization (spec part 2 §6; docs/decisions.md "Organizations"). The role comes
// from the actor's membership by the one membership rule (platform/auth/organization.ts, which also resolves
// a request's organization_id): a stranger gets 404 — the organization does not exist for them — and staff
// admins act as its Admin. A member whose role lacks a right gets 403: they know the organization, but not
// this action.
import type { OrganizationRole } from '@pluma/common/constants';
import { ErrorIds } from '@pluma/common/errors';
import { ORGANIZATION_ACTIONS, type OrganizationAction } from '@pluma/common/organizations';
import { eq } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import type { Actor, OrganizationContext } from '../../platform/auth/actor';
import { actingIn, membershipIn, type ActorInOrganization } from '../../platform/auth/organization';
import { AppError, notFound } from '../../platform/http/errors';
import { defineRules } from '../../platform/policy/define-policy';

const ADMIN_ONLY: readonly OrganizationAction[] = ['update', 'delete', 'manage_users'];
const NON_MEMBERS: readonly OrganizationAction[] = ['view_users', 'manage_groups', 'view_analytics'];

/**
 * spec §6: a Member has no admin icons and no organization tabs; a Manager sees the admin panel and
 * creates and edits groups; the Admin alone adds, edits and removes users, and edits the settings.
 */
function roleCan(role: OrganizationRole | null, action: OrganizationAction, awaitingSecondFactor = false): boolean {
  if (role === null) return false;
  if (awaitingSecondFactor) return action === 'read';
  if (action === 'read') return true;
  if (ADMIN_ONLY.includes(action)) return role === 'admin';
  if (NON_MEMBERS.includes(action)) return role === 'admin' || role === 'manager';
  return false;
}

/**
 * The rules over the actor's standing in an organization (role null: they act there with none, e.g. a staff
 * manager reading the list of all organizations).
 */
const roleRules = defineRules<OrganizationAction, { role: OrganizationRole | null; awaitingSecondFactor?: boolean }>({
  actions: ORGANIZATION_ACTIONS,
  can: (_actor, action, standing) => roleCan(standing.role, action, standing.awaitingSecondFactor),
});

/**
 * The rules, and their refusal: an Admin whose organization requires a second factor they have not passed
 * (platform/auth/organization.ts) is told so (403 two_factor_required, as staff admins are), not just refused,
 * so the web can send them to Settings.
 */
export const organizationRules: typeof roleRules = {
  ...roleRules,
  authorize(actor, action, standing) {
    if (standing.awaitingSecondFactor && action !== 'read') throw new AppError(403, ErrorIds.twoFactorRequired, 'two_factor_required');
    return roleRules.authorize(actor, action, standing);
  },
};

/** The actor's access to organization `organizationId` named in a path, or a 404 (platform/auth/organization.ts). */
export const organizationAccess = (db: Db | Tx, actor: Actor, organizationId: number): Promise<OrganizationContext> => membershipIn(db, actor, organizationId);

/**
 * The actor acting in organization `organizationId` (a path names it) for the records kept there — groups,
 * campaigns: 404 for strangers, and when the request acts in another organization (DESIGN.md §7: a record is
 * visible only in its own context).
 */
export async function actorInOrganization(db: Db | Tx, actor: Actor, organizationId: number): Promise<ActorInOrganization> {
  if (actor.organization && actor.organization.organizationId !== organizationId) throw notFound();
  return actingIn(actor, await organizationAccess(db, actor, organizationId));
}

/** An organization's record (a group, a campaign): its table, id column and organization column. */
export interface OrganizationRecord {
  table: PgTable;
  id: AnyPgColumn;
  organizationId: AnyPgColumn;
}

/**
 * The actor acting in the organization of record `id`: the request's organization when it names one (the guard
 * resolved it; the record's policy then scopes the read to it), else the record's own, read once (404 when the
 * record does not exist or the actor is a stranger there).
 */
export async function actorActingOn(db: Db | Tx, actor: Actor, record: OrganizationRecord, id: number): Promise<ActorInOrganization> {
  if (actor.organization) return actingIn(actor, actor.organization);
  const [found] = await db.select({ organizationId: record.organizationId }).from(record.table).where(eq(record.id, id)).limit(1);
  if (!found) throw notFound();
  return actorInOrganization(db, actor, found.organizationId as number);
}

/** The access if the actor may take `action` there: 404 for strangers, 403 for a role without the right. */
export async function requireOrganization(db: Db | Tx, actor: Actor, organizationId: number, action: OrganizationAction): Promise<OrganizationContext> {
  const access = await organizationAccess(db, actor, organizationId);
  organizationRules.authorize(actor, action, access);
  return access;
}

/** For a request that named its organization in organization_id (the guard resolved it), or a 404. */
export function requireRequestOrganization(actor: Actor, organizationId: number, action: OrganizationAction): OrganizationContext {
  const access = actor.organization;
  if (!access || access.organizationId !== organizationId) throw notFound();
  organizationRules.authorize(actor, action, access);
  return access;
}
