// Who may see and do what with a document (DESIGN.md §7; spec part 2 "Main navigation tabs": Documents are
// not in organization scope, except through campaigns).
// Personal: the author's documents with organization_id null. Inside an organization: only the author sees
// the documents they made there through the documents' own routes. A document a campaign links is reached
// through that campaign (requireCampaignDocument: the campaigns feature's sharedThroughCampaigns), read by
// whoever sees the campaign and edited by its author and by those who may change the campaign (Admins,
// Managers who see it, staff — spec part 2 §6; Members "cannot ... edit ... resources"). Anything else is a
// 404 on every route; a document seen through a campaign that the actor may not change is a 403.
import { DOCUMENT_ACTIONS, type DocumentAction } from '@pluma/common/documents';
import { and, eq, getTableColumns, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { documents } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { notFound } from '../../platform/http/errors';
import { definePolicy, isOwnInContext, ownInContext } from '../../platform/policy/define-policy';
import { sharedThroughCampaigns, writesCampaigns } from '../campaigns';

/** A document as services read it; its stored sort key (name_lower) is not read back. */
export type DocumentRow = Omit<typeof documents.$inferSelect, 'nameLower'>;

/** The columns of a DocumentRow (policy reads, and lists that select whole rows). */
export const documentColumns = (() => {
  const { nameLower: _key, ...columns } = getTableColumns(documents);
  return columns;
})();
/** A document as the actor reaches it; `campaignEditor`: read through a campaign the actor may change. */
export type DocumentInContext = DocumentRow & { campaignEditor?: boolean };

/**
 * The scope of every list, read and write: the actor's own documents in the request's context. A document
 * reached through a campaign the actor may change (`campaignEditor`) may be edited too.
 */
export const documentPolicy = definePolicy<DocumentAction, DocumentInContext>({
  actions: DOCUMENT_ACTIONS,
  table: documents,
  id: documents.documentId,
  columns: documentColumns,
  visibleTo: ownInContext(documents),
  can(actor, action, row) {
    switch (action) {
      case 'edit':
        return isOwnInContext(actor, row) || row.campaignEditor === true;
      case 'delete':
      case 'export':
        return isOwnInContext(actor, row);
    }
  },
});

/**
 * A document campaign `campaignId` links (spec part 2 §2 "Campaign document page"): 404 unless the actor, acting
 * in an organization (in Personal nothing is shared through campaigns), sees the campaign and the campaign links
 * this document of that organization — one query, the campaigns feature's scope (sharedThroughCampaigns); with
 * `action`, 403 unless `can` allows it — 'edit' for the author and for whoever may change the campaign (the
 * campaigns policy: Admins, Managers who see it, staff), never for a Member who is not the author.
 */
export async function requireCampaignDocument(db: Db, actor: Actor, documentId: number, campaignId: number, action?: DocumentAction): Promise<DocumentInContext> {
  const organization = actor.organization;
  if (!organization) throw notFound();
  const [row] = await db
    .select()
    .from(documents)
    .where(
      and(
        eq(documents.documentId, documentId),
        eq(documents.organizationId, organization.organizationId),
        sharedThroughCampaigns(actor, 'document', documents.documentId, campaignId),
      ),
    )
    .limit(1);
  if (!row) throw notFound();
  const found: DocumentInContext = { ...row, campaignEditor: writesCampaigns({ ...actor, organization }) };
  return action ? documentPolicy.authorize(actor, action, found) : found;
}

/** The condition a write through campaign `campaignId` is scoped by (after requireCampaignDocument allowed it). */
export const inCampaign = (actor: Pick<Actor, 'user' | 'organization' | 'staffRole'>, campaignId: number): SQL =>
  sharedThroughCampaigns(actor, 'document', documents.documentId, campaignId);
