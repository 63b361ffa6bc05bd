// Outputs (spec part 2 §3 "Output: output_id, liked, avatar_id"; §7 "Outputs"; issue 13 item 5): texts an
// avatar generated for its owner, rated (liked) to feed the avatar's trainings, each with a short thread of
// follow-up messages (POST /outputs/message, the `thread_messages` event).
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';
import { avatars } from './avatars';
import { trainings } from './trainings';

export const outputs = pgTable(
  'outputs',
  {
    outputId: serial('output_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    organizationId: integer('organization_id').references(() => organizations.organizationId, { onDelete: 'cascade' }),
    avatarId: integer('avatar_id')
      .notNull()
      .references(() => avatars.avatarId, { onDelete: 'cascade' }),
    trainingId: integer('training_id').references(() => trainings.trainingId, { onDelete: 'set null' }),
    prompt: text('prompt').notNull(),
    /** null while pending. */
    content: text('content'),
    /** pending | done | failed */
    status: text('status').notNull().default('done'),
    /** true liked, false disliked, null not rated. */
    liked: boolean('liked'),
    model: text('model'),
    errorCode: text('error_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('outputs_avatar_user_created_idx').on(t.avatarId, t.userId, t.createdAt),
    index('outputs_training_created_idx').on(t.trainingId, t.createdAt),
    // The liked outputs a training file is built from.
    index('outputs_avatar_liked_idx').on(t.avatarId, t.userId).where(sql`${t.liked}`),
    index('outputs_pending_idx').on(t.updatedAt).where(sql`${t.status} = 'pending'`),
  ],
);

/** The follow-up messages of an output's thread, after its prompt and first answer. */
export const outputMessages = pgTable(
  'output_messages',
  {
    outputMessageId: serial('output_message_id').primaryKey(),
    outputId: integer('output_id')
      .notNull()
      .references(() => outputs.outputId, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    content: text('content'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('output_messages_output_idx').on(t.outputId, t.outputMessageId)],
);
