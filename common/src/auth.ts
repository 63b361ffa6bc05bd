// Auth requests and responses. zod messages are message keys (see messages.ts); each side translates them.
import { z } from 'zod';
import { PASSKEY_NAME_MAX, PASSWORD_MIN_LENGTH, SIGNUP_PHONE_PATTERN } from './constants';
import { text } from './schema-kit';

const email = z
  .string({ error: 'invalid_email' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'invalid_email' }));

// spec part 1 §5: signup validation
export const signupRequest = z.object({
  name: text({ error: 'invalid_name' }).trim().min(1, { error: 'invalid_name' }).max(100, { error: 'invalid_name' }),
  last_name: text({ error: 'invalid_last_name' })
    .trim()
    .min(1, { error: 'invalid_last_name' })
    .max(100, { error: 'invalid_last_name' }),
  email,
  password: text({ error: 'invalid_password' })
    .min(PASSWORD_MIN_LENGTH, { error: 'invalid_password' })
    .max(200, { error: 'invalid_password' }),
  phone: text({ error: 'invalid_phone' }).trim().regex(SIGNUP_PHONE_PATTERN, { error: 'invalid_phone' }),
  signup_reason: text().trim().max(500).optional().nullable(),
  lang: z.enum(['en', 'es']).optional(),
});
export type SignupRequest = z.infer<typeof signupRequest>;

/** Tokens of devices that remember a passed second factor (issue 33), as the browser keeps them. */
const deviceTokens = z.array(z.string().max(200)).max(10).optional();

export const loginRequest = z.object({
  email,
  // Taken as typed (any character): a password is compared, never stored or shown.
  password: z.string({ error: 'invalid_password' }).min(1, { error: 'invalid_password' }).max(200),
  device_tokens: deviceTokens,
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const emailRequest = z.object({ email });
export type EmailRequest = z.infer<typeof emailRequest>;

/** A one-time token: sign-in (staff "log in as user", pending uid) or password reset. */
const oneTimeToken = (messageKey: 'sign_in_token_invalid' | 'reset_token_invalid') =>
  text({ error: messageKey }).trim().min(10, { error: messageKey }).max(200, { error: messageKey });

export const tokenRequest = z.object({ token: oneTimeToken('sign_in_token_invalid') });
export type TokenRequest = z.infer<typeof tokenRequest>;

export const resetPasswordRequest = z.object({
  token: oneTimeToken('reset_token_invalid'),
  password: signupRequest.shape.password,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

export const changePasswordRequest = z.object({
  current_password: z.string({ error: 'current_password_invalid' }).min(1, { error: 'current_password_invalid' }).max(200),
  password: signupRequest.shape.password,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

/** spec part 1 §8: recovery success text, translated. */
export const messageResponse = z.object({ message: z.string() });
export const resetLinkResponse = z.object({ link: z.string() });

// Two-factor (issue 33 item 2): TOTP codes are 6 digits; recovery codes 10 characters (xxxxx-xxxxx).
const secondFactorCode = text({ error: 'two_factor_code_invalid' })
  .trim()
  .min(6, { error: 'two_factor_code_invalid' })
  .max(20, { error: 'two_factor_code_invalid' });

export const twoFactorVerifyRequest = z.object({
  challenge: text({ error: 'two_factor_challenge_invalid' }).min(10, { error: 'two_factor_challenge_invalid' }).max(200),
  code: secondFactorCode,
  /** Remember this browser for TWO_FACTOR_DEVICE_MS: its next sign-ins skip the code. */
  remember_device: z.boolean().optional(),
});
export type TwoFactorVerifyRequest = z.infer<typeof twoFactorVerifyRequest>;

export const twoFactorSetupResponse = z.object({
  /** The base32 secret, for typing into an app that cannot scan. */
  secret: z.string(),
  otpauth_url: z.string(),
  /** The otpauth URL as an SVG QR code. */
  qr_svg: z.string(),
});

export const twoFactorConfirmRequest = z.object({ code: secondFactorCode, remember_device: z.boolean().optional() });

export const twoFactorEnabledResponse = z.object({
  /** Shown once: they are stored hashed. */
  recovery_codes: z.array(z.string()),
  device_token: z.string().optional(),
});

export const twoFactorDisableRequest = z.object({ code: secondFactorCode });

export const twoFactorStatus = z.object({
  enabled: z.boolean(),
  required: z.boolean(),
  verified: z.boolean(),
  recovery_codes_left: z.number(),
});

// Passkeys (WebAuthn, issue 33 item 3). The browser's credential JSON (@simplewebauthn/browser) goes to the
// server as it is; the server's @simplewebauthn checks it, so here only its outer shape is held.
export const webAuthnCredential = z.looseObject({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().min(1).max(8192) }),
});
export const passkeyName = text({ error: 'passkey_name_invalid' }).trim().min(1, { error: 'passkey_name_invalid' }).max(PASSKEY_NAME_MAX);
export const passkeyRegisterRequest = z.object({ name: passkeyName, credential: webAuthnCredential });
export const passkeyRenameRequest = z.object({ name: passkeyName });
export const passkeySignInRequest = z.object({ credential: webAuthnCredential });
export const passkeyTwoFactorOptionsRequest = z.object({ challenge: twoFactorVerifyRequest.shape.challenge });
export const passkeyTwoFactorRequest = z.object({
  challenge: twoFactorVerifyRequest.shape.challenge,
  credential: webAuthnCredential,
  remember_device: z.boolean().optional(),
});
/** The options @simplewebauthn/browser's startRegistration/startAuthentication take (optionsJSON). */
export const webAuthnOptions = z.record(z.string(), z.unknown());
export const passkeyView = z.object({
  passkey_id: z.number(),
  name: z.string(),
  createdAt: z.string(),
  last_used_at: z.string().nullable(),
});
export type PasskeyView = z.infer<typeof passkeyView>;
export const passkeyList = z.object({ passkeys: z.array(passkeyView) });
