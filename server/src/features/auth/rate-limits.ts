// Rate limits of the auth and recovery endpoints. Per-route, per-IP limits use @fastify/rate-limit
// (app.ts registers it with the Redis store when REDIS_URL is set, so the counts hold across nodes);
// the per-account and per-address limits below use account-limits.ts (Redis, else this process).
// docs/configuration.md "Sign-in limits" lists these numbers.
export const MINUTE_MS = 60_000;
/** Sign-up and recovery: 5 a minute per IP. */
export const SIGNUP_RECOVERY_PER_MINUTE = 5;
/** Token refresh: generous, since every open tab refreshes. */
export const REFRESH_PER_MINUTE = 60;

/**
 * Per account, from any address: the first 5 wrong passwords in an hour cost nothing; each further one
 * makes the account wait before the next try from an unknown address: 15 s, 30 s, 1 min, 2 min, 4 min,
 * then 5 min at most. A victim is never locked out for longer than 5 minutes after the last wrong try,
 * and not at all on an address they signed in from in the last 30 days (KNOWN_ADDRESS_MS), while an
 * attacker spread over many addresses gets about 20 guesses an hour per account.
 */
export const ACCOUNT_FREE_FAILURES = 5;
export const ACCOUNT_FAILURE_WINDOW_MS = 60 * MINUTE_MS;
export const ACCOUNT_FIRST_DELAY_MS = 15_000;
export const ACCOUNT_MAX_DELAY_MS = 5 * MINUTE_MS;
/** An address that signed in to the account this recently skips the account's delay. */
export const KNOWN_ADDRESS_MS = 30 * 24 * 60 * MINUTE_MS;

/** Per address, across accounts (credential stuffing): 30 wrong sign-ins in 15 minutes block that address for the rest of the 15 minutes. */
export const ADDRESS_MAX_FAILURES = 30;
export const ADDRESS_FAILURE_WINDOW_MS = 15 * MINUTE_MS;

/**
 * Passkey sign-in options per address: each call stores a challenge (one_time_tokens) before anyone is known,
 * so besides the per-minute limit an address gets 30 in 15 minutes (a person needs one per sign-in).
 */
export const PASSKEY_OPTIONS_PER_ADDRESS = 30;
export const PASSKEY_OPTIONS_WINDOW_MS = 15 * MINUTE_MS;

/** Reset mails per account, from any address: 3 in 15 minutes (no mail-bombing; earlier links stay valid). */
export const RECOVERY_PER_ACCOUNT = 3;
export const RECOVERY_WINDOW_MS = 15 * MINUTE_MS;

/** The wait after the n-th failure of an account's window (0 while within the free ones). */
export function accountDelayMs(failures: number): number {
  if (failures <= ACCOUNT_FREE_FAILURES) return 0;
  return Math.min(ACCOUNT_FIRST_DELAY_MS * 2 ** (failures - ACCOUNT_FREE_FAILURES - 1), ACCOUNT_MAX_DELAY_MS);
}
