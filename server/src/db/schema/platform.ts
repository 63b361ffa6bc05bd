// Platform tables: app configuration (spec part 1 §3), mail outbox. (Files live in accounts.ts: users and
// organizations point at them and they at users, and one module keeps the import graph free of cycles.)
import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** Key/value app configuration. Secret values are stored encrypted (AES-256-GCM) and flagged. */
export const appConfig = pgTable('app_config', {
  key: text('key').primaryKey(),
  value: text('value'),
  encrypted: boolean('encrypted').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedByUserId: integer('updated_by_user_id'),
});

/** Every message we send; without SMTP this is the operator's outbox. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    mailId: serial('mail_id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    kind: text('kind').notNull(),
    status: text('status').notNull().default('stored'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('mail_outbox_to_idx').on(t.to), index('mail_outbox_created_at_idx').on(t.createdAt)],
);
