// Who may see and do what with a document (DESIGN.md §7; spec part 2 "Main navigation tabs": Documents are
// not in organization scope, except through campaigns).
// Personal: the author's documents with organization_id null. Inside an organization: only the author sees
// the documents they made there through the documents' own routes. A document a campaign links is reached
// through that campaign (requireCampaignDocument: the campaigns feature's sharedThroughCampaigns), read by
// whoever sees the campaign and edited by its author and by those who may change the campaign (Admins,
// Managers who see it, staff — spec part 2 §6; Members "cannot ... edit ... resources"). Anything else is a
// 404 on every route; a document seen through a campaign that the actor may not change is a 403.
import { DOCUMENT_ACTIONS, type DocumentAction } from '@pluma/common/documents';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { documents } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { forbidden, notFound } from '../../platform/http/errors';
import { abilitiesOf } from '../../platform/policy/abilities';
import { canOnCampaign, requireCampaign, sharedThroughCampaigns } from '../campaigns';

export type DocumentRow = typeof documents.$inferSelect;
/** A document as the actor reaches it; `campaignEditor`: read through a campaign the actor may change. */
export type DocumentInContext = DocumentRow & { campaignEditor?: boolean };

/** The scope of every list, read and write: the actor's own documents in the request's context. */
export function visibleTo(actor: Pick<Actor, 'user' | 'organization'>): SQL {
  const context = actor.organization ? eq(documents.organizationId, actor.organization.organizationId) : isNull(documents.organizationId);
  return and(eq(documents.userId, actor.user.userId), context) as SQL;
}

const isVisible = (actor: Actor, row: DocumentRow) =>
  row.userId === actor.user.userId && row.organizationId === (actor.organization?.organizationId ?? null);

export function can(actor: Actor, action: DocumentAction, row: DocumentInContext): boolean {
  switch (action) {
    case 'edit':
      return isVisible(actor, row) || row.campaignEditor === true;
    case 'delete':
    case 'export':
      return isVisible(actor, row);
  }
}

export const documentAbilities = (actor: Actor, row: DocumentInContext) => abilitiesOf(can, DOCUMENT_ACTIONS, actor, row);

/** The document if the actor sees it (404 otherwise) and may take `action` on it (403 otherwise). */
export async function requireDocument(db: Db | Tx, actor: Actor, documentId: number, action?: DocumentAction): Promise<DocumentRow> {
  const [row] = await db
    .select()
    .from(documents)
    .where(and(visibleTo(actor), eq(documents.documentId, documentId)))
    .limit(1);
  if (!row) throw notFound();
  if (action && !can(actor, action, row)) throw forbidden();
  return row;
}

/**
 * A document campaign `campaignId` links (spec part 2 §2 "Campaign document page"): 404 unless the actor sees
 * the campaign (requireCampaign) and the campaign, in the actor's organization, links this document of that
 * organization; with `action`, 403 unless `can` allows it — 'edit' for the author and for whoever may change
 * the campaign (the campaigns policy: Admins, Managers who see it, staff), never for a Member who is not the author.
 */
export async function requireCampaignDocument(db: Db, actor: Actor, documentId: number, campaignId: number, action?: DocumentAction): Promise<DocumentInContext> {
  const { access } = await requireCampaign(db, actor, campaignId, 'read');
  const [row] = await db
    .select()
    .from(documents)
    .where(
      and(
        eq(documents.documentId, documentId),
        eq(documents.organizationId, access.organizationId),
        sharedThroughCampaigns(actor, 'document', documents.documentId, campaignId),
      ),
    )
    .limit(1);
  if (!row) throw notFound();
  const found: DocumentInContext = { ...row, campaignEditor: canOnCampaign(actor, access, 'update') };
  if (action && !can(actor, action, found)) throw forbidden();
  return found;
}

/** The condition a write through campaign `campaignId` is scoped by (after requireCampaignDocument allowed it). */
export const inCampaign = (actor: Pick<Actor, 'user' | 'organization' | 'staffRole'>, campaignId: number): SQL =>
  sharedThroughCampaigns(actor, 'document', documents.documentId, campaignId);
