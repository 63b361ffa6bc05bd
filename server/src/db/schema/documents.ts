// Documents (spec part 2 §3 "Document"; issue 15 item 1): block-editor documents. `blocks` (BlockNote JSON)
// is the truth; `content` is the spec's HTML, rendered by the editor and re-sanitized on the server on every
// write; `plain_text` feeds search and the 65,000-character rule (spec part 2 §5, §9).
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';
import { avatars } from './avatars';
import { campaigns } from './campaigns';
import { templates } from './templates';

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
    /**
     * The name lowered once when written (generated): the key of the name sorts and the name search. A campaign's
     * resources page sorts every linked document by it (1,000 in a heavy organization), and lowering each name
     * there was a quarter of that query (issue 31 item 1).
     */
    nameLower: text('name_lower').generatedAlwaysAs(sql`lower(name)`),
  },
  (t) => [
    // The actor's own documents in a context, by each sort (createdAt, updatedAt, name), the id breaking ties
    // as the sorts and the page cursors do (issue 31 item 1).
    index('documents_user_org_created_idx').on(t.userId, t.organizationId, t.createdAt, t.documentId),
    index('documents_user_org_updated_idx').on(t.userId, t.organizationId, t.updatedAt, t.documentId),
    index('documents_user_org_name_lower_idx').on(t.userId, t.organizationId, t.nameLower, t.documentId),
    // Search by name and text (name_lower / lower(plain_text) LIKE '%q%', db/contains-text.ts): trigram, as the other areas do (0014_search_trigram_statistics).
    index('documents_name_lower_trgm_idx').using('gin', sql`${t.nameLower} gin_trgm_ops`),
    index('documents_lower_plain_text_trgm_idx').using('gin', sql`lower(${t.plainText}) gin_trgm_ops`),
    // The organization's documents by name: a campaign's resources page may walk it and check each against the
    // campaign's links (campaign_resources_unique_idx) rather than join and sort every linked one (the planner
    // chooses; issue 31 item 1).
    index('documents_org_name_lower_idx').on(t.organizationId, t.nameLower, t.documentId),
  ],
);

/**
 * Markdown generated into a document (POST /documents/avatar-output, issue 15 item 1): saved as it streams so a
 * reload finds what was written, until the editor has inserted it and saved (`applied_at`). Goes with its
 * document (a generation into a deleted document has nowhere to go); `document_id` is null when the editor had
 * not saved its document yet. Avatar, template and campaign are kept as a record of what wrote it (set null
 * when they go).
 */
export const documentGenerations = pgTable(
  'document_generations',
  {
    generationId: serial('generation_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    organizationId: integer('organization_id').references(() => organizations.organizationId, { onDelete: 'cascade' }),
    documentId: integer('document_id').references(() => documents.documentId, { onDelete: 'cascade' }),
    campaignId: integer('campaign_id').references(() => campaigns.campaignId, { onDelete: 'set null' }),
    /** prompt | avatar | template | super_fetch */
    kind: text('kind').notNull(),
    avatarId: integer('avatar_id').references(() => avatars.avatarId, { onDelete: 'set null' }),
    templateId: integer('template_id').references(() => templates.templateId, { onDelete: 'set null' }),
    /** streaming | done | failed */
    status: text('status').notNull().default('streaming'),
    /** Markdown written so far (kept when it failed part-way). */
    content: text('content').notNull().default(''),
    errorCode: text('error_code'),
    /** The word hold's source id (credits/holds.ts), charged once when the generation ends. */
    holdId: text('hold_id').notNull(),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('document_generations_user_document_applied_idx').on(t.userId, t.documentId, t.appliedAt)],
);
