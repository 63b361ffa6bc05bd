// Phone sign-in with a one-time SMS code (issue 33 item 1; spec part 1 §7 "phone sign-in", §8 the message
// for an unknown number). Requests, responses and the limits both sides show.
import { z } from 'zod';
import { text } from './schema-kit';

/** A code lives 10 minutes, takes at most 5 wrong tries, and is good once. */
export const PHONE_CODE_LENGTH = 6;
export const PHONE_CODE_TTL_MS = 10 * 60 * 1000;
export const PHONE_CODE_MAX_TRIES = 5;
/** A new code for the same number no sooner than this (the resend countdown). */
export const PHONE_CODE_RESEND_MS = 30 * 1000;

/**
 * spec part 1 §5's phone rule (optional plus, 3 digits, 3 digits, then 4 to 6 digits) with the separators
 * anywhere: the number a user typed when signing up, in any spelling.
 */
export function isSignInPhone(value: string): boolean {
  return /^\+?\d{10,12}$/.test(value.replace(/[\s.\-()]/g, ''));
}

const phone = text({ error: 'invalid_phone' })
  .trim()
  .max(40, { error: 'invalid_phone' })
  .refine(isSignInPhone, { error: 'invalid_phone' });

export const phoneStartRequest = z.object({ phone, lang: z.enum(['en', 'es']).optional() });
export type PhoneStartRequest = z.infer<typeof phoneStartRequest>;

export const phoneStartResponse = z.object({
  /** Seconds until the code expires. */
  expires_in: z.number(),
  /** Seconds until another code may be asked for. */
  resend_in: z.number(),
});
export type PhoneStartResponse = z.infer<typeof phoneStartResponse>;

export const phoneVerifyRequest = z.object({
  phone,
  code: text({ error: 'phone_code_invalid' })
    .trim()
    .regex(/^\d{6}$/, { error: 'phone_code_invalid' }),
  /** Tokens of devices that remember a passed second factor (as for the password sign-in). */
  device_tokens: z.array(z.string().max(200)).max(10).optional(),
});
export type PhoneVerifyRequest = z.infer<typeof phoneVerifyRequest>;

/** GET /api/admin/sms-outbox: the text messages the server wrote (sent, or kept without a provider). */
export const smsOutboxItem = z.object({
  sms_id: z.number(),
  to: z.string(),
  text: z.string(),
  kind: z.string(),
  status: z.string(),
  provider: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type SmsOutboxItem = z.infer<typeof smsOutboxItem>;
