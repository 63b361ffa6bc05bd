// Tables of the knowledge area (issue 13 item 3): the text of uploaded files, indexed for retrieval, keyed by
// file (avatars and conversations link files; deleting a file removes its index at once, by cascade).
// Hand-written in the migration (drizzle-kit models neither): the `unaccent` extension and the text search
// configurations pluma_english / pluma_spanish (accents folded, then stemmed), and — only where the
// server has pgvector — the knowledge_chunk_embeddings table (features/knowledge/vector-support.ts).
import { sql } from 'drizzle-orm';
import { customType, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { files } from './accounts';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** One row per file that was queued for indexing: its honest status (queued → indexing → ready | failed). */
export const knowledgeFiles = pgTable(
  'knowledge_files',
  {
    fileId: integer('file_id')
      .primaryKey()
      .references(() => files.fileId, { onDelete: 'cascade' }),
    /** 'queued' | 'indexing' | 'ready' | 'failed' */
    status: text('status').notNull().default('queued'),
    /** 0–100 while indexing. */
    progress: integer('progress').notNull().default(0),
    /** Why it failed: 'no_text' (e.g. a scanned PDF), 'unsupported_type', 'unreadable', 'embedding_failed', 'file_missing'. */
    failureReason: text('failure_reason'),
    /** 'english' | 'spanish': the text search configuration of its chunks. */
    language: text('language'),
    pages: integer('pages'),
    characters: integer('characters'),
    chunks: integer('chunks').notNull().default(0),
    /** The files.storage_key that was indexed: replaced content (PUT /files/{id}) is indexed again. */
    sourceKey: text('source_key'),
    /** The embedding model and dimensions of its chunks' vectors; null when indexed for full-text only. */
    embeddingModel: text('embedding_model'),
    embeddingDimensions: integer('embedding_dimensions'),
    /** Bumped by every request to index: a job of an older request stops instead of writing over a newer one. */
    generation: integer('generation').notNull().default(1),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('knowledge_files_status_idx').on(t.status)],
);

/** Passages of about 1,000–1,500 characters with overlap; (file, ordinal) is unique so a retry replaces them. */
export const knowledgeChunks = pgTable(
  'knowledge_chunks',
  {
    chunkId: serial('chunk_id').primaryKey(),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.fileId, { onDelete: 'cascade' }),
    ordinal: integer('ordinal').notNull(),
    /** 1-based page (pdf) or slide (pptx); null where the format has none (docx, txt). */
    page: integer('page'),
    /** The nearest heading above the passage (docx headings, slide titles, title-like lines). */
    heading: text('heading'),
    text: text('text').notNull(),
    /** Offset of the passage in the file's extracted text (chunks overlap; the whole text is rebuilt from them). */
    startOffset: integer('start_offset').notNull(),
    /** 'english' | 'spanish' (the file's). */
    language: text('language').notNull(),
    /** Heading (weight A) and text in the file's language, accents folded (pluma_* configurations). */
    search: tsvector('search')
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector(CASE WHEN "language" = 'spanish' THEN 'pluma_spanish'::regconfig ELSE 'pluma_english'::regconfig END, coalesce("heading", '')), 'A') || to_tsvector(CASE WHEN "language" = 'spanish' THEN 'pluma_spanish'::regconfig ELSE 'pluma_english'::regconfig END, "text")`,
      ),
  },
  (t) => [uniqueIndex('knowledge_chunks_file_ordinal_unique').on(t.fileId, t.ordinal), index('knowledge_chunks_search_idx').using('gin', t.search)],
);
