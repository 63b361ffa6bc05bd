// Chat (spec part 2 §3): conversations, messages, and the credits ledger (DESIGN.md §6).
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations, users, files } from './accounts';

export const conversations = pgTable(
  'conversations',
  {
    conversationId: serial('conversation_id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.userId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** null = unset (the default model). */
    model: text('model'),
    archived: boolean('archived').notNull().default(false),
    /** Comma-separated, as the spec has it. */
    tags: text('tags').notNull().default(''),
    avatarId: integer('avatar_id'),
    organizationId: integer('organization_id').references(() => organizations.organizationId, { onDelete: 'cascade' }),
    fileId: integer('file_id').references(() => files.fileId, { onDelete: 'set null' }),
    /** A prompt of it has attached files (message_files): only then does an answer look them up. */
    hasAttachedFiles: boolean('has_attached_files').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    // The search keys, lowered once when written (generated): a heavy user's search or tag filter reads ~500–1,000
    // rows for its capped total, and lowering name and tags on each row was most of that read (issue 31 item 1).
    // Lists select their columns without these (conversationColumns).
    nameLower: text('name_lower').generatedAlwaysAs(sql`lower(name)`),
    tagsLower: text('tags_lower').generatedAlwaysAs(sql`lower(tags)`),
    tagList: text('tag_list').array().generatedAlwaysAs(sql`string_to_array(lower(tags), ',')`),
  },
  (t) => [
    index('conversations_user_updated_idx').on(t.userId, t.archived, t.updatedAt),
    index('conversations_user_created_idx').on(t.userId, t.archived, t.createdAt),
    // A-Z / Z-A sort case-blind (lower(name)), the id breaking ties as the keyset cursor does (issue 31 item 1).
    index('conversations_user_lower_name_idx').on(t.userId, t.archived, sql`lower(${t.name})`, t.conversationId),
    // Search by name or tag (name_lower / tags_lower LIKE '%q%', db/contains-text.ts) and the tag filter (&& on
    // tag_list), issue 31 item 1.
    index('conversations_name_lower_trgm_idx').using('gin', sql`${t.nameLower} gin_trgm_ops`),
    index('conversations_tags_lower_trgm_idx').using('gin', sql`${t.tagsLower} gin_trgm_ops`),
    index('conversations_tag_list_idx').using('gin', t.tagList),
    index('conversations_org_idx').on(t.organizationId),
  ],
);

export const messages = pgTable(
  'messages',
  {
    messageId: serial('message_id').primaryKey(),
    conversationId: integer('conversation_id').notNull().references(() => conversations.conversationId, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull().references(() => users.userId, { onDelete: 'cascade' }),
    /** 'user' | 'assistant' */
    role: text('role').notNull(),
    /** null = pending (the assistant is still writing). */
    content: text('content'),
    prompt: text('prompt'),
    /**
     * What the model is sent instead of `content`: a template's (or workflow step's) filled prompt when the
     * sender may not read that template's prompt (show_prompt off). `content` then holds a label (the
     * template's name and the values). Never presented (messages/present.ts): issue 30 item 9.
     */
    modelContent: text('model_content'),
    model: text('model'),
    favorite: boolean('favorite').notNull().default(false),
    /** 'stop' | 'length' | 'error' | 'interrupted' | null while streaming */
    finishReason: text('finish_reason'),
    /** 'pending' | 'streaming' | 'done' | 'failed' | 'interrupted' */
    status: text('status').notNull().default('done'),
    messageTypeId: integer('message_type_id').notNull().default(1),
    userMessageId: integer('user_message_id'),
    avatarId: integer('avatar_id'),
    organizationId: integer('organization_id').references(() => organizations.organizationId, { onDelete: 'cascade' }),
    errorCode: text('error_code'),
    wordsCharged: integer('words_charged'),
    /**
     * The web pages an answer written with searchOnInternet was given, numbered as the answer cites them
     * (features/web-search): kept with the message so a reload and the exports show the same sources.
     * null = no web search; [] = searched and nothing usable found; `web_search_failed` says it failed.
     */
    webSources: jsonb('web_sources').$type<{ n: number; title: string; url: string; site: string; snippet: string }[]>(),
    /** The web search of this answer failed and it was written without the web (said plainly under it). */
    webSearchFailed: boolean('web_search_failed').notNull().default(false),
    /**
     * spec part 2 §7 POST /messages saveOnConversation (issue 32 item 2): false on both rows of a one-off
     * answer; they are never listed, searched or given as context, and are removed once the answer ends.
     */
    saveOnConversation: boolean('save_on_conversation').notNull().default(true),
    /** spec part 2 §3 Message deleteUserMsg: on an answer, its prompt's row is removed once it is done. */
    deleteUserMsg: boolean('delete_user_msg').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Newest-first paging, the page's total and the context read of a conversation; every one of them is
    // scoped by the owner too (DESIGN.md §3), so user_id sits between. Without it PostgreSQL lacking fresh
    // statistics could pick messages_user_idx and sort the user's every row (bench/chat-history-page.mjs).
    index('messages_conversation_user_idx').on(t.conversationId, t.userId, t.messageId),
    index('messages_user_idx').on(t.userId, t.createdAt),
    index('messages_pending_idx').on(t.status).where(sql`${t.status} in ('pending', 'streaming')`),
    // GET /messages (list-messages.ts): the actor's messages newest first, and their favorites.
    index('messages_user_message_idx').on(t.userId, t.messageId),
    index('messages_user_favorite_idx').on(t.userId, t.messageId).where(sql`${t.favorite}`),
  ],
);

/**
 * The passages an avatar's answer was given (issue 13 item 3: "each avatar reply cites its passages under
 * the answer (file, page; click to see the passage)"). A side table, not a column: a deleted file takes its
 * citations with it (cascade), so a deleted file's passage is never shown again, not even under old answers.
 */
export const messageCitations = pgTable(
  'message_citations',
  {
    citationId: serial('citation_id').primaryKey(),
    messageId: integer('message_id').notNull().references(() => messages.messageId, { onDelete: 'cascade' }),
    fileId: integer('file_id').notNull().references(() => files.fileId, { onDelete: 'cascade' }),
    /** Order under the answer (1, 2, ...), as the model was given them. */
    ordinal: integer('ordinal').notNull(),
    fileName: text('file_name').notNull(),
    page: integer('page'),
    heading: text('heading'),
    text: text('text').notNull(),
  },
  (t) => [index('message_citations_message_idx').on(t.messageId, t.ordinal), index('message_citations_file_idx').on(t.fileId)],
);

/**
 * Files attached to a user's prompt (issue 27 item 2): their text (read by the ingestion pipeline and
 * indexed) and images reach the model with the prompt, and the message lists them after a reload.
 */
export const messageFiles = pgTable(
  'message_files',
  {
    messageId: integer('message_id').notNull().references(() => messages.messageId, { onDelete: 'cascade' }),
    fileId: integer('file_id').notNull().references(() => files.fileId, { onDelete: 'cascade' }),
    /** Order in the composer (1, 2, ...). */
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.fileId] }), index('message_files_file_idx').on(t.fileId)],
);

