// Sign-in limits per account (across addresses) and per address (across accounts), on top of the
// per-IP-and-email limit of the login route. Numbers and reasoning: rate-limits.ts.
//
// Lockout choice: a growing wait capped at 5 minutes, which an address the account signed in from in the
// last 30 days does not have to sit out. So a victim whose account is being guessed from many addresses
// is never locked out for long, and not at all where they usually sign in, while the guesser's rate stays
// low. Attempts are counted *before* the password is checked (and handed back when it was right), so a
// burst of parallel guesses cannot slip through while the first ones are still being verified.
import { createHash } from 'node:crypto';
import type { AppContext } from '../../context';
import { type AttemptStore, MemoryAttemptStore, RedisAttemptStore } from './attempt-store';
import {
  accountDelayMs,
  ACCOUNT_FAILURE_WINDOW_MS,
  ADDRESS_FAILURE_WINDOW_MS,
  ADDRESS_MAX_FAILURES,
  KNOWN_ADDRESS_MS,
  RECOVERY_PER_ACCOUNT,
  RECOVERY_WINDOW_MS,
} from './rate-limits';

export type LimitReason = 'address' | 'account';

export type LoginGate =
  | { allowed: true; /** The password was right: hands the attempt back and remembers the address. */ succeeded(): Promise<void> }
  | { allowed: false; reason: LimitReason; retryAfterMs: number };

/** Accounts are keyed by a hash of the normalized email, so the store never holds addresses of people. */
function accountId(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 24);
}

const keys = (email: string, ip: string) => {
  const account = accountId(email);
  return {
    address: `addr-fail:${ip}`,
    accountFailures: `acct-fail:${account}`,
    accountWait: `acct-wait:${account}`,
    knownAddress: `known:${account}:${ip}`,
    recovery: `recovery:${account}`,
  };
};

export class AccountLimits {
  constructor(readonly store: AttemptStore) {}

  /** Call before checking a password; a refused attempt is not checked and not counted. */
  async beginLogin(email: string, ip: string): Promise<LoginGate> {
    const { store } = this;
    const k = keys(email, ip);
    // Per address, across accounts: the count includes this attempt until it proves right.
    const fromAddress = await store.increment(k.address, ADDRESS_FAILURE_WINDOW_MS);
    if (fromAddress > ADDRESS_MAX_FAILURES) {
      await store.decrement(k.address);
      return { allowed: false, reason: 'address', retryAfterMs: await store.remainingMs(k.address) };
    }
    const known = (await store.remainingMs(k.knownAddress)) > 0;
    if (!known) {
      const wait = await store.remainingMs(k.accountWait);
      if (wait > 0) {
        await store.decrement(k.address);
        return { allowed: false, reason: 'account', retryAfterMs: wait };
      }
    }
    // Counted as a failure now; the wait it may bring starts now too, so parallel guesses see it at once.
    const failures = await store.increment(k.accountFailures, ACCOUNT_FAILURE_WINDOW_MS);
    const delay = accountDelayMs(failures);
    if (delay > 0) await store.mark(k.accountWait, delay);
    return {
      allowed: true,
      succeeded: async () => {
        await store.decrement(k.address);
        await store.decrement(k.accountFailures);
        if (delay > 0) await store.delete(k.accountWait);
        await store.mark(k.knownAddress, KNOWN_ADDRESS_MS);
      },
    };
  }

  /** A password reset proves the mailbox: the account's failures and wait are forgotten. */
  async accountRecovered(email: string): Promise<void> {
    const k = keys(email, '');
    await this.store.delete(k.accountFailures, k.accountWait);
  }

  /** Counts one reset-mail request for the account; the wait in ms when over the limit, else 0. */
  async recoveryWaitMs(email: string): Promise<number> {
    const k = keys(email, '');
    const count = await this.store.increment(k.recovery, RECOVERY_WINDOW_MS);
    return count > RECOVERY_PER_ACCOUNT ? await this.store.remainingMs(k.recovery) : 0;
  }

  /** Counts one anonymous call of `what` from `ip`; the wait in ms when that address is over `max` in `windowMs`, else 0. */
  async addressWaitMs(what: string, ip: string, max: number, windowMs: number): Promise<number> {
    const key = `${what}-addr:${ip}`;
    return (await this.store.increment(key, windowMs)) > max ? await this.store.remainingMs(key) : 0;
  }
}

// One per app (the test suites build several apps in one process): Redis-backed when REDIS_URL is set.
const perApp = new WeakMap<AppContext, AccountLimits>();

export function accountLimits(ctx: AppContext): AccountLimits {
  let limits = perApp.get(ctx);
  if (!limits) {
    limits = new AccountLimits(ctx.services.redis ? new RedisAttemptStore(ctx.services.redis) : new MemoryAttemptStore());
    perApp.set(ctx, limits);
  }
  return limits;
}
