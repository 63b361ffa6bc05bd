// The organization a request acts in (DESIGN.md §4, §7; spec part 2 §4: "When an organization is active,
// organization_id is attached to requests"). Resolved once per request, before validation, from the
// `organization_id` of its query or JSON body: the user's membership and role, or a 404 — a stranger must
// not learn that the organization exists. Staff admins may act in any organization, as its Admin (they
// create and oversee organizations, spec part 2 §6). Services read `actor.organization`, never the raw id.
import { ORGANIZATION_ROLES } from '@pluma/common/constants';
import { isDbId } from '@pluma/common/schema-kit';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { organizations, userOrganizations } from '../../db/schema';
import { badRequest, notFound } from '../http/errors';
import type { Actor, OrganizationContext } from './actor';

/** last_use is written at most this often per membership, so resolving stays a read. */
const LAST_USE_INTERVAL_MS = 60 * 60_000;

/** An organization_id as sent: a number (JSON) or a decimal string (query); absent, null or '' = Personal. */
function parseOrganizationId(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  const id = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  if (!isDbId(id)) throw badRequest('invalid_id', { organization_id: 'invalid_id' });
  return id;
}

/** The organization_id a request names in its query or JSON body; both must agree. */
export function requestedOrganizationId(request: Pick<FastifyRequest, 'query' | 'body'>): number | null {
  const fromQuery = parseOrganizationId((request.query as Record<string, unknown> | undefined)?.organization_id);
  const body = request.body;
  const fromBody = body && typeof body === 'object' && !Array.isArray(body) ? parseOrganizationId((body as Record<string, unknown>).organization_id) : null;
  if (fromQuery !== null && fromBody !== null && fromQuery !== fromBody) throw badRequest('invalid_id', { organization_id: 'invalid_id' });
  return fromBody ?? fromQuery;
}

/**
 * The one membership rule (DESIGN.md §7): the role a membership's user_type_id gives (1 Admin, 2 Manager,
 * 3 Member); without a membership a staff admin acts as the organization's Admin; anyone else gets null —
 * a stranger, who is told the organization does not exist (404).
 */
export function standingIn(actor: Pick<Actor, 'staffRole'>, organizationId: number, userTypeId: number | null): OrganizationContext | null {
  if (userTypeId === null) return actor.staffRole === 'admin' ? { organizationId, role: 'admin', asStaff: true } : null;
  const role = ORGANIZATION_ROLES[userTypeId as keyof typeof ORGANIZATION_ROLES];
  return role ? { organizationId, role, asStaff: false } : null;
}

/**
 * Issue 33: an Admin of an organization that requires a second factor of its Admins, whose sign-in has not
 * passed one, acts there as a Member until they do — every policy that reads the role (products, campaigns,
 * the organization's own) refuses what an Admin alone may do — and `awaitingSecondFactor` lets the
 * organization's policy say two_factor_required. Staff acting as its Admin are not concerned (they pass a
 * second factor for /admin). The presenter's abilities use the same rule, so they offer what the server allows.
 */
export function underSecondFactorRule(actor: Pick<Actor, 'secondFactor'>, standing: OrganizationContext, requireTwoFactorAdmins: boolean): OrganizationContext {
  const awaiting = requireTwoFactorAdmins && standing.role === 'admin' && !standing.asStaff && actor.secondFactor !== true;
  return awaiting ? { ...standing, role: 'member', awaitingSecondFactor: true } : standing;
}

/**
 * The actor's role in the organization, or a 404 when they may not act in it; `lastUseDue` names the
 * membership whose last_use is due, written by the guard once the request has succeeded (guard.ts), so a
 * refused request changes nothing. Read-only.
 */
export async function resolveMembership(db: Db | Tx, actor: Actor, organizationId: number): Promise<{ context: OrganizationContext; lastUseDue: number | null }> {
  const [row] = await db
    .select({
      userTypeId: userOrganizations.userTypeId,
      lastUse: userOrganizations.lastUse,
      membershipId: userOrganizations.userOrganizationId,
      requireTwoFactorAdmins: organizations.requireTwoFactorAdmins,
    })
    .from(organizations)
    .leftJoin(userOrganizations, and(eq(userOrganizations.organizationId, organizations.organizationId), eq(userOrganizations.userId, actor.user.userId)))
    .where(eq(organizations.organizationId, organizationId))
    .limit(1);
  if (!row) throw notFound();
  const standing = standingIn(actor, organizationId, row.membershipId === null ? null : row.userTypeId);
  if (!standing) throw notFound();
  const context = underSecondFactorRule(actor, standing, row.requireTwoFactorAdmins);
  const due = row.membershipId !== null && (!row.lastUse || Date.now() - row.lastUse.getTime() > LAST_USE_INTERVAL_MS);
  return { context, lastUseDue: due ? row.membershipId : null };
}

/**
 * The actor's standing in organization `organizationId` (a path names it): the request's own when it acts in
 * the same one, else resolved by the rule above, read-only — last_use is written when a request acts in the
 * organization (organization_id), not when a path names it, so a refused call changes nothing.
 */
export async function membershipIn(db: Db | Tx, actor: Actor, organizationId: number): Promise<OrganizationContext> {
  if (actor.organization?.organizationId === organizationId) return actor.organization;
  return (await resolveMembership(db, actor, organizationId)).context;
}

/** Records that a membership was used now (at most once an hour per membership, resolveMembership decides). */
export async function touchLastUse(db: Db, membershipId: number): Promise<void> {
  await db.update(userOrganizations).set({ lastUse: sql`now()` }).where(eq(userOrganizations.userOrganizationId, membershipId));
}

/** The actor's role in the organization, or a 404; writes a due last_use at once (for callers outside a request). */
export async function resolveOrganization(db: Db, actor: Actor, organizationId: number): Promise<OrganizationContext> {
  const { context, lastUseDue } = await resolveMembership(db, actor, organizationId);
  if (lastUseDue !== null) await touchLastUse(db, lastUseDue);
  return context;
}

/** The actor of this request in the organization it names (or Personal), and the membership whose last_use is due. */
export async function actorInRequestedOrganization(
  db: Db,
  actor: Actor,
  request: Pick<FastifyRequest, 'query' | 'body'>,
): Promise<{ actor: Actor; lastUseDue: number | null }> {
  const organizationId = requestedOrganizationId(request);
  if (organizationId === null) return { actor, lastUseDue: null };
  const { context, lastUseDue } = await resolveMembership(db, actor, organizationId);
  return { actor: Object.freeze({ ...actor, organization: context }), lastUseDue };
}

/** An actor acting in one organization, their standing there resolved (what organization-scoped policies read). */
export type ActorInOrganization = Actor & { organization: OrganizationContext };

/** The actor acting in the organization of `context` (the request's, or one a path named). */
export const actingIn = (actor: Actor, context: OrganizationContext): ActorInOrganization =>
  actor.organization === context ? (actor as ActorInOrganization) : Object.freeze({ ...actor, organization: context });
