// Platform tables: app configuration (spec part 1 §3), files, mail outbox.
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';

/** Key/value app configuration. Secret values are stored encrypted (AES-256-GCM) and flagged. */
export const appConfig = pgTable('app_config', {
  key: text('key').primaryKey(),
  value: text('value'),
  encrypted: boolean('encrypted').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedByUserId: integer('updated_by_user_id'),
});

export const files = pgTable(
  'files',
  {
    fileId: serial('file_id').primaryKey(),
    userId: integer('user_id').references(() => users.userId, { onDelete: 'cascade' }),
    /** Original file name as uploaded (shown in Content-Disposition). */
    name: text('name').notNull(),
    /** Extension from the sniffed content, e.g. 'png', 'pdf', 'txt'. */
    type: text('type').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    storageKey: text('storage_key').notNull(),
    /** Public images are served at /api/files/{publicName}.{type} to anyone. */
    publicName: text('public_name'),
    organizationId: integer('organization_id').references(() => organizations.organizationId),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('files_user_idx').on(t.userId), uniqueIndex('files_public_name_unique').on(t.publicName)],
);

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
