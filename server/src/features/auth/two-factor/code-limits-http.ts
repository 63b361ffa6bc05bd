// Guessing a 6-digit code (issue 33: "brute force on codes, limits hold"): per account, 5 wrong codes in 15
// minutes, then the account waits out the rest of the window, whatever the address. The per-IP limit of the
// routes (RATE_LIMIT_AUTH_PER_MINUTE) adds to it. Counted before the code is checked, handed back when right,
// as the password limits do (account-limits.ts), so parallel guesses cannot slip through.
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../../context';
import { accountLimits } from '../account-limits';
import { MINUTE_MS } from '../rate-limits';
import { tooManyAttempts } from '../attempts-http';

export const CODE_MAX_FAILURES = 5;
export const CODE_FAILURE_WINDOW_MS = 15 * MINUTE_MS;

/** Counts one code attempt of `key` (e.g. `2fa:<userId>`); throws the 429 when over the limit. */
export async function beginCodeAttempt(ctx: AppContext, reply: FastifyReply, key: string): Promise<{ succeeded(): Promise<void> }> {
  const store = accountLimits(ctx).store;
  const failures = await store.increment(`code-fail:${key}`, CODE_FAILURE_WINDOW_MS);
  if (failures > CODE_MAX_FAILURES) {
    await store.decrement(`code-fail:${key}`);
    throw tooManyAttempts(reply, await store.remainingMs(`code-fail:${key}`));
  }
  return { succeeded: () => store.decrement(`code-fail:${key}`) };
}

/** Runs `check` as one code attempt of `key`: a right code (no throw) hands the attempt back. */
export async function withCodeAttempt<T>(ctx: AppContext, reply: FastifyReply, key: string, check: () => Promise<T>): Promise<T> {
  const attempt = await beginCodeAttempt(ctx, reply, key);
  const result = await check();
  await attempt.succeeded();
  return result;
}
