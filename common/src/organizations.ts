// Organizations (spec part 2 §2 "Organizations, groups, campaigns", §3 Organization / User-organization /
// Organization user row, §5, §6, §7 "Organizations"): requests and responses of /api/organizations.
// Rights per role: docs/decisions.md "Organizations".
import { z } from 'zod';
import { ORGANIZATION_ROLES } from './constants';
import { id, idParam, isoDate, text } from './schema-kit';

export const ORGANIZATIONS_PAGE_SIZE = 50;
export const ORGANIZATION_MEMBERS_PAGE_SIZE = 50;
export const ORGANIZATION_NAME_MAX = 200;
export const ORGANIZATION_TAGLINE_MAX = 300;
export const ORGANIZATION_SECRET_MAX = 500;

/** spec part 2 §9: user types 1 Admin, 2 Manager, 3 Member. */
export const USER_TYPE_IDS = { admin: 1, manager: 2, member: 3 } as const;
export const organizationRole = z.enum(['admin', 'manager', 'member']);
export type OrganizationRoleName = z.infer<typeof organizationRole>;
export const userTypeId = z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'organization_user_type_invalid' });
export const roleOfUserType = (typeId: number) => ORGANIZATION_ROLES[typeId as keyof typeof ORGANIZATION_ROLES];

/** What the actor may do with an organization (presenters carry them; the web shows only these). */
export const ORGANIZATION_ACTIONS = ['read', 'update', 'delete', 'view_users', 'manage_users', 'manage_groups', 'view_analytics'] as const;
export type OrganizationAction = (typeof ORGANIZATION_ACTIONS)[number];
export const organizationAbilities = z.object(Object.fromEntries(ORGANIZATION_ACTIONS.map((a) => [a, z.boolean()])) as Record<OrganizationAction, z.ZodBoolean>);

/** The Organization entity (spec part 2 §3). Secrets are present (masked) only for who may update it. */
export const organization = z.object({
  organization_id: z.number(),
  name: z.string(),
  tagline: z.string(),
  /** Lowercase letters, digits and dashes: the URL slug of the selection order (spec part 2 §4). */
  slug: z.string().nullable(),
  domain: z.string().nullable(),
  /** URL of the thumbnail (a public image at /api/files/{name}.{type}), or null. */
  thumbnail: z.string().nullable(),
  thumbnail_file_id: z.number().nullable(),
  /** What to play: the uploaded video's URL (members only) or the external URL; null when none. */
  welcome_video: z.string().nullable(),
  welcome_video_file_id: z.number().nullable(),
  welcome_video_url: z.string().nullable(),
  /** The payment provider's publishable key (not a secret: checkout in the browser needs it). */
  stripe_public: z.string().nullable(),
  /** Issue 33 item 2: its Admins need a second factor (TOTP or a passkey) for its admin routes. */
  require_two_factor_admins: z.boolean(),
  /** Masked to the last 4 characters ('' when unset); only for who may update the organization. */
  stripe_secret: z.string().optional(),
  stripe_webhook_secret: z.string().optional(),
  openai_api_key: z.string().optional(),
  /**
   * Its own web search (issue 32), only for who may update it: the provider ('' = the operator's), its URL,
   * and its key masked like the other secrets.
   */
  web_search_provider: z.string().optional(),
  web_search_url: z.string().optional(),
  web_search_api_key: z.string().optional(),
  /** For every member: it has a web search provider of its own (the composer offers the globe in it). */
  web_search: z.boolean().optional(),
  /** The caller's role here; null for staff overseeing an organization they are not a member of. */
  role: organizationRole.nullable(),
  user_type_id: z.number().nullable(),
  members_count: z.number(),
  createdAt: z.string(),
  abilities: organizationAbilities,
});
export type Organization = z.infer<typeof organization>;

export const organizationList = z.object({ organizations: z.array(organization), total: z.number() });
export type OrganizationList = z.infer<typeof organizationList>;

