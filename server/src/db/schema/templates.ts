// Templates (spec part 2 §3 "Template"; issue 14 item 2): prompts with [field] placeholders, the admin-managed
// tag and type lists, each user's favourites and last use. Fields are not stored: they are parsed from the
// content (common/src/rules/template-fields.ts) whenever a template is presented or applied.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';

/** Template tags, managed by admins (spec part 2 §6). Names are unique without case. */
export const templateTags = pgTable(
  'template_tags',
  {
    tagId: serial('tag_id').primaryKey(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('template_tags_lower_name_unique').on(sql`lower(${t.name})`)],
);

/** Template types, managed by admins (spec part 2 §6). Names are unique without case. */
export const templateTypes = pgTable(
  'template_types',
  {
    typeId: serial('type_id').primaryKey(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('template_types_lower_name_unique').on(sql`lower(${t.name})`)],
);

/**
 * A template. Private to its author in its context (Personal, or the organization it was made in); `public`
 * (admins only) shows it to everyone. `user_id` null: the seeded library (no author).
 */
export const templates = pgTable(
  'templates',
  {
    templateId: serial('template_id').primaryKey(),
    userId: integer('user_id').references(() => users.userId, { onDelete: 'cascade' }),
    organizationId: integer('organization_id').references(() => organizations.organizationId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    content: text('content').notNull(),
    /** A deleted type leaves its templates without a type. */
    typeId: integer('type_id').references(() => templateTypes.typeId, { onDelete: 'set null' }),
    /** 'en' | 'es' (spec part 2 §9). */
    language: text('language').notNull().default('en'),
    public: boolean('public').notNull().default(false),
    editable: boolean('editable').notNull().default(false),
    showPrompt: boolean('show_prompt').notNull().default(false),
    /** Which seeded library entry this is (seed.ts), null for everything else. */
    seedKey: text('seed_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The actor's own templates in a context, by each sort.
    // The id breaks ties as the sorts do, so a page walks the index without sorting (issue 31 item 1).
    index('templates_user_org_created_idx').on(t.userId, t.organizationId, t.createdAt, t.templateId),
    index('templates_user_org_lower_name_idx').on(t.userId, t.organizationId, sql`lower(${t.name})`, t.templateId),
    // Last Used: the templates the actor has not used, by their last change (issue 31 item 1).
    index('templates_user_org_updated_idx').on(t.userId, t.organizationId, t.updatedAt, t.templateId),
    // Search in name and description (lower(…) LIKE '%q%', db/contains-text.ts), issue 31 item 1.
    index('templates_lower_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    index('templates_lower_description_trgm_idx').using('gin', sql`lower(${t.description}) gin_trgm_ops`),
    // The public library by each sort and language.
    index('templates_public_created_idx').on(t.createdAt, t.templateId).where(sql`${t.public}`),
    index('templates_public_lower_name_idx').on(sql`lower(${t.name})`, t.templateId).where(sql`${t.public}`),
    index('templates_public_updated_idx').on(t.updatedAt, t.templateId).where(sql`${t.public}`),
    index('templates_updated_idx').on(t.updatedAt),
    index('templates_language_idx').on(t.language, t.createdAt),
    index('templates_type_idx').on(t.typeId),
    // The organization's templates by name: a campaign's resources page walks it and checks each against the
    // campaign's links (campaign_resources_unique_idx), 20 rows for a page instead of every linked one joined
    // and sorted (1,000 in a heavy organization: 1.1 → 0.2 ms on PostgreSQL; issue 31 item 1).
    index('templates_org_lower_name_idx').on(t.organizationId, sql`lower(${t.name})`, t.templateId),
    uniqueIndex('templates_seed_key_unique').on(t.seedKey).where(sql`${t.seedKey} is not null`),
  ],
);

/** A template's tags. Deleting the tag or the template removes the link. */
export const templateTagLinks = pgTable(
  'template_tag_links',
  {
    templateId: integer('template_id')
      .notNull()
      .references(() => templates.templateId, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => templateTags.tagId, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.templateId, t.tagId] }), index('template_tag_links_tag_idx').on(t.tagId)],
);

/** A user's starred templates (POST /templates/favorite toggles). */
export const templateFavorites = pgTable(
  'template_favorites',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    templateId: integer('template_id')
      .notNull()
      .references(() => templates.templateId, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.templateId] }), index('template_favorites_template_idx').on(t.templateId)],
);

/** When a user last applied a template ("Last Used" sort, spec part 2 §2). */
export const templateUses = pgTable(
  'template_uses',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    templateId: integer('template_id')
      .notNull()
      .references(() => templates.templateId, { onDelete: 'cascade' }),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.templateId] }),
    index('template_uses_template_idx').on(t.templateId),
    // Last Used: the actor's used templates in the order of their use (issue 31 item 1).
    index('template_uses_user_used_idx').on(t.userId, t.usedAt, t.templateId),
  ],
);

/** Seeded libraries already written (seed.ts): written once, so an admin's deletions stick. */
export const templateSeeds = pgTable('template_seeds', {
  name: text('name').primaryKey(),
  seededAt: timestamp('seeded_at', { withTimezone: true }).notNull().defaultNow(),
});
