// Campaigns (spec part 2 §2 "Campaigns list", "Campaign detail", "Campaign users page"; §3; §5; §7
// "Campaigns"). Framework-free; routes.ts checks policy.ts first and passes the access it resolved.
import {
  CAMPAIGN_RESOURCES_PAGE_SIZE,
  CAMPAIGNS_PAGE_SIZE,
  campaignListQuery,
  campaignResourcesQuery,
  type CampaignListQuery,
  type CampaignResourcesQuery,
  type CampaignResourceType,
} from '@pluma/common/campaigns';
import { ErrorIds } from '@pluma/common/errors';
import { and, asc, count, desc, eq, ilike, notExists, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { campaignGroups, campaignResources, campaigns, campaignUsers, documents, files, groups, templates, userOrganizations, users } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError, notFound } from '../../platform/http/errors';
import { escapeLikePattern } from '../../platform/http/like-pattern';
import { storeUpload, type Upload } from '../files';
import type { OrganizationAccess } from '../organizations';
import { visibleCampaigns, type CampaignRow } from './policy';

export interface CampaignListRow {
  campaign: CampaignRow;
  owner: { name: string; lastName: string } | null;
  thumbnail: { fileId: number; type: string; publicName: string | null } | null;
}

const ORDER: Record<string, SQL[]> = {
  createdAt_desc: [desc(campaigns.createdAt), desc(campaigns.campaignId)],
  updatedAt_desc: [desc(campaigns.updatedAt), desc(campaigns.campaignId)],
  name_asc: [sql`lower(${campaigns.name}) asc`, asc(campaigns.campaignId)],
  name_desc: [sql`lower(${campaigns.name}) desc`, desc(campaigns.campaignId)],
};

