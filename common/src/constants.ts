// The spec's limits and constants (part 1 §9, part 2 §9).
export const UNLIMITED_WORDS = 1_000_000;
export const LANGUAGES = ['en', 'es'] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANG: Lang = 'en';

export const PASSWORD_MIN_LENGTH = 6;
export const CANCEL_REASON_MIN_LENGTH = 10;
export const PROFILE_PHONE_MAX_DIGITS = 10;
/** Optional plus, 3 digits, 3 digits, then 4 to 6 digits (separators allowed between groups). */
export const SIGNUP_PHONE_PATTERN = /^\+?\d{3}[\s.-]?\d{3}[\s.-]?\d{4,6}$/;
export const SIGNUP_REASONS = ['Recommendation', 'Facebook Ad', 'Instagram Ad', 'Other'] as const;

export const STAFF_ROLES = ['admin', 'manager'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Roles in an organization by user_type_id (spec part 2 §3 "User-organization": 1 Admin, 2 Manager, 3 Member). */
export const ORGANIZATION_ROLES = { 1: 'admin', 2: 'manager', 3: 'member' } as const;
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[keyof typeof ORGANIZATION_ROLES];

export const TOKEN_REFRESH_THRESHOLD_MS = 15 * 60 * 1000;
export const PENDING_UID_LIFETIME_MS = 5 * 60 * 1000;
export const ONE_TIME_SIGN_IN_TOKEN_MS = 5 * 60 * 1000;
export const RESET_PASSWORD_TOKEN_MS = 60 * 60 * 1000;
/** The second step of a sign-in with two-factor on: the challenge lives 5 minutes (issue 33). */
export const TWO_FACTOR_CHALLENGE_MS = 5 * 60 * 1000;
/** A browser that passed the second factor and asked to be remembered skips it for 30 days. */
export const TWO_FACTOR_DEVICE_MS = 30 * 24 * 60 * 60 * 1000;
/** A WebAuthn challenge (registering or signing in with a passkey) lives 5 minutes, and is used once. */
export const PASSKEY_CHALLENGE_MS = 5 * 60 * 1000;
/** A user names each passkey ("Work laptop") so they can tell them apart in /settings. */
export const PASSKEY_NAME_MAX = 60;
export const REQUEST_RETRIES = 3;
export const REQUEST_RETRY_DELAY_MS = 3000;
export const ALERT_MS = 5000;
export const SUCCESS_MS = 3000;
export const LOADING_REDIRECT_HINT_MS = 30_000;
export const SETTINGS_UNLOCK_TIMEOUT_MS = 10_000;
export const MASKED_VISIBLE_CHARS = 4;

export const ADMIN_PURCHASES_PAGE_SIZE = 12;
export const CUSTOMERS_PAGE_SIZE = 50;
export const SEARCH_DEBOUNCE_MS = 500;

export const MAX_CONVERSATION_TOKENS = 7500;
export const MAX_AVATAR_TOKENS = 7500;
export const ENHANCE_MIN_CHARS = 12;
export const TOKEN_COUNTER_DEBOUNCE_MS = 1000;
export const CONVERSATION_SORT_KEYS = ['createdAt_desc', 'updatedAt_desc', 'name_asc', 'name_desc'] as const;
export type ConversationSortKey = (typeof CONVERSATION_SORT_KEYS)[number];

// Chat limits (spec part 2 §9). Here, without zod, so the web's first screens can read them cheaply;
// conversations.ts and messages-api.ts re-export them beside their schemas.
export const CONVERSATIONS_PAGE_SIZE = 50;
export const CONVERSATIONS_MAX_PAGE_SIZE = 100;
export const CONVERSATION_NAME_MAX = 200;
export const CONVERSATION_TAG_MAX = 50;
export const CONVERSATION_MAX_TAGS = 30;
export const MESSAGES_PAGE_SIZE = 20;
export const MESSAGES_MAX_PAGE_SIZE = 100;
/** Hard cap on one prompt's characters; the token rule (7500 ≈ 30000 characters) refuses long ones first. */
export const MESSAGE_CONTENT_MAX_CHARS = 200_000;
export const EXPORT_TEXT_MAX_CHARS = 500_000;
/** The actor's messages across conversations (GET /messages?filters). */
export const MESSAGE_SEARCH_MAX_CHARS = 200;
export const MESSAGE_LIST_MAX_PAGE_SIZE = 50;
export const MESSAGE_LIST_PAGE_SIZE = 20;
