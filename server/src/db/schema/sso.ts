// OpenID Connect single sign-on (issue 33 item 4; docs/decisions.md "Single sign-on"): the providers staff
// configure (the client secret sealed, platform/crypto/secret-box), the (issuer, subject) links of accounts,
// the short-lived single-use sign-in attempts (state, nonce, PKCE verifier, bound to a browser cookie) and an
// organization's choice of provider and its "require SSO for our domain".
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';

export const ssoProviders = pgTable('sso_providers', {
  providerId: serial('provider_id').primaryKey(),
  name: text('name').notNull(),
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  clientSecretSealed: text('client_secret_sealed'),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** An account signs in through (issuer, subject): the issuer's stable identifier of the person. */
export const ssoIdentities = pgTable(
  'sso_identities',
  {
    identityId: serial('identity_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    providerId: integer('provider_id').references(() => ssoProviders.providerId, { onDelete: 'set null' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sso_identities_issuer_subject_unique').on(t.issuer, t.subject), index('sso_identities_user_idx').on(t.userId)],
);

/** One redirect to a provider: used once by its callback, within SSO_ATTEMPT_MS, from the same browser. */
export const ssoAttempts = pgTable(
  'sso_attempts',
  {
    attemptId: serial('attempt_id').primaryKey(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => ssoProviders.providerId, { onDelete: 'cascade' }),
    stateHash: text('state_hash').notNull(),
    /** SHA-256 of the random value of the browser's sso cookie. */
    browserHash: text('browser_hash').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sso_attempts_state_unique').on(t.stateHash), index('sso_attempts_expires_idx').on(t.expiresAt)],
);

/** An organization's provider; `required`: users whose email is on the organization's domain sign in through it. */
export const organizationSso = pgTable('organization_sso', {
  organizationId: integer('organization_id')
    .primaryKey()
    .references(() => organizations.organizationId, { onDelete: 'cascade' }),
  providerId: integer('provider_id')
    .notNull()
    .references(() => ssoProviders.providerId, { onDelete: 'cascade' }),
  required: boolean('required').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
