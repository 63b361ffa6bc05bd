// Document operations (spec part 2 §2 "Documents and editor", §5 "Document save", §7 "Documents"),
// framework-free: verbNoun({ actor, db, ... }) (DESIGN.md §7). Every read and write is scoped by policy.ts.
import {
  DOCUMENT_CONTENT_LIMIT,
  DOCUMENTS_PAGE_SIZE,
  type CreateDocumentRequest,
  type DocumentBlock,
  type DocumentSortKey,
  type UpdateDocumentRequest,
} from '@pluma/common/documents';
import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import { LIST_TOTAL_CAP, pageTotal, planCount, SEARCH_TOTAL_CAP, type CappedTotal } from '../../db/capped-count';
import { containsText, loweredContainsText } from '../../db/contains-text';
import { after, keyText, nextPageCursor, planPage, readPage, type PageOrder } from '../../db/page-cursor';
import type { Db } from '../../db/client';
import { documents } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { badRequest, notFound } from '../../platform/http/errors';
import { documentPolicy, inCampaign, requireCampaignDocument, type DocumentInContext } from './policy';
import type { SummaryRow } from './present';
import { plainTextOf, sanitizeBlocks, sanitizeDocumentHtml } from './sanitize';

export interface Scope {
  actor: Actor;
  db: Db;
}

/** Each sort as an index has it (documents_user_org_*_idx: the context, the key, the id). */
function orderOf(sortBy: DocumentSortKey): PageOrder {
  const context = [documents.userId, documents.organizationId];
  switch (sortBy) {
    case 'createdAt_desc':
      return { context, key: sql`${documents.createdAt}`, id: documents.documentId, direction: 'desc', type: 'timestamptz' };
    case 'updatedAt_desc':
      return { context, key: sql`${documents.updatedAt}`, id: documents.documentId, direction: 'desc', type: 'timestamptz' };
    case 'name_asc':
      return { context, key: sql`${documents.nameLower}`, id: documents.documentId, direction: 'asc', type: 'text' };
    case 'name_desc':
      return { context, key: sql`${documents.nameLower}`, id: documents.documentId, direction: 'desc', type: 'text' };
  }
}

export interface ListOptions {
  query?: string;
  sortBy: DocumentSortKey;
  page: number;
  /** The previous page's next_cursor (page-cursor.ts). */
  cursor?: string;
}

/** GET /documents: the actor's documents in this context, searched by name and text, 24 per page. */
export async function listDocuments({
  actor,
  db,
  options,
}: Scope & { options: ListOptions }): Promise<{ rows: SummaryRow[]; total: CappedTotal; page: number; pageSize: number; next_cursor: string | null }> {
  const filters: SQL[] = [documentPolicy.visibleTo(actor)];
  if (options.query) {
    // Both have a trigram index (documents_name_lower_trgm_idx, documents_lower_plain_text_trgm_idx).
    filters.push(or(loweredContainsText(documents.nameLower, options.query), containsText(documents.plainText, options.query)) as SQL);
  }
  const where = and(...filters);
  const offset = (options.page - 1) * DOCUMENTS_PAGE_SIZE;
  const order = orderOf(options.sortBy);
  const scope = ['documents', actor.user.userId, actor.organization?.organizationId ?? null, options.sortBy, options.query ?? ''];
  const cap = options.query ? SEARCH_TOTAL_CAP : LIST_TOTAL_CAP;
  const search = options.query ? { cap } : undefined;
  const plan = planPage({ table: documents, order, where, offset, pageSize: DOCUMENTS_PAGE_SIZE, cursor: options.cursor, scope, search });
  const found = await readPage(
    db
      .with(...plan.with)
      .select({
        documentId: documents.documentId,
        userId: documents.userId,
        organizationId: documents.organizationId,
        name: documents.name,
        tags: documents.tags,
        createdAt: documents.createdAt,
        updatedAt: documents.updatedAt,
        excerpt: sql<string>`left(${documents.plainText}, 160)`,
        characters: sql<number>`length(${documents.plainText})`,
        sortKey: keyText(order),
        matches: planCount(documents, plan, cap),
      })
      .from(documents)
      .$dynamic(),
    plan,
    order,
  ).limit(DOCUMENTS_PAGE_SIZE);
  const last = found.at(-1);
  const total = await pageTotal(db, true, last?.matches, {
    table: documents,
    where,
    offset,
    pageSize: DOCUMENTS_PAGE_SIZE,
    pageRows: found.length,
    cap,
    after: last ? after(order, { value: last.sortKey, id: last.documentId }) : undefined,
  });
  const next_cursor = nextPageCursor(scope, offset, DOCUMENTS_PAGE_SIZE, found.map((r) => ({ sortKey: r.sortKey, id: r.documentId })));
  const rows = found.map(({ sortKey: _key, matches: _matches, ...row }) => row);
  return { rows, total, page: options.page, pageSize: DOCUMENTS_PAGE_SIZE, next_cursor };
}

