// Documents (spec part 2 §2 "Documents and editor", §3 "Document", §5 "Document save", §7 "Documents", §9;
// issue 15 item 1): requests and responses of /api/documents, shared by server and web.
// `blocks` (BlockNote's JSON) is the truth; `content` is the HTML the editor renders from it, re-sanitized by
// the server on every write (never trusted) and by the browser on render.
import { z } from 'zod';
import { CONVERSATION_SORT_KEYS } from './constants';
import { DOCUMENT_NAME_MAX } from './rules/document-text';
import { id, idParam, text } from './schema-kit';

// The editor's limits and plain text live in a module without zod (the editor route loads them, not the schemas).
export { DOCUMENT_CONTENT_LIMIT, DOCUMENT_FIRST_HEADING, DOCUMENT_NAME_MAX, documentPlainText } from './rules/document-text';

/** What a request may carry at most before the rule above is even checked (it answers the spec message). */
export const DOCUMENT_CONTENT_SENT_MAX = 1_000_000;
/** The blocks' JSON at most (a document at the content limit is far smaller). */
export const DOCUMENT_BLOCKS_JSON_MAX = 2_000_000;
export const DOCUMENT_TAG_MAX = 60;
export const DOCUMENT_MAX_TAGS = 10;
export const DOCUMENTS_PAGE_SIZE = 24;

/** Last Created, Last Updated, A-Z, Z-A (the same four keys as conversations and templates). */
export const DOCUMENT_SORT_KEYS = CONVERSATION_SORT_KEYS;
export const documentSortKey = z.enum(DOCUMENT_SORT_KEYS);
export type DocumentSortKey = z.infer<typeof documentSortKey>;

export const DOCUMENT_ACTIONS = ['edit', 'delete', 'export'] as const;
export type DocumentAction = (typeof DOCUMENT_ACTIONS)[number];

// ---- blocks (BlockNote's shape, checked for sanity; the server also drops unsafe URLs) ----

/** Styled text inside a block. */
export interface DocumentStyledText {
  type: 'text';
  text: string;
  styles?: Record<string, unknown>;
}
export interface DocumentLink {
  type: 'link';
  href: string;
  content: DocumentStyledText[];
}
export type DocumentInline = DocumentStyledText | DocumentLink | { type: string; [key: string]: unknown };
export interface DocumentTableContent {
  type: 'tableContent';
  rows: { cells: (DocumentInline[] | { type: 'tableCell'; content: DocumentInline[]; props?: Record<string, unknown> })[] }[];
  [key: string]: unknown;
}
export interface DocumentBlock {
  id?: string;
  type: string;
  props?: Record<string, unknown>;
  content?: DocumentInline[] | DocumentTableContent;
  children?: DocumentBlock[];
}

const blockSchema: z.ZodType<DocumentBlock> = z.lazy(() =>
  z
    .object({
      id: text().max(100).optional(),
      type: text().min(1).max(60),
      props: z.record(z.string().max(60), z.unknown()).optional(),
      content: z.union([z.array(z.looseObject({ type: z.string().max(60) })), z.looseObject({ type: z.literal('tableContent'), rows: z.array(z.unknown()) })]).optional(),
      children: z.array(blockSchema).max(5000).optional(),
    })
    .loose() as z.ZodType<DocumentBlock>,
).meta({ id: 'DocumentBlock' }); // registered: the OpenAPI document can only name a recursive schema as a component (app.ts)
export const documentBlocks = z
  .array(blockSchema)
  .max(10_000)
  .refine((blocks) => JSON.stringify(blocks).length <= DOCUMENT_BLOCKS_JSON_MAX, { error: 'document_too_large' });

/** spec part 2 §2: the instruction that follows a document given as context. */
export const DOCUMENT_CONTEXT_INSTRUCTION = 'Use the above text to make a response for the next request';

