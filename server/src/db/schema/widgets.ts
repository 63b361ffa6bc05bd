// Chat widgets (spec part 2 §2 "Chat widget generator", §3 "Widget config"; issue 15 items 3-4): a widget is
// an owner's avatar answering visitors of the websites the owner lists. Visitors have no account: each
// conversation is a session found again by an opaque token (stored only as its SHA-256), and its messages are
// appended — the answer row alone is updated while it streams, the conversation is never rewritten.
// Personal only (spec: "Chat Widget (not in organization scope)"), so there is no organization column.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { files, users } from './accounts';
import { avatars } from './avatars';

export const widgets = pgTable(
  'widgets',
  {
    widgetId: serial('widget_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    /** The avatar that answers; its removal removes the widget (docs/decisions.md "Chat widgets"). */
    avatarId: integer('avatar_id')
      .notNull()
      .references(() => avatars.avatarId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** '#rrggbb' (spec: free text, default #ff0000; the server keeps only hex colours). */
    accentColor: text('accent_color').notNull().default('#ff0000'),
    /** The button image: a public image of the files feature. */
    imageFileId: integer('image_file_id').references(() => files.fileId, { onDelete: 'set null' }),
    /** scheme://host[:port] exactly as compared with a request's Origin; empty answers no website. */
    allowedOrigins: text('allowed_origins')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    enabled: boolean('enabled').notNull().default(true),
    /** 'pw_' + 32 url-safe characters: public (it is in the snippet); rotating it turns old snippets off. */
    publicKey: text('public_key').notNull(),
    /** Goes up with each rotation; visitor tokens carry it, so tokens minted under an old key stop at once. */
    keyVersion: integer('key_version').notNull().default(1),
    /** Words charged to the owner for this widget's answers (a running total for the owner's list). */
    wordsUsed: integer('words_used').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('widgets_public_key_unique').on(t.publicKey),
    index('widgets_user_created_idx').on(t.userId, t.createdAt),
    // An avatar's removal finds its widgets.
    index('widgets_avatar_idx').on(t.avatarId),
  ],
);

export const widgetSessions = pgTable(
  'widget_sessions',
  {
    sessionId: serial('session_id').primaryKey(),
    widgetId: integer('widget_id')
      .notNull()
      .references(() => widgets.widgetId, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the opaque session_token the visitor's browser keeps. */
    tokenHash: text('token_hash').notNull(),
    /** The allowed website it was started on. */
    origin: text('origin').notNull(),
    /** The widget's key version it was started under: rotating the key ends it (public-service.ts). */
    keyVersion: integer('key_version').notNull().default(1),
    /** SHA-256 of the visitor's address with the app secret: enough to tell visitors apart, not to find them. */
    ipHash: text('ip_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    messagesCount: integer('messages_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('widget_sessions_token_hash_unique').on(t.tokenHash),
    // The owner's list: one widget's sessions, newest first.
    index('widget_sessions_widget_started_idx').on(t.widgetId, t.startedAt),
  ],
);

export const widgetMessages = pgTable(
  'widget_messages',
  {
    messageId: serial('message_id').primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => widgetSessions.sessionId, { onDelete: 'cascade' }),
    /** 'user' | 'assistant' */
    role: text('role').notNull(),
    content: text('content').notNull().default(''),
    /** 'streaming' | 'done' | 'failed' (a visitor's message is 'done' at once). */
    status: text('status').notNull().default('done'),
    errorCode: text('error_code'),
    /** The words charged for an answer (0 for the visitor's own messages). */
    words: integer('words').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('widget_messages_session_idx').on(t.sessionId, t.messageId)],
);
