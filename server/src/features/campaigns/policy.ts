// Who may see and do what with a campaign (spec part 2 §6; docs/decisions.md "Campaigns"). A campaign belongs
// to one organization; a stranger to it gets 404 (organizationAccess; staff admins act as its Admin).
// Inside it:
// - Admin: every campaign of the organization;
// - Manager: the ones they own plus the ones granted to them or to any group they are in;
// - Member: only the granted ones, read only (spec §6: "cannot create, edit or delete campaigns, resources
//   ... or add users");
// - staff (any staff role) who are members: every campaign, with the writes (spec §6 "Campaign menu: shown
//   to staff or any non-Member" — the menu is only offered where the server allows it).
// A campaign outside this scope is a 404 on every route; a visible one the role may not change is a 403.
import { CAMPAIGN_ACTIONS, type CampaignAction, type CampaignResourceType } from '@pluma/common/campaigns';
import { and, eq, exists, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { campaignGroups, campaignResources, campaigns, campaignUsers, groupUsers } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { forbidden, notFound } from '../../platform/http/errors';
import { organizationAccess, type OrganizationAccess } from '../organizations';

export type CampaignRow = typeof campaigns.$inferSelect;

type Who = Pick<Actor, 'user' | 'organization' | 'staffRole'>;

const seesAll = (actor: Who, access: OrganizationAccess) => access.role === 'admin' || actor.staffRole !== null;
const writes = (actor: Actor, access: OrganizationAccess) => access.role !== 'member' || actor.staffRole !== null;

/** The campaigns granted to the actor: to them, or to a group they are in. */
export function grantedTo(userId: number): SQL {
  return or(
    exists(sql`(select 1 from ${campaignUsers} where ${campaignUsers.campaignId} = ${campaigns.campaignId} and ${campaignUsers.userId} = ${userId})`),
    exists(
      sql`(select 1 from ${campaignGroups} join ${groupUsers} on ${groupUsers.groupId} = ${campaignGroups.groupId} where ${campaignGroups.campaignId} = ${campaigns.campaignId} and ${groupUsers.userId} = ${userId})`,
    ),
  ) as SQL;
}

/** The scope of every campaign query in an organization, for the actor's role there. */
export function visibleCampaigns(actor: Who, access: OrganizationAccess): SQL {
  const inOrganization = eq(campaigns.organizationId, access.organizationId);
  if (seesAll(actor, access)) return inOrganization;
  const userId = actor.user.userId;
  const scope = access.role === 'manager' ? or(eq(campaigns.userId, userId), grantedTo(userId)) : grantedTo(userId);
  return and(inOrganization, scope) as SQL;
}

/** Creating a campaign in the organization: Admins, Managers and staff (spec §6). */
export const canCreate = (actor: Actor, access: OrganizationAccess) => writes(actor, access);

export function can(actor: Actor, access: OrganizationAccess, action: CampaignAction): boolean {
  return action === 'read' || writes(actor, access);
}

export const campaignAbilitiesOf = (actor: Actor, access: OrganizationAccess) =>
  Object.fromEntries(CAMPAIGN_ACTIONS.map((a) => [a, can(actor, access, a)])) as Record<CampaignAction, boolean>;

/**
 * The campaign and the actor's access to its organization if they may take `action` on it: 404 when it does
 * not exist, its organization is not theirs, the request acts in another organization, or the role may not
 * see it; 403 for a change the role may not make.
 */
export async function requireCampaign(db: Db, actor: Actor, campaignId: number, action: CampaignAction): Promise<{ campaign: CampaignRow; access: OrganizationAccess }> {
  const [found] = await db.select({ organizationId: campaigns.organizationId }).from(campaigns).where(eq(campaigns.campaignId, campaignId)).limit(1);
  if (!found) throw notFound();
  // A record is visible only in its own context (DESIGN.md §7): a request in another organization misses it.
  if (actor.organization && actor.organization.organizationId !== found.organizationId) throw notFound();
  const access = await organizationAccess(db, actor, found.organizationId);
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.campaignId, campaignId), visibleCampaigns(actor, access)))
    .limit(1);
  if (!row) throw notFound();
  if (!can(actor, access, action)) throw forbidden();
  return { campaign: row, access };
}

/** The actor's access to organization `organizationId` for listing or creating there (404 for strangers). */
export async function campaignOrganization(db: Db, actor: Actor, organizationId: number): Promise<OrganizationAccess> {
  if (actor.organization && actor.organization.organizationId !== organizationId) throw notFound();
  return organizationAccess(db, actor, organizationId);
}

/**
 * For the documents and templates features: "this row is in a campaign the actor sees", as a SQL condition
 * on the row's id column (spec part 2 §2: a campaign's document opens at campaign/{campaignId}/documents/
 * {documentId}; a template links to its edit page). `campaignId` narrows it to one campaign. Needs the
 * actor's organization (the request's organization_id); in Personal nothing is shared this way.
 */
export function sharedThroughCampaigns(actor: Who, type: CampaignResourceType, resourceId: AnyColumn | SQL, campaignId?: number): SQL {
  const access = actor.organization;
  if (!access) return sql`false`;
  const oneCampaign = campaignId === undefined ? sql`` : sql` and ${campaigns.campaignId} = ${campaignId}`;
  return exists(
    sql`(select 1 from ${campaignResources} join ${campaigns} on ${campaigns.campaignId} = ${campaignResources.campaignId} where ${campaignResources.type} = ${type} and ${campaignResources.resourceId} = ${resourceId}${oneCampaign} and ${visibleCampaigns(actor, access)})`,
  );
}
