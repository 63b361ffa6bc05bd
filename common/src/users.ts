// Current-user shape (spec part 1 §3 "User / customer") and profile updates.
import { z } from 'zod';
import { LANGUAGES, PROFILE_PHONE_MAX_DIGITS } from './constants';
import { id, isoDate, text } from './schema-kit';

export const staffRoleSchema = z.enum(['admin', 'manager']);

export const purchaseSummary = z.object({
  purchase_id: z.number(),
  status: z.string(),
  product_id: z.number().nullable(),
  product: z.object({ product_id: z.number(), name: z.string(), video_src: z.string().nullable() }).nullable(),
  createdAt: z.string(),
  expires_at: z.string(),
});

export const currentUser = z.object({
  user_id: z.number(),
  name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  company: z.string().nullable(),
  lang: z.enum(LANGUAGES),
  dark_mode: z.boolean(),
  birthday: z.string().nullable(),
  file_id: z.number().nullable(),
  picture: z.string().nullable(),
  signup_reason: z.string().nullable(),
  instagram: z.string().nullable(),
  has_access: z.boolean(),
  /** 1000000 means unlimited. */
  available_words: z.number(),
  staff: z.object({ staff_id: z.number(), role: staffRoleSchema }).nullable(),
  purchase: purchaseSummary.nullable(),
  default_organization: z.object({ organization_id: z.number() }).nullable(),
  createdAt: z.string(),
  /**
   * Two-factor state (issue 33): turned on, required of this account (staff admins), and whether this
   * sign-in passed it. Required and not passed: the back office stays shut until the user enrolls.
   */
  two_factor: z.object({ enabled: z.boolean(), required: z.boolean(), verified: z.boolean() }),
  /**
   * Only in GET /users of a session a staff admin opened with "log in as the user": who that admin is, so
   * the web shows its "Viewing as" bar.
   */
  impersonated_by: z.object({ user_id: z.number(), name: z.string(), email: z.string() }).optional(),
});
export type CurrentUser = z.infer<typeof currentUser>;

export const authResponse = z.object({ token: z.string(), user: currentUser });
export type AuthResponse = z.infer<typeof authResponse>;

/**
 * What POST /auth/login answers: a session, or — for an account with two-factor on, from a device that
 * does not remember it — a short-lived challenge to finish at POST /auth/two-factor/verify.
 */
export const secondFactorMethod = z.enum(['totp', 'passkey']);
export type SecondFactorMethod = z.infer<typeof secondFactorMethod>;
/** methods: the second factors the account has (a TOTP app, passkeys), so the step offers the right ones. */
export const signInChallenge = z.object({ two_factor_required: z.literal(true), challenge: z.string(), methods: z.array(secondFactorMethod).optional() });
export type SignInChallenge = z.infer<typeof signInChallenge>;
export const loginResponse = z.union([authResponse, signInChallenge]);
export type LoginResponse = z.infer<typeof loginResponse>;

/** spec part 1 §5: profile phone is stripped to digits and cut to 10 characters. */
export function normalizeProfilePhone(phone: string): string {
  return phone.replace(/\D/g, '').slice(0, PROFILE_PHONE_MAX_DIGITS);
}

export const updateProfileRequest = z.object({
  name: text().trim().min(1, { error: 'invalid_name' }).max(100).optional(),
  last_name: text().trim().max(100).optional(),
  phone: text().max(40).transform(normalizeProfilePhone).optional().nullable(),
  company: text().trim().max(200).optional().nullable(),
  lang: z.enum(LANGUAGES).optional(),
  dark_mode: z.boolean().optional(),
  birthday: isoDate().optional().nullable(),
  instagram: text().trim().max(100).optional().nullable(),
  file_id: id().optional().nullable(),
});
export type UpdateProfileRequest = z.infer<typeof updateProfileRequest>;

/** Staff lookups by email or phone (spec part 1 §7: GET /users/email, GET /users/phone). */
export const userSummary = z.object({
  user_id: z.number(),
  name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
});
export type UserSummary = z.infer<typeof userSummary>;

export const phoneLookupQuery = z.object({
  phone: text({ error: 'invalid_phone' }).trim().min(1, { error: 'invalid_phone' }).max(40, { error: 'invalid_phone' }),
});
