// Avatars (spec part 2 §3 "Avatar"; issue 13): saved personas with context and files, and the user's own
// AI-provider key that avatars and trainings need (spec part 1 §1). Knowledge chunks live in knowledge.ts.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations, users, files } from './accounts';

/**
 * An avatar. Private to its author in its context (Personal, or the organization it was made in); `public`
 * (set by admins only) shares it read-only with everyone. `kind` marks the defaults (filtered out of lists):
 * 'conversation_assistant' and 'super_fetch' (spec part 2 §3: the super_fetch_assistant flag).
 */
export const avatars = pgTable(
  'avatars',
  {
    avatarId: serial('avatar_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    organizationId: integer('organization_id').references(() => organizations.organizationId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    context: text('context').notNull().default(''),
    public: boolean('public').notNull().default(false),
    /** null for a user's own avatar; 'conversation_assistant' | 'super_fetch' for the defaults. */
    kind: text('kind'),
    /** The provider-side assistant, when one is made (spec part 2 §3 assistant_id); null otherwise. */
    assistantId: text('assistant_id'),
    /**
     * The last refine (POST /avatars/refine: the model rewrites the context from the files and liked outputs,
     * in the job queue): 'idle' (never), 'queued', 'running', 'done' or 'failed' with the reason. A failure
     * keeps the old context.
     */
    refineStatus: text('refine_status').notNull().default('idle'),
    refineErrorCode: text('refine_error_code'),
    refineErrorMessage: text('refine_error_message'),
    refineUpdatedAt: timestamp('refine_updated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The actor's list in a context, newest first. `kind` last (it changes no order: the id is unique) lets a
    // jump to a deep page skip the rows in the index alone (index-only), the defaults (kind not null) left out
    // there: a heavy user's page at offset 960 read their 1,000 rows and sorted them (issue 31 item 1).
    index('avatars_user_org_updated_kind_idx').on(t.userId, t.organizationId, t.updatedAt, t.avatarId, t.kind),
    // Search in name and description (lower(…) LIKE '%q%', db/contains-text.ts), issue 31 item 1.
    index('avatars_lower_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    index('avatars_lower_description_trgm_idx').using('gin', sql`lower(${t.description}) gin_trgm_ops`),
    // The community list (public avatars), newest first.
    index('avatars_public_updated_idx').on(t.updatedAt, t.avatarId).where(sql`${t.public} and ${t.kind} is null`),
    // One default of each kind per user.
    uniqueIndex('avatars_user_kind_unique').on(t.userId, t.kind).where(sql`${t.kind} is not null`),
  ],
);

/** The files of an avatar (spec part 2 §3 avatar_files[]). A clone links the same files (copy-on-write on edit). */
export const avatarFiles = pgTable(
  'avatar_files',
  {
    avatarFileId: serial('avatar_file_id').primaryKey(),
    avatarId: integer('avatar_id')
      .notNull()
      .references(() => avatars.avatarId, { onDelete: 'cascade' }),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.fileId, { onDelete: 'cascade' }),
    /** An editable (.txt) file whose text can be changed in place (spec part 2 §2 "editable files"). */
    editable: boolean('editable').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('avatar_files_avatar_file_unique').on(t.avatarId, t.fileId), index('avatar_files_file_idx').on(t.fileId)],
);

/**
 * The user's own AI-provider key (spec part 1 §1: avatars need it; training is billed to it), one per user,
 * sealed with platform/crypto/secret-box; only the last 4 characters are ever shown.
 */
export const userAiKeys = pgTable('user_ai_keys', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.userId, { onDelete: 'cascade' }),
  provider: text('provider').notNull().default('openai'),
  keySealed: text('key_sealed').notNull(),
  last4: text('last4').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