/** The request with the document's text before it (spec part 2 §2), the text cut from its start to fit `max`. */
export function withDocumentContext(documentText: string, request: string, max: number): string {
  const text = documentText.trim();
  if (!text) return request;
  const glue = `\n\n${DOCUMENT_CONTEXT_INSTRUCTION}\n\n`;
  const room = max - glue.length - request.length;
  if (room <= 0) return request;
  return `${text.length > room ? text.slice(text.length - room) : text}${glue}${request}`;
}

// ---- responses ----

const abilities = z.object({
  /** Save the document (own documents). */
  edit: z.boolean(),
  delete: z.boolean(),
  /** Download as Word. */
  export: z.boolean(),
});

/** One document in a list (no blocks or HTML: those come with GET /documents/{id}). */
export const documentSummary = z.object({
  document_id: z.number(),
  name: z.string(),
  tags: z.array(z.string()),
  organization_id: z.number().nullable(),
  user_id: z.number(),
  /** The first characters of the text. */
  excerpt: z.string(),
  characters: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  abilities,
});
export type DocumentSummary = z.infer<typeof documentSummary>;

/** spec part 2 §3: document_id, name, content (HTML), tags, organization_id, blocks. */
export const document = documentSummary.omit({ excerpt: true }).extend({
  content: z.string(),
  blocks: z.array(z.unknown()),
});
export type DocumentRecord = Omit<z.infer<typeof document>, 'blocks'> & { blocks: DocumentBlock[] };

export const documentList = z.object({
  documents: z.array(documentSummary),
  total: z.number(),
  /** true: there are more than `total`, which is then the cap (shown as "1,000+"; server/src/db/capped-count.ts). */
  total_capped: z.boolean().optional(),
  /** Send as `cursor` with the next page number (faster deep pages); null on the last page. */
  next_cursor: z.string().nullable().optional(),
  page: z.number(),
  pageSize: z.number(),
});
export type DocumentList = z.infer<typeof documentList>;
export const deletedDocumentResponse = z.object({ deleted: z.literal(true) });

// ---- requests ----

/** GET /documents?query=&sortBy=&page= (own documents in the request's context). */
export const listDocumentsQuery = z.object({
  query: text().trim().max(200).optional(),
  sortBy: documentSortKey.default('updatedAt_desc'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  /** The previous page's next_cursor, sent with the next page number: that page is read from it (server/src/db/page-cursor.ts). */
  cursor: text().max(500).optional(),
  organization_id: idParam().optional(),
});
export type ListDocumentsQuery = z.input<typeof listDocumentsQuery>;
export const documentIdParams = z.object({ id: idParam() });
/** GET /documents/{id}/campaigns/{campaignId}: a document read through a campaign that links it. */
export const campaignDocumentParams = z.object({ id: idParam(), campaignId: idParam() });

const name = text().trim().min(1).max(DOCUMENT_NAME_MAX);
const tags = z.array(text().trim().min(1).max(DOCUMENT_TAG_MAX)).max(DOCUMENT_MAX_TAGS);
/** Over the limit: the spec's message (the exact rule is checked on the sanitized HTML by the server). */
const content = text().max(DOCUMENT_CONTENT_SENT_MAX, { error: 'document_too_large' });

/** POST /documents. A new document without blocks starts empty ('Start writing here!' is only the editor's placeholder). */
export const createDocumentRequest = z.object({
  name,
  blocks: documentBlocks.default([]),
  content: content.default(''),
  tags: tags.default([]),
  organization_id: idParam().nullable().optional(),
});
export type CreateDocumentRequest = z.input<typeof createDocumentRequest>;

/** PUT /documents: what is sent changes; blocks and content travel together (one is the other's rendering). */
export const updateDocumentRequest = z
  .object({
    document_id: id(),
    name: name.optional(),
    blocks: documentBlocks.optional(),
    content: content.optional(),
    tags: tags.optional(),
    organization_id: idParam().nullable().optional(),
  })
  .refine((body) => (body.blocks === undefined) === (body.content === undefined), { error: 'document_blocks_with_content', path: ['content'] });
export type UpdateDocumentRequest = z.input<typeof updateDocumentRequest>;
