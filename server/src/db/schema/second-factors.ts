// Second factors (issue 33 item 2; OWASP ASVS 5.0 §6): a TOTP secret per user, its recovery codes and the
// devices that remember a passed second factor. Secrets are sealed (platform/crypto/secret-box), codes and
// device tokens stored hashed.
import { bigint, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
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

/**
 * Passkeys (WebAuthn, issue 33 item 3): a first factor on their own and a second factor after a password.
 * The credential id and COSE public key are base64url; counter is the authenticator's signature counter
 * (a lower one than stored means a cloned authenticator: refused).
 */
export const passkeys = pgTable(
  'passkeys',
  {
    passkeyId: serial('passkey_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    credentialId: text('credential_id').notNull(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('passkeys_credential_id_unique').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);
