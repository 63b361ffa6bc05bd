// Second factors (issue 33 item 2; OWASP ASVS 5.0 §6): a TOTP secret per user, its recovery codes and the
// devices that remember a passed second factor. Secrets are sealed (platform/crypto/secret-box), codes and
// device tokens stored hashed.
import { bigint, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/** One authenticator per user; confirmed_at null while the user has not yet proved a code (enrollment). */
export const totpSecrets = pgTable('totp_secrets', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.userId, { onDelete: 'cascade' }),
  secretSealed: text('secret_sealed').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  /** The last 30-second step a code was accepted for: a code is never accepted twice (replay). */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Single-use recovery codes, shown once at enrollment, stored hashed. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    codeId: serial('code_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/** A browser that passed the second factor and asked to be remembered, until expires_at. */
export const trustedDevices = pgTable(
  'trusted_devices',
  {
    deviceId: serial('device_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('trusted_devices_token_hash_unique').on(t.tokenHash), index('trusted_devices_user_idx').on(t.userId)],
);