export async function getDocument({ actor, db, documentId }: Scope & { documentId: number }): Promise<DocumentInContext> {
  return documentPolicy.require(db, actor, documentId);
}

/**
 * GET /documents/{id}/campaigns/{campaignId} (spec part 2 §2 "Campaign document page", §7): the document when
 * the actor sees the campaign and the campaign links it; 404 otherwise (another organization, not granted, not
 * linked). Read through the campaign (policy.ts requireCampaignDocument), never by widening visibleTo; its
 * abilities say whether the actor may edit it there (the author, and whoever may change the campaign).
 */
export async function getCampaignDocument({ actor, db, documentId, campaignId }: Scope & { documentId: number; campaignId: number }): Promise<DocumentInContext> {
  return requireCampaignDocument(db, actor, documentId, campaignId);
}

/**
 * The stored form of what the editor sent: blocks without unsafe URLs, HTML re-sanitized, the plain text.
 * spec part 2 §5: the content must be shorter than 65000 characters ('The file length is too large, please
 * remove text to save'); measured on the sanitized HTML — the spec's `content`.
 */
function storedBody(blocks: DocumentBlock[], html: string) {
  const content = sanitizeDocumentHtml(html);
  if (content.length >= DOCUMENT_CONTENT_LIMIT) throw badRequest('document_too_large');
  const clean = sanitizeBlocks(blocks);
  return { blocks: clean, content, plainText: plainTextOf(clean) };
}

const uniqueTags = (tags: string[]) => [...new Map(tags.map((tag) => [tag.toLowerCase(), tag])).values()];

export async function createDocument({ actor, db, input }: Scope & { input: CreateDocumentRequest & { name: string; blocks: DocumentBlock[]; content: string; tags: string[] } }): Promise<DocumentInContext> {
  const body = storedBody(input.blocks, input.content);
  const [row] = await db
    .insert(documents)
    .values({
      userId: actor.user.userId,
      // The organization resolved for this request (never a raw organization_id).
      organizationId: actor.organization?.organizationId ?? null,
      name: input.name,
      tags: uniqueTags(input.tags),
      ...body,
    })
    .returning();
  return row;
}

/**
 * PUT /documents. With `campaignId` (PUT /documents?campaign_id=) the document is saved through that campaign:
 * its Admins, Managers who see it and staff edit it there (policy.ts); it stays its author's document.
 */
export async function updateDocument({ actor, db, input, campaignId }: Scope & { input: UpdateDocumentRequest & { blocks?: DocumentBlock[] }; campaignId?: number }): Promise<DocumentInContext> {
  const found: DocumentInContext =
    campaignId === undefined ? await documentPolicy.require(db, actor, input.document_id, 'edit') : await requireCampaignDocument(db, actor, input.document_id, campaignId, 'edit');
  const changes: Partial<typeof documents.$inferInsert> = { updatedAt: new Date() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.tags !== undefined) changes.tags = uniqueTags(input.tags);
  if (input.blocks !== undefined && input.content !== undefined) Object.assign(changes, storedBody(input.blocks, input.content));
  const [row] = await db
    .update(documents)
    .set(changes)
    .where(and(campaignId === undefined ? documentPolicy.visibleTo(actor) : inCampaign(actor, campaignId), eq(documents.documentId, input.document_id)))
    .returning();
  // Unlinked or deleted between the check and the write.
  if (!row) throw notFound();
  return { ...row, campaignEditor: found.campaignEditor };
}

export async function deleteDocument({ actor, db, documentId }: Scope & { documentId: number }): Promise<void> {
  await documentPolicy.require(db, actor, documentId, 'delete');
  await db.delete(documents).where(and(documentPolicy.visibleTo(actor), eq(documents.documentId, documentId)));
}
