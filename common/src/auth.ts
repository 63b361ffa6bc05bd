// Auth requests and responses. zod messages are message keys (see messages.ts); each side translates them.
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH, SIGNUP_PHONE_PATTERN } from './constants';
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

export const loginRequest = z.object({
  email,
  // Taken as typed (any character): a password is compared, never stored or shown.
  password: z.string({ error: 'invalid_password' }).min(1, { error: 'invalid_password' }).max(200),
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