export const organizationListQuery = z.object({
  /** Part of the name, any case. */
  query: text().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type OrganizationListQuery = z.input<typeof organizationListQuery>;

export const organizationIdParams = z.object({ id: idParam() });

const name = text({ error: 'organization_name_required' })
  .trim()
  .min(1, { error: 'organization_name_required' })
  .max(ORGANIZATION_NAME_MAX);
const optionalText = (max: number) => text().trim().max(max);
/** '' clears; a masked value ('••…', as the form shows it) leaves the stored secret unchanged. */
const secret = text().trim().max(ORGANIZATION_SECRET_MAX);
const slug = text({ error: 'organization_slug_invalid' })
  .trim()
  .toLowerCase()
  .max(60, { error: 'organization_slug_invalid' })
  .regex(/^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)?$/, { error: 'organization_slug_invalid' });
/** A host name like teams.example.com ('' clears). */
const domain = text({ error: 'organization_domain_invalid' })
  .trim()
  .toLowerCase()
  .max(253, { error: 'organization_domain_invalid' })
  .regex(/^(?:(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})?$/, { error: 'organization_domain_invalid' });
/** http(s) only; '' clears. */
const videoUrl = text({ error: 'organization_video_url_invalid' })
  .trim()
  .max(2000, { error: 'organization_video_url_invalid' })
  .regex(/^(?:https?:\/\/[^\s]+)?$/i, { error: 'organization_video_url_invalid' });

/** Its own web search provider (issue 32); '' = the operator's. */
const webSearchProvider = z.enum(['', 'searxng', 'brave', 'tavily'], { error: 'organization_web_search_invalid' });
const webSearchUrl = text({ error: 'organization_web_search_url_invalid' })
  .trim()
  .max(2000, { error: 'organization_web_search_url_invalid' })
  .regex(/^(?:https?:\/\/[^\s]+)?$/i, { error: 'organization_web_search_url_invalid' });

/**
 * The settings form's fields besides the name. The thumbnail is a file uploaded with POST /files as a public
 * image (`public=true`); the welcome video is either a video file uploaded with POST /files, or an http(s)
 * URL (the form's toggle) — setting one clears the other.
 */
const settingsFields = {
  tagline: optionalText(ORGANIZATION_TAGLINE_MAX).optional(),
  slug: slug.optional(),
  domain: domain.optional(),
  stripe_public: optionalText(ORGANIZATION_SECRET_MAX).optional(),
  stripe_secret: secret.optional(),
  stripe_webhook_secret: secret.optional(),
  openai_api_key: secret.optional(),
  web_search_provider: webSearchProvider.optional(),
  web_search_url: webSearchUrl.optional(),
  web_search_api_key: secret.optional(),
  thumbnail_file_id: id().nullable().optional(),
  welcome_video_file_id: id().nullable().optional(),
  welcome_video_url: videoUrl.nullable().optional(),
  /** Issue 33 item 2: its Admins must pass a second factor (TOTP or a passkey) to use the admin routes. */
  require_two_factor_admins: z.boolean().optional(),
};

/**
 * POST /organizations (staff): the creator becomes its Admin. Every field of the form can be given at
 * creation (spec part 2 §2 "Organization form"; issue 30 item 20).
 */
export const createOrganizationRequest = z.object({ name, ...settingsFields });
export type CreateOrganizationRequest = z.input<typeof createOrganizationRequest>;

/** POST /organizations/update (the settings form). Fields left out are unchanged. */
export const updateOrganizationRequest = z.object({ organization_id: id(), name, ...settingsFields });
export type UpdateOrganizationRequest = z.input<typeof updateOrganizationRequest>;

/** DELETE /organizations/{id}: confirmed by typing the exact name (spec part 2 §5), in the body or the query. */
export const deleteOrganizationConfirmation = z.object({ name: text().max(ORGANIZATION_NAME_MAX + 50).optional() });
export const deletedResponse = z.object({ deleted: z.literal(true) });

// ---- Members (spec part 2 §2 "Organization admin user table", "User form", "User detail")

/** Date range of the words and LTV columns, inclusive days (the web defaults to the current month, §9). */
export const organizationUsersQuery = z.object({
  query: text().trim().max(200).optional(),
  start_date: isoDate().optional(),
  end_date: isoDate().optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type OrganizationUsersQuery = z.input<typeof organizationUsersQuery>;

/** spec part 2 §3 "Organization user row". */
export const organizationUserRow = z.object({
  user_organization_id: z.number(),
  user_id: z.number(),
  name: z.string(),
  last_name: z.string(),
  email: z.string(),
  role: organizationRole,
  user_type_id: z.number(),
  /** The table's Total Words: words charged to the user within the date range. */
  total_words: z.number(),
  /** Every word ever charged to the user. */
  word_count: z.number(),
  /** Last use of the organization; null: 'Not used yet'. */
  last_used: z.string().nullable(),
  /** Dollars paid for this organization's products within the date range. */
  ltv: z.number(),
});
export type OrganizationUserRow = z.infer<typeof organizationUserRow>;

export const organizationUsersResponse = z.object({ users: z.array(organizationUserRow), total: z.number() });
export type OrganizationUsersResponse = z.infer<typeof organizationUsersResponse>;

export const organizationUserParams = z.object({ orgId: idParam(), userId: idParam() });

/** GET /organizations/{orgId}/users/{userId}: the customer card, Total Words and Last use. */
export const organizationUserDetail = z.object({
  user_organization_id: z.number(),
  user_id: z.number(),
  name: z.string(),
  last_name: z.string(),
  email: z.string(),
  picture: z.string().nullable(),
  role: organizationRole,
  user_type_id: z.number(),
  /** All words charged to the user. */
  total_words: z.number(),
  /** Dollars paid for this organization's products, all time. */
  ltv: z.number(),
  last_use: z.string().nullable(),
  /** When the user joined the organization. */
  createdAt: z.string(),
  groups: z.array(z.object({ group_id: z.number(), name: z.string() })),
});
export type OrganizationUserDetail = z.infer<typeof organizationUserDetail>;

const email = z.string({ error: 'invalid_email' }).trim().toLowerCase().pipe(z.email({ error: 'invalid_email' }).max(200, { error: 'invalid_email' }));

/**
 * POST /organizations/users (Admin): an existing user by `user_id` or `email`, or a new account for an
 * unknown `email` (named `name`, else after the email) that gets the password-recovery email (spec §4).
 */
export const addOrganizationUserRequest = z
  .object({
    organization_id: id(),
    user_id: id().optional(),
    email: email.optional(),
    name: text({ error: 'invalid_name' }).trim().max(100, { error: 'invalid_name' }).optional(),
    last_name: text({ error: 'invalid_last_name' }).trim().max(100, { error: 'invalid_last_name' }).optional(),
    user_type_id: userTypeId,
  })
  .refine((v) => v.user_id !== undefined || v.email !== undefined, { error: 'organization_user_required', path: ['email'] });
export type AddOrganizationUserRequest = z.input<typeof addOrganizationUserRequest>;
export type AddOrganizationUser = z.infer<typeof addOrganizationUserRequest>;

/** PUT /organizations/users (Admin): the member's role. */
export const updateOrganizationUserRequest = z.object({ organization_id: id(), user_id: id(), user_type_id: userTypeId });
export type UpdateOrganizationUserRequest = z.input<typeof updateOrganizationUserRequest>;

export const organizationUserSaved = z.object({
  /** null while the invitation is pending. */
  user_organization_id: z.number().nullable(),
  organization_id: z.number(),
  user_id: z.number(),
  user_type_id: z.number(),
  role: organizationRole,
  /** True when the account was created by this call (it was sent the recovery email). */
  invited: z.boolean(),
  /**
   * True when an existing account was invited (issue 30 item 12): it is no member until it accepts, and its
   * name stays its own ('' here) until then.
   */
  pending: z.boolean(),
  invitation_id: z.number().nullable(),
  user: z.object({ user_id: z.number(), name: z.string(), last_name: z.string(), email: z.string() }),
});
export type OrganizationUserSaved = z.infer<typeof organizationUserSaved>;

// ---- Invitations (issue 30 item 12): an Admin invites an existing account; it accepts or declines.

export const invitationIdParams = z.object({ id: idParam() });
export const organizationInvitationParams = z.object({ orgId: idParam(), invitationId: idParam() });

/** GET /organizations/invitations: the signed-in account's pending invitations. */
export const myOrganizationInvitation = z.object({
  invitation_id: z.number(),
  organization_id: z.number(),
  organization_name: z.string(),
  /** URL of the organization's thumbnail, or null. */
  thumbnail: z.string().nullable(),
  role: organizationRole,
  /** The inviter's name ('' when that account is gone). */
  inviter: z.string(),
  createdAt: z.string(),
});
export type MyOrganizationInvitation = z.infer<typeof myOrganizationInvitation>;
export const myOrganizationInvitations = z.object({ invitations: z.array(myOrganizationInvitation) });

/** GET /organizations/{id}/invitations (Admin): who was invited and has not answered yet. */
export const pendingOrganizationInvitation = z.object({
  invitation_id: z.number(),
  email: z.string(),
  role: organizationRole,
  user_type_id: z.number(),
  createdAt: z.string(),
});
export type PendingOrganizationInvitation = z.infer<typeof pendingOrganizationInvitation>;
export const pendingOrganizationInvitations = z.object({ invitations: z.array(pendingOrganizationInvitation) });

/** POST /organizations/invitations/{id}/accept: the membership it became. */
export const acceptedInvitation = z.object({ organization_id: z.number(), role: organizationRole, user_type_id: z.number() });

export const removeOrganizationUserParams = z.object({ orgId: idParam(), userId: idParam() });

export const resetLinkResponse = z.object({ link: z.string() });
export const messageResponse = z.object({ message: z.string() });

// ---- Organization analytics (spec part 2 §2 "Organization analytics"; §3 "Analytics rows")

export const ORGANIZATION_ANALYTICS_LIST_LIMIT = 100;

export const organizationAnalyticsQuery = z.object({ start_date: isoDate().optional(), end_date: isoDate().optional() });
export type OrganizationAnalyticsQuery = z.input<typeof organizationAnalyticsQuery>;

/** One customer of an expandable list: last used, used words (in the range), and for cancelled the reason. */
export const organizationAnalyticsCustomer = z.object({
  user_id: z.number(),
  name: z.string(),
  last_name: z.string(),
  email: z.string(),
  /** When they joined (sign-ups), bought (active) or cancelled (cancelled). */
  date: z.string(),
  last_used: z.string().nullable(),
  used_words: z.number(),
  cancel_reason: z.string().nullable(),
});
export type OrganizationAnalyticsCustomer = z.infer<typeof organizationAnalyticsCustomer>;

const customerCard = z.object({ count: z.number(), users: z.array(organizationAnalyticsCustomer) });

/** GET /organizations/{id}/analytics: the range (default the current month), the cards, products and months. */
export const organizationAnalytics = z.object({
  start_date: z.string(),
  end_date: z.string(),
  /** Users who joined the organization in the range. */
  signups: customerCard,
  /** Members with a purchase of the organization's products that gives access (active, completed) made in the range. */
  active: customerCard,
  /** Members whose purchase of the organization's products was cancelled in the range. */
  cancelled: customerCard,
  /** Purchases by product (bought: active, completed, cancelled) in the range; the donut shares total_paid. */
  products: z.array(z.object({ product_id: z.number().nullable(), name: z.string().nullable(), purchases: z.number(), total_paid: z.number() })),
  total_paid: z.number(),
  /** Per calendar month (YYYY-MM, UTC) of the range: sign-ups, purchases (total) and income (total_paid). */
  months: z.array(z.object({ month: z.string(), signups: z.number(), total: z.number(), total_paid: z.number() })),
});
export type OrganizationAnalytics = z.infer<typeof organizationAnalytics>;
