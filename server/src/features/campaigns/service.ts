// Campaigns (spec part 2 §2 "Campaigns list", "Campaign detail", "Campaign users page"; §3; §5; §7
// "Campaigns"). Framework-free: verbNoun({ actor, db, ... }), each operation authorizes through policy.ts and
// returns campaigns with the actor acting in their organization (what the presenter's abilities read).
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
import { and, asc, count, eq, ilike, notExists, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { countColumn, LIST_TOTAL_CAP, pageTotal, planCount, SEARCH_TOTAL_CAP, totalFrom } from '../../db/capped-count';
import { containsText, loweredContainsText } from '../../db/contains-text';
import { after, keyText, nextPageCursor, planPage, readPage, type PageOrder } from '../../db/page-cursor';
import type { Db, Tx } from '../../db/client';
import { campaignGroups, campaignResources, campaigns, campaignUsers, documents, files, groups, templates, userOrganizations, users } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError, badRequest, notFound } from '../../platform/http/errors';
import { escapeLikePattern } from '../../platform/http/like-pattern';
import { storeUpload, type Upload } from '../files';
import { actorInOrganization } from '../organizations';
import { authorizeCreation, campaignPolicy, requireCampaign, type CampaignRow } from './policy';

export interface CampaignListRow {
  campaign: CampaignRow;
  owner: { name: string; lastName: string } | null;
  thumbnail: { fileId: number; type: string; publicName: string | null } | null;
}

/** The four sorts (spec §9) as campaigns_org_*_idx have them (the organization, the key, the id). */
const ORDER: Record<string, PageOrder> = {
  createdAt_desc: { key: sql`${campaigns.createdAt}`, id: campaigns.campaignId, direction: 'desc', type: 'timestamptz' },
  updatedAt_desc: { key: sql`${campaigns.updatedAt}`, id: campaigns.campaignId, direction: 'desc', type: 'timestamptz' },
  name_asc: { key: sql`lower(${campaigns.name})`, id: campaigns.campaignId, direction: 'asc', type: 'text' },
  name_desc: { key: sql`lower(${campaigns.name})`, id: campaigns.campaignId, direction: 'desc', type: 'text' },
};

const campaignColumns = {
  campaign: campaigns,
  ownerName: users.name,
  ownerLastName: users.lastName,
  fileId: files.fileId,
  fileType: files.type,
  publicName: files.publicName,
};

