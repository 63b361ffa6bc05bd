// Accounts and access (spec part 1 §3): users, sessions, one-time tokens, staff, and the organizations users
// belong to (spec part 2 §4, §6; DESIGN.md §7).
import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const users = pgTable(
  'users',
  {
    userId: serial('user_id').primaryKey(),
    name: text('name').notNull(),
    lastName: text('last_name').notNull().default(''),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    phone: text('phone'),
    company: text('company'),
    lang: text('lang').notNull().default('en'),
    darkMode: boolean('dark_mode').notNull().default(false),
    birthday: date('birthday'),
    fileId: integer('file_id'),
    signupReason: text('signup_reason'),
    instagram: text('instagram'),
    /** Words left; 1000000 means unlimited (spec part 1 §9). */
    availableWords: integer('available_words').notNull().default(0),
    /** Words set aside for answers being written (credit_holds; credits/holds.ts); spendable = available - held. */
    heldWords: integer('held_words').notNull().default(0),
    defaultOrganizationId: integer('default_organization_id').references((): AnyPgColumn => organizations.organizationId, { onDelete: 'set null' }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /**
     * Summaries the back-office customers list sorts by (docs/decisions.md "Back-office at scale"): the
     * words charged in credit_ledger and the lifetime value in dollars. Kept by database triggers on
     * credit_ledger, purchases and invoices (migration 0009), never written by the app.
     */
    wordsUsed: integer('words_used').notNull().default(0),
    lifetimeValue: numeric('lifetime_value', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    // Sign-ups in a date range with the figures the customers list sorts by: a month's customers are read
    // and sorted from the index alone (features/users/admin-service.ts; docs/decisions.md "Back-office at scale").
    index('users_created_figures_idx').on(t.createdAt, t.userId, t.lifetimeValue, t.wordsUsed, t.lastUsedAt),
    index('users_phone_idx').on(t.phone),
    // The back-office customers list sorts by last use (features/users/admin-service.ts): ascending, and
    // descending with the unused last (the order that list sends).
    index('users_last_used_idx').on(t.lastUsedAt),
    index('users_last_used_desc_idx').on(t.lastUsedAt.desc().nullsLast(), t.userId.desc().nullsFirst()),
    // Substring search (ilike '%…%') of the back office, through pg_trgm (migration 0011): the full name
    // also serves a search of the first or last name alone (whatever matches either matches the full name).
    index('users_full_name_trgm_idx').using('gin', sql`(${t.name} || ' ' || ${t.lastName}) gin_trgm_ops`),
    index('users_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
    index('users_phone_trgm_idx').using('gin', sql`${t.phone} gin_trgm_ops`),
    index('users_lifetime_value_idx').on(t.lifetimeValue, t.userId),
    index('users_words_used_idx').on(t.wordsUsed, t.userId),
  ],
);

/** One row per issued token. A refresh rotates: the old row is marked rotated, a new row joins the same family. */
export const sessions = pgTable(
  'sessions',
  {
    sessionId: serial('session_id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.userId, { onDelete: 'cascade' }),
    familyId: text('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    /** Absolute end of the whole family (set at sign-in, carried over on refresh). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The staff admin who opened this session with "log in as the user" (docs/decisions.md "Staff rights"). */
    impersonatedBy: integer('impersonated_by').references((): AnyPgColumn => users.userId, { onDelete: 'cascade' }),
    /** When this sign-in passed a second factor (TOTP, a recovery code, a remembered device); carried over on refresh. */
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_unique').on(t.tokenHash),
    index('sessions_family_idx').on(t.familyId),
    index('sessions_user_idx').on(t.userId),
  ],
);

export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    tokenId: serial('token_id').primaryKey(),
    /** Null only for a passkey sign-in's challenge, issued before anyone is known (features/auth/passkeys). */
    userId: integer('user_id').references(() => users.userId, { onDelete: 'cascade' }),
    /** 'reset_password' | 'sign_in' | 'two_factor' | 'passkey_*' (platform/auth/one-time-tokens.ts) */
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdByUserId: integer('created_by_user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('one_time_tokens_hash_unique').on(t.tokenHash), index('one_time_tokens_user_idx').on(t.userId)],
);

export const staff = pgTable(
  'staff',
  {
    staffId: serial('staff_id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.userId, { onDelete: 'cascade' }),
    /** 'admin' | 'manager' */
    role: text('role').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('staff_user_unique').on(t.userId)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    auditId: serial('audit_id').primaryKey(),
    actorUserId: integer('actor_user_id'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    details: text('details'),
    requestId: text('request_id'),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_created_at_idx').on(t.createdAt), index('audit_log_actor_idx').on(t.actorUserId)],
);

/**
 * An organization (team) and its settings (spec part 2 §3 "Organization"; features/organizations). The
 * payment and AI secrets are sealed with platform/crypto/secret-box (as the app configuration's), never
 * stored or sent in the clear; an empty value is null.
 */
export const organizations = pgTable(
  'organizations',
  {
    organizationId: serial('organization_id').primaryKey(),
    name: text('name').notNull(),
    /** Who created it (staff may create organizations, spec part 2 §6); kept when that user is gone. */
    createdBy: integer('created_by').references((): AnyPgColumn => users.userId, { onDelete: 'set null' }),
    tagline: text('tagline').notNull().default(''),
    /** The URL slug and the domain of the selection order (spec part 2 §4); lowercase, unique. */
    slug: text('slug'),
    domain: text('domain'),
    thumbnailFileId: integer('thumbnail_file_id').references((): AnyPgColumn => files.fileId, { onDelete: 'set null' }),
    /** The welcome video: an uploaded file or an external URL (the form's toggle), not both. */
    welcomeVideoFileId: integer('welcome_video_file_id').references((): AnyPgColumn => files.fileId, { onDelete: 'set null' }),
    welcomeVideoUrl: text('welcome_video_url'),
    stripePublic: text('stripe_public'),
    stripeSecretSealed: text('stripe_secret_sealed'),
    stripeWebhookSecretSealed: text('stripe_webhook_secret_sealed'),
    openaiApiKeySealed: text('openai_api_key_sealed'),
    /**
     * Its own web search (issue 32): a provider ('searxng' | 'brave' | 'tavily'), its URL and its key
     * (sealed), used for its members' searches in it instead of the operator's; null provider = the operator's.
     */
    webSearchProvider: text('web_search_provider'),
    webSearchUrl: text('web_search_url'),
    webSearchApiKeySealed: text('web_search_api_key_sealed'),
    /** Issue 33 item 2: its Admins must pass a second factor (TOTP or passkey) to use the admin routes. */
    requireTwoFactorAdmins: boolean('require_two_factor_admins').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('organizations_slug_unique').on(t.slug),
    uniqueIndex('organizations_domain_unique').on(t.domain),
    // GET /organizations/admin/all and the caller's list: by name, any case.
    index('organizations_lower_name_idx').on(sql`lower(${t.name})`, t.organizationId),
  ],
);

/** Membership: user_type_id 1 Admin, 2 Manager, 3 Member (spec part 2 §3 "User-organization"). */
export const userOrganizations = pgTable(
  'user_organizations',
  {
    userOrganizationId: serial('user_organization_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.organizationId, { onDelete: 'cascade' }),
    userTypeId: integer('user_type_id').notNull().default(3),
    lastUse: timestamp('last_use', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    // One membership per user and organization; it is also the index every request's resolution reads.
    uniqueIndex('user_organizations_member_unique').on(t.organizationId, t.userId),
    index('user_organizations_user_idx').on(t.userId),
    check('user_organizations_user_type_check', sql`${t.userTypeId} between 1 and 3`),
  ],
);

/**
 * An organization Admin's invitation of an existing account (issue 30 item 12): the account is no member
 * until it accepts (it sees its pending invitations after signing in); declining or the Admin revoking
 * deletes the row. One pending invitation per organization and account.
 */
export const organizationInvitations = pgTable(
  'organization_invitations',
  {
    invitationId: serial('invitation_id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.organizationId, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    userTypeId: integer('user_type_id').notNull().default(3),
    /** Who invited; kept as null when that account is gone. */
    invitedBy: integer('invited_by').references((): AnyPgColumn => users.userId, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('organization_invitations_unique').on(t.organizationId, t.userId),
    index('organization_invitations_user_idx').on(t.userId),
    check('organization_invitations_user_type_check', sql`${t.userTypeId} between 1 and 3`),
  ],
);

/** Uploaded files (avatars' pictures, knowledge, attachments…); users and organizations point at theirs. */
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
