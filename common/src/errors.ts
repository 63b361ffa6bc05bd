// Error ids shared by server and web. The JSON body of every error is { error, message, ... }.
export const ErrorIds = {
  validation: 'validation_error',
  unauthenticated: 'unauthenticated',
  tokenExpired: 'auth/id-token-expired',
  forbidden: 'forbidden',
  notFound: 'not_found',
  /** A feature whose app setting is off (avatars_enabled, templates_enabled...): 404, it does not exist. */
  featureDisabled: 'feature_disabled',
  conflict: 'conflict',
  emailExists: 'email_exists',
  invalidCredentials: 'invalid_credentials',
  signupDisabled: 'signup_disabled',
  premium: 'premium_required',
  insufficientFunds: 'insufficient_funds',
  rateLimited: 'rate_limited',
  tooLarge: 'payload_too_large',
  exportTooComplex: 'export_too_complex',
  exportBusy: 'export_busy',
  /** A file could not be read (issue 27): too large when expanded, too deep, damaged...; the message says which. */
  fileUnreadable: 'file_unreadable',
  ingestionBusy: 'ingestion_busy',
  unsupportedFile: 'unsupported_file',
  configKeyUnknown: 'config_key_unknown',
  configValueInvalid: 'config_value_invalid',
  outboundRefused: 'outbound_url_refused',
  outboundFailed: 'outbound_request_failed',
  resetTokenInvalid: 'reset_token_invalid',
  signInTokenInvalid: 'sign_in_token_invalid',
  /** Two-factor (issue 33): a wrong, expired or reused code; a sign-in step that expired; a staff admin without one. */
  twoFactorCodeInvalid: 'two_factor_code_invalid',
  twoFactorChallengeInvalid: 'two_factor_challenge_invalid',
  twoFactorRequired: 'two_factor_required',
  reauthenticationRequired: 'reauthentication_required',
  // Single sign-on (issue 33 item 4)
  ssoRequired: 'sso_required',
  ssoCodeInvalid: 'sso_code_invalid',
  ssoDiscoveryFailed: 'sso_discovery_failed',
  ssoDomainMissing: 'sso_domain_missing',
  /** Passkeys (issue 33): an assertion or attestation that does not verify; a used or expired WebAuthn challenge. */
  passkeyInvalid: 'passkey_invalid',
  passkeyChallengeInvalid: 'passkey_challenge_invalid',
  mailFailed: 'mail_failed',
  /** Phone sign-in (issue 33 item 1): a wrong, expired or used code; a text message that could not be sent. */
  phoneCodeInvalid: 'phone_code_invalid',
  smsFailed: 'sms_failed',
  provider: 'provider_error',
  internal: 'internal_error',
} as const;
export type ErrorId = (typeof ErrorIds)[keyof typeof ErrorIds];

export interface ApiErrorBody {
  error: string;
  message: string;
  /** Per-field messages for 400 validation errors. */
  details?: Record<string, string>;
  requestId?: string;
  /** AI-provider failures name the provider and its own code. */
  provider?: string;
  code?: string | number;
}