/** A message shared as a read-only public link (share.ts); revoking keeps the row, the token stops working. */
export const messageShares = pgTable(
  'message_shares',
  {
    shareId: serial('share_id').primaryKey(),
    /** 256 random bits, base64url; the public link is /shared/{token}. */
    token: text('token').notNull(),
    messageId: integer('message_id').notNull().references(() => messages.messageId, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull().references(() => users.userId, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('message_shares_token_unique').on(t.token),
    // One active link per message: sharing again returns it.
    uniqueIndex('message_shares_active_message_unique').on(t.messageId).where(sql`${t.revokedAt} is null`),
  ],
);

/**
 * Words set aside for a generation until it is charged (credits/holds.ts): one row per cause, summed in
 * users.held_words. Settled by the charge of the same cause; expired rows are released by the sweep.
 */
export const creditHolds = pgTable(
  'credit_holds',
  {
    holdId: serial('hold_id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.userId, { onDelete: 'cascade' }),
    words: integer('words').notNull(),
    /** 'message' (source_id = the answer's message_id) or 'enhance' (the enhance_id). */
    sourceType: text('source_type').notNull(),
    sourceId: text('source_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('credit_holds_source_unique').on(t.sourceType, t.sourceId), index('credit_holds_expires_idx').on(t.expiresAt)],
);

/** Every change of a user's words goes through here, once per cause (unique source). */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    entryId: serial('entry_id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.userId, { onDelete: 'cascade' }),
    /** Negative for a charge, positive for a grant. */
    words: integer('words').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    /** e.g. 'message', 'purchase', 'admin' */
    sourceType: text('source_type').notNull(),
    sourceId: text('source_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('credit_ledger_source_unique').on(t.sourceType, t.sourceId),
    index('credit_ledger_user_idx').on(t.userId, t.createdAt),
    // Analytics: words used and AI usage per day (features/analytics), by kind of entry and date.
    index('credit_ledger_type_created_idx').on(t.sourceType, t.createdAt),
  ],
);

/**
 * Each web search (issue 32), for the staff AI-usage analytics beside the answers' word charges: who searched
 * (and in which organization), with which provider, how many pages were read, and whether it failed.
 */
export const webSearches = pgTable(
  'web_searches',
  {
    webSearchId: serial('web_search_id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.userId, { onDelete: 'cascade' }),
    organizationId: integer('organization_id').references(() => organizations.organizationId, { onDelete: 'set null' }),
    /** The answer it was for; kept when the message is deleted (the search happened). */
    messageId: integer('message_id'),
    /** 'searxng' | 'brave' | 'tavily'; 'none' when no provider was configured. */
    provider: text('provider').notNull(),
    /** Whose settings searched: 'app' (the operator's) or 'organization' (its own key). */
    keyScope: text('key_scope').notNull().default('app'),
    pagesRead: integer('pages_read').notNull().default(0),
    failed: boolean('failed').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('web_searches_created_idx').on(t.createdAt)],
);
