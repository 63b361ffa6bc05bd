// Trainings (spec part 2 §3 "Training: training_id, name, file, file_id"; §2 "Training actions: sync, refine,
// execute, delete"; issue 13 item 4): fine-tuning an avatar on the user's OWN OpenAI key (spec part 1 §1).
// The row is the job's state: a restarted server reads it and resumes polling the provider.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';
import { avatars } from './avatars';

export const trainings = pgTable(
  'trainings',
  {
    trainingId: serial('training_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    organizationId: integer('organization_id').references(() => organizations.organizationId, { onDelete: 'cascade' }),
    avatarId: integer('avatar_id')
      .notNull()
      .references(() => avatars.avatarId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The model fine-tuned: a base model, or (refine) the previous run's fine-tuned model. */
    baseModel: text('base_model').notNull(),
    /** draft | queued | validating_files | running | succeeded | failed | cancelled */
    status: text('status').notNull().default('draft'),
    progress: integer('progress').notNull().default(0),
    /** The training file's name (spec "file") and where its JSONL is stored; examples counted when built. */
    file: text('file'),
    fileKey: text('file_key'),
    examples: integer('examples'),
    /** The provider's file id (spec "file_id") and fine-tuning job id. */
    fileId: text('file_id'),
    providerJobId: text('provider_job_id'),
    /** The finished model (selectable for the avatar). */
    fineTunedModel: text('fine_tuned_model'),
    /** The avatar's chosen model: at most one selected training per avatar. */
    selected: boolean('selected').notNull().default(false),
    /** A job of the queue is (or should be) polling the provider for this training. */
    polling: boolean('polling').notNull().default(false),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    /** The polling job stops here (spec part 2 §9: up to 15 minutes); sync starts another. */
    deadlineAt: timestamp('deadline_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('trainings_user_org_updated_idx').on(t.userId, t.organizationId, t.updatedAt),
    index('trainings_avatar_idx').on(t.avatarId, t.updatedAt),
    uniqueIndex('trainings_avatar_selected_unique').on(t.avatarId).where(sql`${t.selected}`),
    // What a booting server resumes.
    index('trainings_polling_idx').on(t.trainingId).where(sql`${t.polling}`),
  ],
);
