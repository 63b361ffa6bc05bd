// Progress of long jobs (training, sync... up to 15 minutes), kept outside pg-boss so a reload can show it.
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const jobProgress = pgTable('job_progress', {
  jobId: text('job_id').primaryKey(),
  queue: text('queue').notNull(),
  percent: integer('percent').notNull().default(0),
  note: text('note'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
