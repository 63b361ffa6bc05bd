// Organizations (spec part 2 §2 "Organizations list", "Organization form"; §5; §7 "Organizations"): list,
// read, create, update the settings, delete. Framework-free: verbNoun({ actor, db, ... }), each operation
// authorizes through policy.ts (DESIGN.md §7). Who may do what: docs/decisions.md "Organizations".
import { isMaskedSecret } from '@pluma/common/appconfig';
import { isImageFileType, VIDEO_FILE_TYPES } from '@pluma/common/files';
import { ErrorIds } from '@pluma/common/errors';
import { ORGANIZATIONS_PAGE_SIZE, USER_TYPE_IDS, type CreateOrganizationRequest, type OrganizationListQuery, type UpdateOrganizationRequest } from '@pluma/common/organizations';
import { organizationListQuery } from '@pluma/common/organizations';
import { and, asc, count, eq, ilike, ne, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { files, organizations, products, purchases, userOrganizations } from '../../db/schema';
import { organizationCredentialsChanged } from '../../platform/ai/organization-keys';
import { stripeSettingsChanged } from '../payments';
import type { Actor } from '../../platform/auth/actor';
import { endSessionsOnRequiredDomains } from '../../platform/auth/end-domain-sessions';
import { invalidateUser } from '../../platform/auth/invalidation';
import { encryptSecret } from '../../platform/crypto/secret-box';
import { AppError, badRequest, notFound } from '../../platform/http/errors';
import { escapeLikePattern } from '../../platform/http/like-pattern';
import { organizationAccess, requireOrganization, requireRequestOrganization } from './policy';

export type OrganizationRow = typeof organizations.$inferSelect;
export interface OrganizationListRow {
  organization: OrganizationRow;
  /** The actor's membership role id, or null when they are not a member. */
  userTypeId: number | null;
  membersCount: number;
  thumbnail: { fileId: number; type: string; publicName: string | null } | null;
}

const membersCount = sql<number>`(select count(*) from user_organizations m where m.organization_id = ${organizations.organizationId})::int`;

function selectOrganizations(db: Db | Tx, actor: Actor) {
  return db
    .select({
      organization: organizations,
      userTypeId: userOrganizations.userTypeId,
      membersCount,
      thumbnail: { fileId: files.fileId, type: files.type, publicName: files.publicName },
    })
    .from(organizations)
    .leftJoin(userOrganizations, and(eq(userOrganizations.organizationId, organizations.organizationId), eq(userOrganizations.userId, actor.user.userId)))
    .leftJoin(files, eq(files.fileId, organizations.thumbnailFileId));
}

const normalize = (row: { organization: OrganizationRow; userTypeId: number | null; membersCount: number; thumbnail: OrganizationListRow['thumbnail'] }): OrganizationListRow => ({
  ...row,
  membersCount: Number(row.membersCount),
  thumbnail: row.thumbnail?.fileId ? row.thumbnail : null,
});

/**
 * GET /organizations (`scope` 'mine': the caller's, all of them for staff admins, theirs first) and GET
 * /organizations/admin/all ('all', staff): by name, 50 a page, `query` a part of the name.
 */
export async function listOrganizations({ db, actor, query, scope }: { db: Db; actor: Actor; query: OrganizationListQuery; scope: 'mine' | 'all' }) {
  const q = organizationListQuery.parse(query);
  const filters: SQL[] = [];
  if (q.query) filters.push(ilike(organizations.name, `%${escapeLikePattern(q.query)}%`));
  const everything = scope === 'all' || actor.staffRole === 'admin';
  if (!everything) filters.push(sql`${userOrganizations.userOrganizationId} is not null`);
  const where = filters.length > 0 ? and(...filters) : undefined;
  // A staff admin's own list holds every organization: theirs come first (the sidebar's picker lists them
  // before the rest), then by name. For everyone else every row is a membership, so the order is the name's.
  const membershipsFirst = everything && scope === 'mine' ? [sql`${userOrganizations.userOrganizationId} is null`] : [];
  const rows = await selectOrganizations(db, actor)
    .where(where)
    .orderBy(...membershipsFirst, sql`lower(${organizations.name})`, asc(organizations.organizationId))
    .limit(ORGANIZATIONS_PAGE_SIZE)
    .offset((q.page - 1) * ORGANIZATIONS_PAGE_SIZE);
  const [{ total }] = await db
    .select({ total: count() })
    .from(organizations)
    .leftJoin(userOrganizations, and(eq(userOrganizations.organizationId, organizations.organizationId), eq(userOrganizations.userId, actor.user.userId)))
    .where(where);
  return { rows: rows.map(normalize), total };
}

/** One organization as the actor sees it: 404 unless they are a member (or a staff admin). */
export async function readOrganization({ actor, db, organizationId }: { actor: Actor; db: Db | Tx; organizationId: number }): Promise<OrganizationListRow> {
  await organizationAccess(db, actor, organizationId);
  const [row] = await selectOrganizations(db, actor).where(eq(organizations.organizationId, organizationId)).limit(1);
  if (!row) throw notFound();
  return normalize(row);
}

async function assertUnique(db: Db | Tx, field: 'slug' | 'domain', value: string | null | undefined, exceptId?: number) {
  if (!value) return;
  const column = field === 'slug' ? organizations.slug : organizations.domain;
  const [taken] = await db
    .select({ id: organizations.organizationId })
    .from(organizations)
    .where(and(eq(column, value), exceptId ? ne(organizations.organizationId, exceptId) : undefined))
    .limit(1);
  if (taken) throw new AppError(409, ErrorIds.conflict, field === 'slug' ? 'organization_slug_taken' : 'organization_domain_taken');
}

/**
 * POST /organizations (staff, spec §6 "may create organizations"): the creator becomes its Admin. The form's
 * other fields (keys, thumbnail, welcome video) may come with it, checked as an update checks them.
 */
export async function createOrganization({ ctx, actor, input }: { ctx: AppContext; actor: Actor; input: CreateOrganizationRequest }): Promise<number> {
  const organizationId = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(organizations)
      .values({ name: input.name, createdBy: actor.user.userId })
      .returning();
    const set = await settingsChanges(ctx, tx, actor, created, input);
    await assertUnique(tx, 'slug', set.slug, created.organizationId);
    await assertUnique(tx, 'domain', set.domain, created.organizationId);
    await tx.update(organizations).set(set).where(eq(organizations.organizationId, created.organizationId));
    await tx.insert(userOrganizations).values({ organizationId: created.organizationId, userId: actor.user.userId, userTypeId: USER_TYPE_IDS.admin });
    return created.organizationId;
  });
  invalidateUser(actor.user.userId);
  return organizationId;
}

