// Limits of phone sign-in (issue 33 item 1: "rate limited per number and per address"), on top of the
// routes' per-IP limit (RATE_LIMIT_AUTH_PER_MINUTE). Kept in the attempt store (Redis when REDIS_URL is
// set, so every node counts the same). docs/configuration.md "Sign-in limits" lists these numbers.
//   - per address: 20 code requests in 15 minutes, whatever the numbers (no walking the phone book), and
//     30 wrong codes in 15 minutes across accounts;
//   - per number: one code every 30 seconds (the resend countdown) and 5 in an hour (no SMS bombing);
//   - per account: 5 wrong codes in 15 minutes (two-factor/code-limits-http.ts), and each code dies after
//     5 wrong tries (service.ts).
import { PHONE_CODE_RESEND_MS } from '@pluma/common/phone-sign-in';
import type { AppContext } from '../../../context';
import { accountLimits } from '../account-limits';
import { MINUTE_MS } from '../rate-limits';

export const PHONE_STARTS_PER_ADDRESS = 20;
export const PHONE_STARTS_WINDOW_MS = 15 * MINUTE_MS;
export const PHONE_SENDS_PER_NUMBER = 5;
export const PHONE_SENDS_WINDOW_MS = 60 * MINUTE_MS;
export const PHONE_FAILURES_PER_ADDRESS = 30;
export const PHONE_FAILURES_WINDOW_MS = 15 * MINUTE_MS;

export interface PhoneRefusal {
  retryAfterMs: number;
  /** 'number_wait': a code was just sent to this number (the resend countdown). */
  reason: 'address' | 'number_wait' | 'number';
}

const store = (ctx: AppContext) => accountLimits(ctx).store;

/** Counts one code request from `ip`; a refusal when the address is over its limit. */
export async function countStartFromAddress(ctx: AppContext, ip: string): Promise<PhoneRefusal | null> {
  const waitMs = await accountLimits(ctx).addressWaitMs('phone-start', ip, PHONE_STARTS_PER_ADDRESS, PHONE_STARTS_WINDOW_MS);
  return waitMs > 0 ? { retryAfterMs: waitMs, reason: 'address' } : null;
}

/** Whether a code may go to this account's number now; when it may, it is counted (call just before sending). */
export async function countSendToNumber(ctx: AppContext, userId: number): Promise<PhoneRefusal | null> {
  const s = store(ctx);
  const wait = await s.remainingMs(`phone-resend:${userId}`);
  if (wait > 0) return { retryAfterMs: wait, reason: 'number_wait' };
  const sends = `phone-sends:${userId}`;
  if ((await s.increment(sends, PHONE_SENDS_WINDOW_MS)) > PHONE_SENDS_PER_NUMBER) {
    await s.decrement(sends);
    return { retryAfterMs: await s.remainingMs(sends), reason: 'number' };
  }
  await s.mark(`phone-resend:${userId}`, PHONE_CODE_RESEND_MS);
  return null;
}

/** Counts a code check from `ip` before it runs (parallel guesses see it at once); `succeeded` hands it back. */
export async function beginCodeCheckFromAddress(ctx: AppContext, ip: string): Promise<{ refusal: PhoneRefusal } | { succeeded(): Promise<void> }> {
  const s = store(ctx);
  const key = `phone-fail-addr:${ip}`;
  if ((await s.increment(key, PHONE_FAILURES_WINDOW_MS)) > PHONE_FAILURES_PER_ADDRESS) {
    await s.decrement(key);
    return { refusal: { retryAfterMs: await s.remainingMs(key), reason: 'address' } };
  }
  return { succeeded: () => s.decrement(key) };
}
