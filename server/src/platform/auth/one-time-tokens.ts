// Single-use tokens for password reset (1 hour) and sign-in (5 minutes: the spec's pending uid and
// staff "log in as user"). Stored hashed in one_time_tokens; consumed atomically. Spent ones (used or
// expired) are deleted by a periodic sweep (features/auth/spent-secrets-sweep.ts), so anonymous callers (passkey sign-in
// options) cannot grow the table beyond the live tokens their rate limits allow.
import { ONE_TIME_SIGN_IN_TOKEN_MS, PASSKEY_CHALLENGE_MS, RESET_PASSWORD_TOKEN_MS, TWO_FACTOR_CHALLENGE_MS } from '@pluma/common/constants';
import { and, eq, gt, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { oneTimeTokens } from '../../db/schema';
import { deleteInBatches } from '../../db/delete-in-batches';
import { hashToken, randomToken } from './tokens';

/**
 * 'two_factor': the challenge between a right password and the second factor (features/auth/two-factor).
 * 'sso': the code a single sign-on callback hands the browser, exchanged for a session or a challenge (features/auth/sso).
 * 'passkey_*': WebAuthn challenges (features/auth/passkeys): registering one (its user), signing in with one
 * (no user yet: the passkey names it) and passing the second step with one (the user of the sign-in).
 */
export type OneTimePurpose = 'reset_password' | 'sign_in' | 'two_factor' | 'sso' | PasskeyChallengePurpose;
export type PasskeyChallengePurpose = 'passkey_register' | 'passkey_sign_in' | 'passkey_two_factor';

const LIFETIME_MS: Record<OneTimePurpose, number> = {
  reset_password: RESET_PASSWORD_TOKEN_MS,
  sign_in: ONE_TIME_SIGN_IN_TOKEN_MS,
  two_factor: TWO_FACTOR_CHALLENGE_MS,
  sso: ONE_TIME_SIGN_IN_TOKEN_MS,
  passkey_register: PASSKEY_CHALLENGE_MS,
  passkey_sign_in: PASSKEY_CHALLENGE_MS,
  passkey_two_factor: PASSKEY_CHALLENGE_MS,
};

export async function issueOneTimeToken(
  db: Db,
  input: { userId: number | null; purpose: OneTimePurpose; createdByUserId?: number | null },
): Promise<string> {
  const token = randomToken();
  await db.insert(oneTimeTokens).values({
    userId: input.userId,
    purpose: input.purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + LIFETIME_MS[input.purpose]),
    createdByUserId: input.createdByUserId ?? null,
  });
  return token;
}

/**
 * Marks the token used and returns its user, or null when it is unknown, of another purpose, used or
 * expired. One UPDATE ... RETURNING, so two concurrent uses cannot both succeed.
 */
export async function consumeOneTimeToken(db: Db, token: string, purpose: OneTimePurpose): Promise<number | null> {
  return (await consumeOneTimeTokenRow(db, token, purpose))?.userId ?? null;
}

/** consumeOneTimeToken, also saying who issued the token (staff "log in as the user"). */
export async function consumeOneTimeTokenRow(db: Db, token: string, purpose: OneTimePurpose): Promise<{ userId: number; createdByUserId: number | null } | null> {
  const now = new Date();
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hashToken(token)),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, now),
      ),
    )
    .returning({ userId: oneTimeTokens.userId, createdByUserId: oneTimeTokens.createdByUserId });
  return row && row.userId !== null ? { userId: row.userId, createdByUserId: row.createdByUserId } : null;
}

/**
 * Uses up a passkey challenge: found says it was live (then userId is its user, or null for a sign-in's),
 * so a replayed or expired challenge is refused whatever the passkey.
 */
export async function consumePasskeyChallenge(db: Db, token: string, purpose: PasskeyChallengePurpose): Promise<{ found: boolean; userId: number | null }> {
  const now = new Date();
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(and(eq(oneTimeTokens.tokenHash, hashToken(token)), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, now)))
    .returning({ userId: oneTimeTokens.userId });
  return row ? { found: true, userId: row.userId } : { found: false, userId: null };
}

/** The user of a live token, without using it up (a wrong second-factor code leaves the challenge open). */
export async function peekOneTimeToken(db: Db, token: string, purpose: OneTimePurpose): Promise<number | null> {
  const [row] = await db
    .select({ userId: oneTimeTokens.userId })
    .from(oneTimeTokens)
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hashToken(token)),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row?.userId ?? null;
}

/** Ends every outstanding token of a purpose for a user (after a reset or a password change). */
export async function revokeOneTimeTokens(db: Db, userId: number, purpose: OneTimePurpose) {
  await db
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
}

/** A 5-minute single-use sign-in token (exchanged at POST /api/auth/token); used by staff "log in as user". */
export function createSignInToken(ctx: Pick<AppContext, 'db'>, userId: number, createdByUserId: number | null): Promise<string> {
  return issueOneTimeToken(ctx.db, { userId, purpose: 'sign_in', createdByUserId });
}

/** A 1-hour single-use password-reset token (exchanged at POST /api/auth/reset-password). */
export function createResetPasswordToken(ctx: Pick<AppContext, 'db'>, userId: number, createdByUserId: number | null = null): Promise<string> {
  return issueOneTimeToken(ctx.db, { userId, purpose: 'reset_password', createdByUserId });
}

/** Deletes the tokens that can no longer be used — used, or expired at `now` — in batches; returns how many. */
export function purgeSpentOneTimeTokens(db: Db, now = new Date()): Promise<number> {
  return deleteInBatches(db, oneTimeTokens, oneTimeTokens.tokenId, or(isNotNull(oneTimeTokens.usedAt), lte(oneTimeTokens.expiresAt, now)));
}