/** A file the actor uploaded (or the one already set), of the kind the field takes; else a 400. */
async function checkedFile(db: Db | Tx, actor: Actor, fileId: number, current: number | null, kind: 'thumbnail' | 'video') {
  const [file] = await db.select().from(files).where(eq(files.fileId, fileId)).limit(1);
  const mine = file && (file.userId === actor.user.userId || file.fileId === current);
  const fits = file && (kind === 'thumbnail' ? isImageFileType(file.type) && file.publicName !== null : (VIDEO_FILE_TYPES as readonly string[]).includes(file.type));
  if (!mine || !fits) {
    const key = kind === 'thumbnail' ? 'organization_thumbnail_invalid' : 'organization_video_invalid';
    const field = kind === 'thumbnail' ? 'thumbnail_file_id' : 'welcome_video_file_id';
    throw badRequest(key, { [field]: key });
  }
}

/** The stored form of a secret field: unchanged when absent or masked, null when cleared, else sealed. */
function sealedChange(ctx: AppContext, value: string | undefined): string | null | undefined {
  if (value === undefined || isMaskedSecret(value)) return undefined;
  return value === '' ? null : encryptSecret(ctx.env.APP_SECRET, value);
}

/** The columns the form's fields change on `current` (files checked; secrets sealed); fields left out stay. */
async function settingsChanges(ctx: AppContext, tx: Tx, actor: Actor, current: OrganizationRow, input: CreateOrganizationRequest) {
  const set: Partial<typeof organizations.$inferInsert> = { name: input.name };
  if (input.tagline !== undefined) set.tagline = input.tagline;
  if (input.slug !== undefined) set.slug = input.slug || null;
  if (input.domain !== undefined) set.domain = input.domain || null;
  if (input.stripe_public !== undefined) set.stripePublic = input.stripe_public || null;
  // Its own web search (issue 32): '' gives its members' searches back to the operator's provider.
  if (input.web_search_provider !== undefined) set.webSearchProvider = input.web_search_provider || null;
  if (input.web_search_url !== undefined) set.webSearchUrl = input.web_search_url || null;
  if (input.require_two_factor_admins !== undefined) {
    // Turning it on without having passed a second factor would lock the Admin out of this very form.
    if (input.require_two_factor_admins && !current.requireTwoFactorAdmins && actor.secondFactor !== true && actor.organization?.asStaff !== true) {
      throw new AppError(403, ErrorIds.twoFactorRequired, 'two_factor_required');
    }
    set.requireTwoFactorAdmins = input.require_two_factor_admins;
  }
  const sealed = {
    stripeSecretSealed: sealedChange(ctx, input.stripe_secret),
    stripeWebhookSecretSealed: sealedChange(ctx, input.stripe_webhook_secret),
    openaiApiKeySealed: sealedChange(ctx, input.openai_api_key),
    webSearchApiKeySealed: sealedChange(ctx, input.web_search_api_key),
  };
  for (const [field, value] of Object.entries(sealed)) if (value !== undefined) (set as Record<string, unknown>)[field] = value;
  if (input.thumbnail_file_id !== undefined) {
    if (input.thumbnail_file_id !== null) await checkedFile(tx, actor, input.thumbnail_file_id, current.thumbnailFileId, 'thumbnail');
    set.thumbnailFileId = input.thumbnail_file_id;
  }
  // The form's toggle: a video by upload or by URL; choosing one clears the other.
  if (input.welcome_video_file_id !== undefined && input.welcome_video_file_id !== null) {
    await checkedFile(tx, actor, input.welcome_video_file_id, current.welcomeVideoFileId, 'video');
    set.welcomeVideoFileId = input.welcome_video_file_id;
    set.welcomeVideoUrl = null;
  } else if (input.welcome_video_url) {
    set.welcomeVideoUrl = input.welcome_video_url;
    set.welcomeVideoFileId = null;
  } else {
    if (input.welcome_video_file_id === null) set.welcomeVideoFileId = null;
    if (input.welcome_video_url !== undefined) set.welcomeVideoUrl = null;
  }
  return set;
}