function selectCampaigns(db: Db) {
  return db
    .select({
      campaign: campaigns,
      ownerName: users.name,
      ownerLastName: users.lastName,
      fileId: files.fileId,
      fileType: files.type,
      publicName: files.publicName,
    })
    .from(campaigns)
    .leftJoin(users, eq(users.userId, campaigns.userId))
    .leftJoin(files, eq(files.fileId, campaigns.thumbnailFileId));
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectCampaigns>['where']>>[number];
const toRow = (r: Selected): CampaignListRow => ({
  campaign: r.campaign,
  owner: r.ownerName !== null ? { name: r.ownerName, lastName: r.ownerLastName ?? '' } : null,
  thumbnail: r.fileId !== null && r.fileType !== null ? { fileId: r.fileId, type: r.fileType, publicName: r.publicName } : null,
});

/** GET /campaigns/organization/{orgId}query: the campaigns the actor sees there, `query` a part of the name. */
export async function listCampaigns({ db, actor, access, query }: { db: Db; actor: Actor; access: OrganizationAccess; query: CampaignListQuery }) {
  const q = campaignListQuery.parse(query);
  const filters: SQL[] = [visibleCampaigns(actor, access)];
  if (q.query) filters.push(ilike(campaigns.name, `%${escapeLikePattern(q.query)}%`));
  const where = and(...filters);
  const rows = await selectCampaigns(db)
    .where(where)
    .orderBy(...ORDER[q.sortBy])
    .limit(CAMPAIGNS_PAGE_SIZE)
    .offset((q.page - 1) * CAMPAIGNS_PAGE_SIZE);
  const [{ total }] = await db.select({ total: count() }).from(campaigns).where(where);
  return { rows: rows.map(toRow), total };
}

export async function readCampaign(db: Db, campaignId: number): Promise<CampaignListRow> {
  const [row] = await selectCampaigns(db).where(eq(campaigns.campaignId, campaignId)).limit(1);
  if (!row) throw notFound();
  return toRow(row);
}

/** The grants of a campaign (its users page): users by name with their role there, groups by name. */
export async function campaignGrants(db: Db, campaign: CampaignRow) {
  const grantedUsers = await db
    .select({ user_id: users.userId, name: users.name, last_name: users.lastName, email: users.email, user_type_id: userOrganizations.userTypeId })
    .from(campaignUsers)
    .innerJoin(users, eq(users.userId, campaignUsers.userId))
    .leftJoin(userOrganizations, and(eq(userOrganizations.userId, campaignUsers.userId), eq(userOrganizations.organizationId, campaign.organizationId)))
    .where(eq(campaignUsers.campaignId, campaign.campaignId))
    .orderBy(sql`lower(${users.name})`, asc(users.userId));
  const grantedGroups = await db
    .select({ group_id: groups.groupId, name: groups.name })
    .from(campaignGroups)
    .innerJoin(groups, eq(groups.groupId, campaignGroups.groupId))
    .where(eq(campaignGroups.campaignId, campaign.campaignId))
    .orderBy(sql`lower(${groups.name})`, asc(groups.groupId));
  return { users: grantedUsers, groups: grantedGroups };
}

async function storeThumbnail(ctx: AppContext, actor: Actor, upload: Upload | null): Promise<number | null> {
  if (!upload) return null;
  // Public images only (files: isPublic refuses anything else with 'file_public_images_only'): the card shows
  // it to everyone who sees the campaign, through an unguessable name.
  const file = await storeUpload({ ctx, actor, upload, isPublic: true });
  return file.fileId;
}

export async function createCampaign(options: {
  ctx: AppContext;
  actor: Actor;
  organizationId: number;
  input: { name: string; description: string };
  thumbnail: Upload | null;
}): Promise<CampaignRow> {
  const { ctx, actor, organizationId, input, thumbnail } = options;
  const thumbnailFileId = await storeThumbnail(ctx, actor, thumbnail);
  const [row] = await ctx.db
    .insert(campaigns)
    .values({ organizationId, userId: actor.user.userId, name: input.name, description: input.description, thumbnailFileId })
    .returning();
  return row;
}

export async function updateCampaign(options: {
  ctx: AppContext;
  actor: Actor;
  campaign: CampaignRow;
  input: { name: string; description?: string; remove_thumbnail?: boolean };
  thumbnail: Upload | null;
}): Promise<CampaignRow> {
  const { ctx, actor, campaign, input, thumbnail } = options;
  const set: Partial<typeof campaigns.$inferInsert> = { name: input.name, updatedAt: new Date() };
  if (input.description !== undefined) set.description = input.description;
  if (thumbnail) set.thumbnailFileId = await storeThumbnail(ctx, actor, thumbnail);
  else if (input.remove_thumbnail) set.thumbnailFileId = null;
  const [row] = await ctx.db.update(campaigns).set(set).where(eq(campaigns.campaignId, campaign.campaignId)).returning();
  return row;
}

/** DELETE /campaigns/campaign/{id}: the campaign, its links and grants (the documents and templates stay). */
export async function deleteCampaign({ db, campaignId }: { db: Db; campaignId: number }) {
  await db.delete(campaigns).where(eq(campaigns.campaignId, campaignId));
}

/** The live rows a resource link may point at: the organization's documents or templates (spec §3). */
function resourceSource(type: CampaignResourceType) {
  return type === 'document'
    ? { table: documents, id: documents.documentId, name: documents.name, organizationId: documents.organizationId, createdAt: documents.createdAt, updatedAt: documents.updatedAt }
    : { table: templates, id: templates.templateId, name: templates.name, organizationId: templates.organizationId, createdAt: templates.createdAt, updatedAt: templates.updatedAt };
}

/** GET /campaigns/{id}/resources: the campaign's documents or templates, by name, `query` a part of it. */
export async function listCampaignResources({ db, campaign, query }: { db: Db; campaign: CampaignRow; query: CampaignResourcesQuery }) {
  const q = campaignResourcesQuery.parse(query);
  const source = resourceSource(q.resources);
  const filters: SQL[] = [
    eq(campaignResources.campaignId, campaign.campaignId),
    eq(campaignResources.type, q.resources),
    // A resource moved out of the organization no longer shows (nor would it be added again).
    eq(source.organizationId, campaign.organizationId),
  ];
  if (q.query) filters.push(ilike(source.name, `%${escapeLikePattern(q.query)}%`));
  const where = and(...filters);
  const rows = await db
    .select({ resourceId: source.id, name: source.name, createdAt: source.createdAt, updatedAt: source.updatedAt })
    .from(campaignResources)
    .innerJoin(source.table, eq(source.id, campaignResources.resourceId))
    .where(where)
    .orderBy(sql`lower(${source.name})`, asc(source.id))
    .limit(CAMPAIGN_RESOURCES_PAGE_SIZE)
    .offset((q.page - 1) * CAMPAIGN_RESOURCES_PAGE_SIZE);
  const [{ total }] = await db.select({ total: count() }).from(campaignResources).innerJoin(source.table, eq(source.id, campaignResources.resourceId)).where(where);
  return {
    rows: rows.map((r) => ({
      resource_id: r.resourceId,
      campaign_id: campaign.campaignId,
      type: q.resources,
      name: r.name,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    })),
    total,
  };
}

/** The "Add" picker: the organization's documents or templates not yet in the campaign, by name (at most 100). */
export async function campaignCandidates({ db, campaign, type, query }: { db: Db; campaign: CampaignRow; type: CampaignResourceType; query?: string }) {
  const source = resourceSource(type);
  const filters: SQL[] = [
    eq(source.organizationId, campaign.organizationId),
    notExists(
      sql`(select 1 from ${campaignResources} where ${campaignResources.campaignId} = ${campaign.campaignId} and ${campaignResources.type} = ${type} and ${campaignResources.resourceId} = ${source.id})`,
    ),
  ];
  if (query) filters.push(ilike(source.name, `%${escapeLikePattern(query)}%`));
  const rows = await db
    .select({ resource_id: source.id, name: source.name })
    .from(source.table)
    .where(and(...filters))
    .orderBy(sql`lower(${source.name})`, asc(source.id))
    .limit(100);
  return rows.map((r) => ({ ...r, type }));
}

/**
 * POST (and PUT) /campaigns/campaign-resource/: links a document or template of the campaign's organization
 * (by any of its members: a campaign is how organization content is shared). 400 when there is no such
 * resource there; POST refuses a duplicate with 409, PUT keeps the existing link.
 */
export async function addCampaignResource(options: { db: Db; campaign: CampaignRow; type: CampaignResourceType; resourceId: number; idempotent: boolean }) {
  const { db, campaign, type, resourceId, idempotent } = options;
  const source = resourceSource(type);
  const [found] = await db
    .select({ id: source.id })
    .from(source.table)
    .where(and(eq(source.id, resourceId), eq(source.organizationId, campaign.organizationId)))
    .limit(1);
  if (!found) throw new AppError(400, ErrorIds.validation, 'campaign_resource_unknown', {}, { details: { resource_id: 'campaign_resource_unknown' } });
  const inserted = await db.insert(campaignResources).values({ campaignId: campaign.campaignId, resourceId, type }).onConflictDoNothing().returning();
  if (inserted.length === 0 && !idempotent) throw new AppError(409, ErrorIds.conflict, 'campaign_resource_exists');
  await touch(db, campaign.campaignId);
  return { created: inserted.length > 0 };
}

/** DELETE /campaigns/campaign-resource/{type}/{resource_id}/{campaign_id}: 404 when not linked. */
export async function removeCampaignResource({ db, campaign, type, resourceId }: { db: Db; campaign: CampaignRow; type: CampaignResourceType; resourceId: number }) {
  const removed = await db
    .delete(campaignResources)
    .where(and(eq(campaignResources.campaignId, campaign.campaignId), eq(campaignResources.type, type), eq(campaignResources.resourceId, resourceId)))
    .returning();
  if (removed.length === 0) throw notFound();
  await touch(db, campaign.campaignId);
}

const touch = (db: Db, campaignId: number) => db.update(campaigns).set({ updatedAt: new Date() }).where(eq(campaigns.campaignId, campaignId));

async function assertGrantee(db: Db, campaign: CampaignRow, target: { userId?: number; groupId?: number }) {
  if (target.userId !== undefined) {
    const [member] = await db
      .select({ id: userOrganizations.userOrganizationId })
      .from(userOrganizations)
      .where(and(eq(userOrganizations.organizationId, campaign.organizationId), eq(userOrganizations.userId, target.userId)))
      .limit(1);
    // Only the organization's members may be granted; anyone else is unknown here.
    if (!member) throw notFound();
  }
  if (target.groupId !== undefined) {
    const [group] = await db
      .select({ id: groups.groupId })
      .from(groups)
      .where(and(eq(groups.groupId, target.groupId), eq(groups.organizationId, campaign.organizationId)))
      .limit(1);
    if (!group) throw notFound();
  }
}

/** POST /campaigns/give-access/{campaign_id}: the user and/or group gain access; 409 when nothing was new. */
export async function giveCampaignAccess({ db, campaign, userId, groupId }: { db: Db; campaign: CampaignRow; userId?: number; groupId?: number }) {
  await assertGrantee(db, campaign, { userId, groupId });
  let added = 0;
  if (userId !== undefined) added += (await db.insert(campaignUsers).values({ campaignId: campaign.campaignId, userId }).onConflictDoNothing().returning()).length;
  if (groupId !== undefined) added += (await db.insert(campaignGroups).values({ campaignId: campaign.campaignId, groupId }).onConflictDoNothing().returning()).length;
  if (added === 0) throw new AppError(409, ErrorIds.conflict, 'campaign_access_exists');
}

/** POST /campaigns/revoke-access/{campaign_id}: 404 when none of the named grants existed. */
export async function revokeCampaignAccess({ db, campaign, userId, groupId }: { db: Db; campaign: CampaignRow; userId?: number; groupId?: number }) {
  let removed = 0;
  if (userId !== undefined) {
    removed += (await db.delete(campaignUsers).where(and(eq(campaignUsers.campaignId, campaign.campaignId), eq(campaignUsers.userId, userId))).returning()).length;
  }
  if (groupId !== undefined) {
    removed += (await db.delete(campaignGroups).where(and(eq(campaignGroups.campaignId, campaign.campaignId), eq(campaignGroups.groupId, groupId))).returning()).length;
  }
  if (removed === 0) throw notFound();
}

/** The users page's pickers: the organization's members and groups not granted yet, by name (at most 100 each). */
export async function campaignAccessCandidates({ db, campaign, query }: { db: Db; campaign: CampaignRow; query?: string }) {
  const pattern = query ? `%${escapeLikePattern(query)}%` : null;
  const userFilters: SQL[] = [
    eq(userOrganizations.organizationId, campaign.organizationId),
    notExists(sql`(select 1 from ${campaignUsers} where ${campaignUsers.campaignId} = ${campaign.campaignId} and ${campaignUsers.userId} = ${userOrganizations.userId})`),
  ];
  if (pattern) userFilters.push(sql`(${users.name} ilike ${pattern} or ${users.lastName} ilike ${pattern} or ${users.email} ilike ${pattern})`);
  const candidateUsers = await db
    .select({ user_id: users.userId, name: users.name, last_name: users.lastName, email: users.email, user_type_id: userOrganizations.userTypeId })
    .from(userOrganizations)
    .innerJoin(users, eq(users.userId, userOrganizations.userId))
    .where(and(...userFilters))
    .orderBy(sql`lower(${users.name})`, asc(users.userId))
    .limit(100);
  const groupFilters: SQL[] = [
    eq(groups.organizationId, campaign.organizationId),
    notExists(sql`(select 1 from ${campaignGroups} where ${campaignGroups.campaignId} = ${campaign.campaignId} and ${campaignGroups.groupId} = ${groups.groupId})`),
  ];
  if (pattern) groupFilters.push(ilike(groups.name, pattern));
  const candidateGroups = await db
    .select({ group_id: groups.groupId, name: groups.name })
    .from(groups)
    .where(and(...groupFilters))
    .orderBy(sql`lower(${groups.name})`, asc(groups.groupId))
    .limit(100);
  return { users: candidateUsers, groups: candidateGroups };
}
