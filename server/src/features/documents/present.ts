// The JSON of a document (spec part 2 §3 "Document": document_id, name, content, tags, organization_id,
// blocks), with the actor's abilities (DESIGN.md §7). Lists carry a short excerpt instead of blocks and HTML.
// A document read through a campaign carries the abilities it has there (policy.ts: a campaign editor may
// edit it, only the author may delete or export it).
import type { DocumentRecord, DocumentSummary, DocumentBlock } from '@pluma/common/documents';
import type { Actor } from '../../platform/auth/actor';
import { documentPolicy, type DocumentInContext } from './policy';

const EXCERPT_LENGTH = 160;

export type SummaryRow = Omit<DocumentInContext, 'blocks' | 'content' | 'plainText'> & { excerpt: string; characters: number };

export function presentDocumentSummary(actor: Actor, row: SummaryRow): DocumentSummary {
  return {
    document_id: row.documentId,
    name: row.name,
    tags: row.tags,
    organization_id: row.organizationId,
    user_id: row.userId,
    excerpt: row.excerpt.slice(0, EXCERPT_LENGTH),
    characters: Number(row.characters),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
    abilities: documentPolicy.abilities(actor, { ...row, blocks: [], content: '', plainText: '' }),
  };
}

export function presentDocument(actor: Actor, row: DocumentInContext): DocumentRecord {
  const { excerpt: _excerpt, ...summary } = presentDocumentSummary(actor, { ...row, excerpt: '', characters: row.plainText.length });
  return { ...summary, content: row.content, blocks: row.blocks as DocumentBlock[] };
}
