// Phone sign-in (issue 33 item 1): one-time codes sent by SMS, and the SMS outbox (every text message the
// server wrote: sent through the provider, failed, or kept for admins when no provider is configured).
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/** A sign-in code: stored as an HMAC (never the digits), good once, for 10 minutes, 5 wrong tries at most. */
export const phoneSignInCodes = pgTable(
  'phone_sign_in_codes',
  {
    codeId: serial('code_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('phone_sign_in_codes_user_idx').on(t.userId)],
);

export const smsOutbox = pgTable(
  'sms_outbox',
  {
    smsId: serial('sms_id').primaryKey(),
    to: text('to').notNull(),
    text: text('text').notNull(),
    kind: text('kind').notNull(),
    /** 'sent' | 'stored' (no provider) | 'failed' */
    status: text('status').notNull().default('stored'),
    /** 'twilio' when a provider took it; null when only stored. */
    provider: text('provider'),
    providerMessageId: text('provider_message_id'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('sms_outbox_to_idx').on(t.to), index('sms_outbox_created_at_idx').on(t.createdAt)],
);
