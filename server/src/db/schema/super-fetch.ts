// Super Fetch (spec part 2 §2, §3 "Super Fetch prompt builder inputs", §7; issue 14 item 4): each Generate is
// a run (the inputs as sent, the prompt built from them, the feedback that modified it, the file's text used
// as context) with its outputs, written concurrently and saved as they stream, so a reload shows them.
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { files, users } from './accounts';
import { avatars } from './avatars';

export const superFetchRuns = pgTable(
  'super_fetch_runs',
  {
    runId: serial('run_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    /** The avatar written with (the user's Super Fetch avatar unless another was chosen). */
    avatarId: integer('avatar_id')
      .notNull()
      .references(() => avatars.avatarId, { onDelete: 'cascade' }),
    /** The nine inputs as sent (spec part 2 §3). */
    inputs: jsonb('inputs').$type<Record<string, string>>().notNull(),
    /** The prompt the outputs were written from (the event's enhancePrompt). */
    prompt: text('prompt').notNull(),
    /** A modified prompt's feedback: its text, the verdict (liked true/false/null) and the run it was about. */
    feedbackInput: text('feedback_input'),
    feedbackLiked: boolean('feedback_liked'),
    feedbackRunId: integer('feedback_run_id'),
    fileId: integer('file_id').references(() => files.fileId, { onDelete: 'set null' }),
    fileName: text('file_name'),
    /** The file's text as used (a feedback round reuses it even if the file is deleted meanwhile). */
    fileText: text('file_text'),
    fileTruncated: boolean('file_truncated').notNull().default(false),
    requested: integer('requested').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('super_fetch_runs_user_avatar_idx').on(t.userId, t.avatarId, t.runId)],
);

export const superFetchOutputs = pgTable(
  'super_fetch_outputs',
  {
    outputId: serial('output_id').primaryKey(),
    runId: integer('run_id')
      .notNull()
      .references(() => superFetchRuns.runId, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** null while pending. */
    content: text('content'),
    /** pending | streaming | done | failed */
    status: text('status').notNull().default('pending'),
    liked: boolean('liked'),
    errorCode: text('error_code'),
    /** The word hold's source id (credits/holds.ts), charged once when the output ends. */
    holdId: text('hold_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('super_fetch_outputs_run_idx').on(t.runId, t.position)],
);
