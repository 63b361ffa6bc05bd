// Documents (spec part 2 §3 "Document"; issue 15 item 1): block-editor documents. `blocks` (BlockNote JSON)
// is the truth; `content` is the spec's HTML, rendered by the editor and re-sanitized on the server on every
// write; `plain_text` feeds search and the 65,000-character rule (spec part 2 §5, §9).
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';

/**
 * A document. Personal when `organization_id` is null; made inside an organization otherwise (shown there to
 * its author, and to others only through campaigns — spec part 2 "Main navigation tabs").
 */
export const documents = pgTable(
  'documents',
  {
    documentId: serial('document_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    organizationId: integer('organization_id').references(() => organizations.organizationId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** BlockNote's block array. */
    blocks: jsonb('blocks').notNull().default(sql`'[]'::jsonb`),
    /** Sanitized HTML (sanitize-html on write). */
    content: text('content').notNull().default(''),
    /** The text without markup: search, AI context and the length rule. */
    plainText: text('plain_text').notNull().default(''),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The actor's own documents in a context, by each sort (createdAt, updatedAt, name).
    index('documents_user_org_created_idx').on(t.userId, t.organizationId, t.createdAt),
    index('documents_user_org_updated_idx').on(t.userId, t.organizationId, t.updatedAt),
    index('documents_user_org_lower_name_idx').on(t.userId, t.organizationId, sql`lower(${t.name})`),
    // Search by name (ILIKE '%q%'): trigram, as the other areas do (0014_search_trigram_statistics).
    index('documents_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    index('documents_organization_idx').on(t.organizationId),
  ],
);