function selectCampaigns(db: Db) {
  return db
    .select(campaignColumns)
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
export async function listCampaigns({ actor, db, organizationId, query }: { actor: Actor; db: Db; organizationId: number; query: CampaignListQuery }) {
  const acting = await actorInOrganization(db, actor, organizationId);
  const q = campaignListQuery.parse(query);
  const filters: SQL[] = [campaignPolicy.visibleTo(acting)];
  if (q.query) filters.push(containsText(campaigns.name, q.query));
  const where = and(...filters);
  const offset = (q.page - 1) * CAMPAIGNS_PAGE_SIZE;
  const order = ORDER[q.sortBy];
  const scope = ['campaigns', acting.user.userId, organizationId, q.sortBy, q.query ?? ''];
  const cap = q.query ? SEARCH_TOTAL_CAP : LIST_TOTAL_CAP;
  const plan = planPage({ table: campaigns, order, where, offset, pageSize: CAMPAIGNS_PAGE_SIZE, cursor: q.cursor, scope, search: q.query ? { cap } : undefined });
  const rows = await readPage(
    db
      .with(...plan.with)
      .select({ ...campaignColumns, sortKey: keyText(order), matches: planCount(campaigns, plan, cap) })
      .from(campaigns)
      .leftJoin(users, eq(users.userId, campaigns.userId))
      .leftJoin(files, eq(files.fileId, campaigns.thumbnailFileId))
      .$dynamic(),
    plan,
    order,
  ).limit(CAMPAIGNS_PAGE_SIZE);
  const last = rows.at(-1);
  const total = await pageTotal(db, true, last?.matches, {
    table: campaigns,
    where,
    offset,
    pageSize: CAMPAIGNS_PAGE_SIZE,
    pageRows: rows.length,
    cap,
    after: last ? after(order, { value: last.sortKey, id: last.campaign.campaignId }) : undefined,
  });
  const nextCursor = nextPageCursor(scope, offset, CAMPAIGNS_PAGE_SIZE, rows.map((r) => ({ sortKey: r.sortKey, id: r.campaign.campaignId })));
  return { rows: rows.map(toRow), total, nextCursor, actor: acting };
}

/** The campaign with its owner and thumbnail, as lists show it (after the caller's authorization). */
async function listRowOf(db: Db, campaignId: number): Promise<CampaignListRow> {
  const [row] = await selectCampaigns(db).where(eq(campaigns.campaignId, campaignId)).limit(1);
  if (!row) throw notFound();
  return toRow(row);
}

/** GET /campaigns/{id}: the campaign with its grants (its users page). */
export async function readCampaign({ actor, db, campaignId }: { actor: Actor; db: Db; campaignId: number }) {
  const { campaign, actor: acting } = await requireCampaign(db, actor, campaignId, 'read');
  return { campaign: await listRowOf(db, campaign.campaignId), grants: await grantsOf(db, campaign), actor: acting };
}

export type CampaignGrants = Awaited<ReturnType<typeof grantsOf>>;

/** The grants of a campaign (its users page): users by name with their role there, groups by name. */
async function grantsOf(db: Db, campaign: CampaignRow) {
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

/** POST /campaigns: in an organization where the actor may write campaigns (Admins, Managers, staff). */
export async function createCampaign(options: {
  ctx: AppContext;
  actor: Actor;
  organizationId: number;
  input: { name: string; description: string };
  thumbnail: Upload | null;
}) {
  const { ctx, actor, organizationId, input, thumbnail } = options;
  const acting = await actorInOrganization(ctx.db, actor, organizationId);
  authorizeCreation(acting);
  const thumbnailFileId = await storeThumbnail(ctx, actor, thumbnail);
  const [row] = await ctx.db
    .insert(campaigns)
    .values({ organizationId, userId: actor.user.userId, name: input.name, description: input.description, thumbnailFileId })
    .returning();
  return { campaign: await listRowOf(ctx.db, row.campaignId), actor: acting };
}

/** PUT /campaigns: the name, description and thumbnail; `previousName` for the audit. */
export async function updateCampaign(options: {
  ctx: AppContext;
  actor: Actor;
  input: { campaign_id: number; organization_id?: number; name: string; description?: string; remove_thumbnail?: boolean };
  thumbnail: Upload | null;
}) {
  const { ctx, actor, input, thumbnail } = options;
  const { campaign, actor: acting } = await requireCampaign(ctx.db, actor, input.campaign_id, 'update');
  // A campaign stays in its organization: naming another one is refused.
  if (input.organization_id !== undefined && input.organization_id !== campaign.organizationId) throw badRequest('campaign_organization_required');
  const set: Partial<typeof campaigns.$inferInsert> = { name: input.name, updatedAt: new Date() };
  if (input.description !== undefined) set.description = input.description;
  if (thumbnail) set.thumbnailFileId = await storeThumbnail(ctx, actor, thumbnail);
  else if (input.remove_thumbnail) set.thumbnailFileId = null;
  const [row] = await ctx.db.update(campaigns).set(set).where(eq(campaigns.campaignId, campaign.campaignId)).returning();
  return { campaign: await listRowOf(ctx.db, row.campaignId), previousName: campaign.name, actor: acting };
}

/** DELETE /campaigns/campaign/{id}: the campaign, its links and grants (the documents and templates stay). Returns it. */
export async function deleteCampaign({ actor, db, campaignId }: { actor: Actor; db: Db; campaignId: number }): Promise<CampaignRow> {
  const { campaign } = await requireCampaign(db, actor, campaignId, 'delete');
  await db.delete(campaigns).where(eq(campaigns.campaignId, campaign.campaignId));
  return campaign;
}

/** The live rows a resource link may point at: the organization's documents or templates (spec §3). */
function resourceSource(type: CampaignResourceType) {
  // `nameKey`: the lowered name the pages sort and search by (documents store it: documents.name_lower).
  return type === 'document'
    ? { table: documents, id: documents.documentId, name: documents.name, nameKey: sql`${documents.nameLower}`, organizationId: documents.organizationId, createdAt: documents.createdAt, updatedAt: documents.updatedAt }
    : { table: templates, id: templates.templateId, name: templates.name, nameKey: sql`lower(${templates.name})`, organizationId: templates.organizationId, createdAt: templates.createdAt, updatedAt: templates.updatedAt };
}

/** GET /campaigns/{id}/resources: the campaign's documents or templates, by name, `query` a part of it. */
export async function listCampaignResources({ actor, db, campaignId, query }: { actor: Actor; db: Db; campaignId: number; query: CampaignResourcesQuery }) {
  const { campaign } = await requireCampaign(db, actor, campaignId, 'read');
  const q = campaignResourcesQuery.parse(query);
  const source = resourceSource(q.resources);
  const links = and(eq(campaignResources.campaignId, campaign.campaignId), eq(campaignResources.type, q.resources));
  const filters: SQL[] = [
    links as SQL,
    // A resource moved out of the organization no longer shows (its links go too: migration 0042's triggers).
    eq(source.organizationId, campaign.organizationId),
  ];
  if (q.query) filters.push(loweredContainsText(source.nameKey, q.query));
  const where = and(...filters);
  const offset = (q.page - 1) * CAMPAIGN_RESOURCES_PAGE_SIZE;
  const cap = offset + (q.query ? SEARCH_TOTAL_CAP : LIST_TOTAL_CAP);
  // The total as the other lists have it (capped-count.ts), counted in the page's own query up to offset + the
  // cap. Without a search, from the campaign's links alone (an index-only read): a link lives only while its
  // resource does, in the campaign's organization (migration 0042's triggers), so none is joined to its resource.
  const counted = q.query
    ? { table: sql`${campaignResources} inner join ${source.table} on ${eq(source.id, campaignResources.resourceId)}`, where }
    : { table: campaignResources, where: links };
  const rows = await db
    .select({ resourceId: source.id, name: source.name, createdAt: source.createdAt, updatedAt: source.updatedAt, matches: countColumn(counted.table, counted.where, cap) })
    .from(campaignResources)
    .innerJoin(source.table, eq(source.id, campaignResources.resourceId))
    .where(where)
    .orderBy(source.nameKey, asc(source.id))
    .limit(CAMPAIGN_RESOURCES_PAGE_SIZE)
    .offset(offset);
  // An empty page past the start says no count: read it alone.
  const matches = rows.at(0)?.matches ?? (offset === 0 ? 0 : (await db.select({ n: countColumn(counted.table, counted.where, cap) }).from(sql`(select 1) one`))[0].n);
  const total = totalFrom(0, cap, matches);
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
export async function campaignCandidates({ actor, db, campaignId, type, query }: { actor: Actor; db: Db; campaignId: number; type: CampaignResourceType; query?: string }) {
  const { campaign } = await requireCampaign(db, actor, campaignId, 'manage_resources');
  const source = resourceSource(type);
  const filters: SQL[] = [
    eq(source.organizationId, campaign.organizationId),
    notExists(
      sql`(select 1 from ${campaignResources} where ${campaignResources.campaignId} = ${campaign.campaignId} and ${campaignResources.type} = ${type} and ${campaignResources.resourceId} = ${source.id})`,
    ),
  ];
  if (query) filters.push(loweredContainsText(source.nameKey, query));
  const rows = await db
    .select({ resource_id: source.id, name: source.name })
    .from(source.table)
    .where(and(...filters))
    .orderBy(source.nameKey, asc(source.id))
    .limit(100);
  const [{ total }] = await db.select({ total: count() }).from(source.table).where(eq(source.organizationId, campaign.organizationId));
  return { resources: rows.map((r) => ({ ...r, type })), organization_total: total };
}

/**
 * POST /campaigns/{id}/documents (issue 30 item 17): whoever may add resources makes a new, empty document
 * named `name` in the campaign's organization (it is theirs, like any document they write there) and adds it
 * to the campaign, in one transaction — the organization's Documents tab is hidden (spec part 2 §2), so the
 * campaign is where its documents are made.
 */
export async function createCampaignDocument({ actor, db, campaignId, name }: { actor: Actor; db: Db; campaignId: number; name: string }) {
  const { campaign } = await requireCampaign(db, actor, campaignId, 'manage_resources');
  return db.transaction(async (tx) => {
    const [document] = await tx
      .insert(documents)
      .values({ userId: actor.user.userId, organizationId: campaign.organizationId, name })
      .returning({ documentId: documents.documentId, name: documents.name });
    await tx.insert(campaignResources).values({ campaignId: campaign.campaignId, resourceId: document.documentId, type: 'document' });
    await touch(tx, campaign.campaignId);
    return { resource_id: document.documentId, campaign_id: campaign.campaignId, type: 'document' as const, name: document.name };
  });
}

/**
 * POST (and PUT) /campaigns/campaign-resource/: links a document or template of the campaign's organization
 * (by any of its members: a campaign is how organization content is shared). 400 when there is no such
 * resource there; POST refuses a duplicate with 409, PUT keeps the existing link.
 */
export async function addCampaignResource(options: { actor: Actor; db: Db; campaignId: number; type: CampaignResourceType; resourceId: number; idempotent: boolean }) {
  const { actor, db, campaignId, type, resourceId, idempotent } = options;
  const { campaign } = await requireCampaign(db, actor, campaignId, 'manage_resources');
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
export async function removeCampaignResource({ actor, db, campaignId, type, resourceId }: { actor: Actor; db: Db; campaignId: number; type: CampaignResourceType; resourceId: number }) {
  const { campaign } = await requireCampaign(db, actor, campaignId, 'manage_resources');
  const removed = await db
    .delete(campaignResources)
    .where(and(eq(campaignResources.campaignId, campaign.campaignId), eq(campaignResources.type, type), eq(campaignResources.resourceId, resourceId)))
    .returning();
  if (removed.length === 0) throw notFound();
  await touch(db, campaign.campaignId);
}

const touch = (db: Db | Tx, campaignId: number) => db.update(campaigns).set({ updatedAt: new Date() }).where(eq(campaigns.campaignId, campaignId));

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
export async function giveCampaignAccess({ actor, db, campaignId, userId, groupId }: { actor: Actor; db: Db; campaignId: number; userId?: number; groupId?: number }) {
  const { campaign } = await requireCampaign(db, actor, campaignId, 'manage_access');
  await assertGrantee(db, campaign, { userId, groupId });
  let added = 0;
  if (userId !== undefined) added += (await db.insert(campaignUsers).values({ campaignId: campaign.campaignId, userId }).onConflictDoNothing().returning()).length;
  if (groupId !== undefined) added += (await db.insert(campaignGroups).values({ campaignId: campaign.campaignId, groupId }).onConflictDoNothing().returning()).length;
  if (added === 0) throw new AppError(409, ErrorIds.conflict, 'campaign_access_exists');
}

/** POST /campaigns/revoke-access/{campaign_id}: 404 when none of the named grants existed. */
export async function revokeCampaignAccess({ actor, db, campaignId, userId, groupId }: { actor: Actor; db: Db; campaignId: number; userId?: number; groupId?: number }) {
  const { campaign } = await requireCampaign(db, actor, campaignId, 'manage_access');
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
export async function campaignAccessCandidates({ actor, db, campaignId, query }: { actor: Actor; db: Db; campaignId: number; query?: string }) {
  const { campaign } = await requireCampaign(db, actor, campaignId, 'manage_access');
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
