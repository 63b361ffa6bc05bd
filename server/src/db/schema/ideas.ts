// Topics and hashtags (spec part 2 §2 "Topics and hashtags", §3 Message message_type_id 2 hashtags, 3 topics;
// issue 14 item 5): one row per generation, kept as the generator's history. Its own table rather than
// messages of a hidden conversation: a generation has a subject, a count and a list of items, not a chat
// turn (docs/decisions.md "Topics and hashtags").
import { index, integer, jsonb, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';
import { avatars } from './avatars';

export const ideaRequests = pgTable(
  'idea_requests',
  {
    ideaId: serial('idea_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    /** The organization the request was made in (DESIGN.md §7); null = Personal. */
    organizationId: integer('organization_id').references(() => organizations.organizationId, { onDelete: 'cascade' }),
    /** 2 hashtags, 3 topics (spec part 2 §2). */
    messageTypeId: smallint('message_type_id').notNull(),
    subject: text('subject').notNull(),
    /** en | es */
    language: text('language').notNull(),
    /** How many ideas were asked for. */
    count: smallint('count').notNull(),
    /** The ideas as parsed from the answer (strings). */
    items: jsonb('items').$type<string[]>().notNull(),
    /** The avatar whose voice was used, if any (its name shows in the history while it exists). */
    avatarId: integer('avatar_id').references(() => avatars.avatarId, { onDelete: 'set null' }),
    /** Words charged for the answer (credit_ledger source 'idea'). */
    words: integer('words').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The history of one generator in one context, newest first (GET /ideas/{kind}?page=).
    index('idea_requests_user_type_created_idx').on(t.userId, t.messageTypeId, t.organizationId, t.createdAt),
  ],
);
