// Who may see and do what with a campaign (spec part 2 §6; docs/decisions.md "Campaigns"). A campaign belongs
// to one organization; a stranger to it gets 404 (the membership rule, platform/auth/organization.ts; staff
// admins act as its Admin). Inside it:
// - Admin: every campaign of the organization;
// - Manager: the ones they own plus the ones granted to them or to any group they are in;
// - Member: only the granted ones, read only (spec §6: "cannot create, edit or delete campaigns, resources
//   ... or add users");
// - staff (any staff role) who are members: every campaign, with the writes (spec §6 "Campaign menu: shown
//   to staff or any non-Member" — the menu is only offered where the server allows it).
// A campaign outside this scope is a 404 on every route; a visible one the role may not change is a 403.
import { CAMPAIGN_ACTIONS, type CampaignAction, type CampaignResourceType } from '@pluma/common/campaigns';
import { and, eq, exists, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { campaignGroups, campaignResources, campaigns, campaignUsers, groupUsers } from '../../db/schema';
import type { Actor, OrganizationContext } from '../../platform/auth/actor';
import type { ActorInOrganization } from '../../platform/auth/organization';
import { forbidden } from '../../platform/http/errors';
import { definePolicy } from '../../platform/policy/define-policy';
import { actorActingOn } from '../organizations';

export type CampaignRow = typeof campaigns.$inferSelect;

/** Who the campaign scope needs: the user, their staff role and the organization they act in. */
type Who = Pick<Actor, 'user' | 'staffRole'> & { organization: OrganizationContext };

const seesAll = (actor: Who) => actor.organization.role === 'admin' || actor.staffRole !== null;

/** Whether the actor may change the campaigns they see in their organization (every write of campaignPolicy). */
export const writesCampaigns = (actor: Who) => actor.organization.role !== 'member' || actor.staffRole !== null;

/** The campaigns granted to the actor: to them, or to a group they are in. */
function grantedTo(userId: number): SQL {
  return or(
    exists(sql`(select 1 from ${campaignUsers} where ${campaignUsers.campaignId} = ${campaigns.campaignId} and ${campaignUsers.userId} = ${userId})`),
    exists(
      sql`(select 1 from ${campaignGroups} join ${groupUsers} on ${groupUsers.groupId} = ${campaignGroups.groupId} where ${campaignGroups.campaignId} = ${campaigns.campaignId} and ${groupUsers.userId} = ${userId})`,
    ),
  ) as SQL;
}

/** The scope of every campaign query in the actor's organization, for their role there. */
function visibleCampaigns(actor: Who): SQL {
  const inOrganization = eq(campaigns.organizationId, actor.organization.organizationId);
  if (seesAll(actor)) return inOrganization;
  const userId = actor.user.userId;
  const scope = actor.organization.role === 'manager' ? or(eq(campaigns.userId, userId), grantedTo(userId)) : grantedTo(userId);
  return and(inOrganization, scope) as SQL;
}

/** Campaigns, seen by an actor acting in their organization: read by all who see them, changed by who writes. */
export const campaignPolicy = definePolicy<CampaignAction, CampaignRow, Who>({
  actions: CAMPAIGN_ACTIONS,
  table: campaigns,
  id: campaigns.campaignId,
  visibleTo: visibleCampaigns,
  can: (actor, action) => action === 'read' || writesCampaigns(actor),
});

/** Creating a campaign in the organization: Admins, Managers and staff (spec §6); else 403. */
export function authorizeCreation(actor: ActorInOrganization): void {
  if (!writesCampaigns(actor)) throw forbidden();
}

/**
 * The campaign, and the actor acting in its organization, if they may take `action` on it: 404 when it does
 * not exist, its organization is not theirs, the request acts in another organization, or the role may not
 * see it; 403 for a change the role may not make. A request acting in an organization reads the campaign once.
 */
export async function requireCampaign(db: Db | Tx, actor: Actor, campaignId: number, action: CampaignAction): Promise<{ campaign: CampaignRow; actor: ActorInOrganization }> {
  const acting = await actorActingOn(db, actor, { table: campaigns, id: campaigns.campaignId, organizationId: campaigns.organizationId }, campaignId);
  return { campaign: await campaignPolicy.require(db, acting, campaignId, action), actor: acting };
}

/**
 * For the documents and templates features: "this row is in a campaign the actor sees", as a SQL condition
 * on the row's id column (spec part 2 §2: a campaign's document opens at campaign/{campaignId}/documents/
 * {documentId}; a template links to its edit page). `campaignId` narrows it to one campaign. Needs the
 * actor's organization (the request's organization_id); in Personal nothing is shared this way.
 */
export function sharedThroughCampaigns(actor: Pick<Actor, 'user' | 'organization' | 'staffRole'>, type: CampaignResourceType, resourceId: AnyColumn | SQL, campaignId?: number): SQL {
  const organization = actor.organization;
  if (!organization) return sql`false`;
  const oneCampaign = campaignId === undefined ? sql`` : sql` and ${campaigns.campaignId} = ${campaignId}`;
  return exists(
    sql`(select 1 from ${campaignResources} join ${campaigns} on ${campaigns.campaignId} = ${campaignResources.campaignId} where ${campaignResources.type} = ${type} and ${campaignResources.resourceId} = ${resourceId}${oneCampaign} and ${visibleCampaigns({ ...actor, organization })})`,
  );
}
