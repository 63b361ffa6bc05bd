// The reasons an SSO callback sends the browser back to /login with (?sso_error=), each a message key. Zod-free:
// the login page reads them, and its first download must not bring the schema library (bench/bundle-size.mjs).
export const SSO_ERRORS = [
  'sso_state_invalid',
  'sso_failed',
  'sso_email_missing',
  'sso_email_unverified',
  'sso_signup_disabled',
  'sso_wrong_provider',
] as const;
export type SsoErrorKey = (typeof SSO_ERRORS)[number];
