// Auth requests and responses. zod messages are message keys (see messages.ts); each side translates them.
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH, SIGNUP_PHONE_PATTERN } from './constants';

const email = z
  .string({ error: 'invalid_email' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'invalid_email' }));

// spec part 1 §5: signup validation
export const signupRequest = z.object({
  name: z.string({ error: 'invalid_name' }).trim().min(1, { error: 'invalid_name' }).max(100, { error: 'invalid_name' }),
  last_name: z
    .string({ error: 'invalid_last_name' })
    .trim()
    .min(1, { error: 'invalid_last_name' })
    .max(100, { error: 'invalid_last_name' }),
  email,
  password: z
    .string({ error: 'invalid_password' })
    .min(PASSWORD_MIN_LENGTH, { error: 'invalid_password' })
    .max(200, { error: 'invalid_password' }),
  phone: z.string({ error: 'invalid_phone' }).trim().regex(SIGNUP_PHONE_PATTERN, { error: 'invalid_phone' }),
  signup_reason: z.string().trim().max(500).optional().nullable(),
  lang: z.enum(['en', 'es']).optional(),
});
export type SignupRequest = z.infer<typeof signupRequest>;

export const loginRequest = z.object({
  email,
  password: z.string({ error: 'invalid_password' }).min(1, { error: 'invalid_password' }).max(200),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const emailRequest = z.object({ email });
export const tokenRequest = z.object({ token: z.string().min(10).max(200) });
export const resetPasswordRequest = z.object({
  token: z.string().min(10).max(200),
  password: signupRequest.shape.password,
});