/**
 * POST /organizations/update: the settings form (spec §2 "Organization form"). Fields left out stay as
 * they are; returns the changed field names (the audit diff names them, never a secret's value).
 */
export async function updateOrganization({ ctx, actor, input }: { ctx: AppContext; actor: Actor; input: UpdateOrganizationRequest }): Promise<string[]> {
  const organizationId = requireRequestOrganization(actor, input.organization_id, 'update').organizationId;
  const changedFields = await ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(organizations).where(eq(organizations.organizationId, organizationId)).for('update');
    if (!current) throw notFound();
    const set = await settingsChanges(ctx, tx, actor, current, input);
    await assertUnique(tx, 'slug', set.slug, organizationId);
    await assertUnique(tx, 'domain', set.domain, organizationId);
    await tx.update(organizations).set({ ...set, updatedAt: new Date() }).where(eq(organizations.organizationId, organizationId));
    const changed = Object.keys(set).filter((field) => (current as Record<string, unknown>)[field] !== (set as Record<string, unknown>)[field]);
    return changed;
  });
  // Committed: AI calls in this organization use the new key (or the operator's) from now on.
  if (changedFields.includes('openaiApiKeySealed')) organizationCredentialsChanged(ctx, organizationId);
  // Payments in its scope use the new Stripe keys at once, not after the settings cache expires.
  if (changedFields.some((field) => field.startsWith('stripe'))) stripeSettingsChanged(ctx, organizationId);
  // A new domain while the organization requires SSO: the requirement now counts for that domain's accounts, so
  // the sessions they opened with a password end (as when it is switched on; nothing when SSO is not required).
  if (changedFields.includes('domain')) await endSessionsOnRequiredDomains(ctx.db, [organizationId]);
  return changedFields;
}

/**
 * DELETE /organizations/{id}, confirmed by the exact name (spec §5). Its memberships, groups,
 * conversations and messages go with it (foreign keys cascade); its files stay their owners' (back to
 * Personal); its products go unless sold: purchases are sales records, so an organization with any is
 * kept (409 organization_has_sales). Returns the members, whose default organization may have changed.
 */
export async function deleteOrganization({ actor, db, organizationId, confirmation }: { actor: Actor; db: Db; organizationId: number; confirmation: string | undefined }): Promise<number[]> {
  await requireOrganization(db, actor, organizationId, 'delete');
  const memberIds = await db.transaction(async (tx) => {
    const [current] = await tx.select().from(organizations).where(eq(organizations.organizationId, organizationId)).for('update');
    if (!current) throw notFound();
    if (confirmation !== current.name) throw badRequest('organization_name_mismatch', { name: 'organization_name_mismatch' });
    const [sold] = await tx
      .select({ id: purchases.purchaseId })
      .from(purchases)
      .leftJoin(products, eq(products.productId, purchases.productId))
      .where(sql`${purchases.organizationId} = ${organizationId} or ${products.organizationId} = ${organizationId}`)
      .limit(1);
    if (sold) throw new AppError(409, ErrorIds.conflict, 'organization_has_sales');
    const members = await tx.select({ userId: userOrganizations.userId }).from(userOrganizations).where(eq(userOrganizations.organizationId, organizationId));
    await tx.delete(products).where(eq(products.organizationId, organizationId));
    await tx.update(files).set({ organizationId: null }).where(eq(files.organizationId, organizationId));
    await tx.delete(organizations).where(eq(organizations.organizationId, organizationId));
    return members.map((m) => m.userId);
  });
  // Their presented user (default organization, memberships) changed.
  for (const userId of memberIds) invalidateUser(userId);
  return memberIds;
}

/** The stored welcome video of an organization, for its members (files are otherwise their owner's only); else a 404. */
export async function welcomeVideoFile({ actor, db, organizationId }: { actor: Actor; db: Db; organizationId: number }) {
  await organizationAccess(db, actor, organizationId);
  const [row] = await db
    .select({ file: files })
    .from(organizations)
    .innerJoin(files, eq(files.fileId, organizations.welcomeVideoFileId))
    .where(eq(organizations.organizationId, organizationId))
    .limit(1);
  if (!row) throw notFound();
  return row.file;
}
