// The stored second factors of a user: the sealed TOTP secret, hashed single-use recovery codes and
// remembered devices (db/schema/second-factors.ts). Every "use" is one conditional UPDATE, so two requests
// with the same code cannot both pass.
import { TWO_FACTOR_DEVICE_MS } from '@pluma/common/constants';
import { and, count, eq, gt, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { randomInt } from 'node:crypto';
import type { AppContext } from '../../../context';
import type { Db } from '../../../db/client';
import { passkeys, recoveryCodes, totpSecrets, trustedDevices } from '../../../db/schema';
import { decryptSecret } from '../../../platform/crypto/secret-box';
import { hashToken, randomToken } from '../../../platform/auth/tokens';
import { ErrorIds } from '@pluma/common/errors';
import type { Actor } from '../../../platform/auth/actor';
import { AppError } from '../../../platform/http/errors';
import { totpStep } from './totp';

export const RECOVERY_CODE_COUNT = 10;
// No 0/o, 1/l/i: codes are read off paper.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** The confirmed TOTP row of a user, or null when two-factor is off. */
export async function confirmedTotp(db: Db, userId: number) {
  const [row] = await db
    .select()
    .from(totpSecrets)
    .where(and(eq(totpSecrets.userId, userId), isNotNull(totpSecrets.confirmedAt)))
    .limit(1);
  return row ?? null;
}

/** Whether the user has a passkey (features/auth/passkeys): it is a second factor too. */
export async function hasPasskey(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.select({ passkeyId: passkeys.passkeyId }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1);
  return row !== undefined;
}

/** How recent a passed second factor must be to add or remove a factor (GitHub's "sudo mode" asks the same). */
export const FACTOR_CHANGE_WINDOW_MS = 15 * 60_000;

/**
 * Adding or removing a factor (an authenticator, a passkey) needs, when the account has one, a second factor
 * passed in the last FACTOR_CHANGE_WINDOW_MS: a session opened before the factor existed, taken without it, or
 * simply stolen from a browser long after its sign-in, must not swap in its own factor (which would then pass
 * the second step for it). The user confirms it at POST /auth/two-factor/reconfirm. A staff admin viewing as
 * the user changes none of theirs. An account with no factor yet adds its first from any session.
 */
export async function requireFactorChange(db: Db, actor: Actor, now = Date.now()): Promise<void> {
  if (actor.impersonatedBy != null) throw impersonationRefused();
  if (!(await hasSecondFactor(db, actor.user.userId))) return;
  const passedAt = actor.secondFactorAt?.getTime();
  if (passedAt === undefined || now - passedAt > FACTOR_CHANGE_WINDOW_MS) {
    throw new AppError(403, ErrorIds.reauthenticationRequired, 'reauthentication_required');
  }
}

export const impersonationRefused = () => new AppError(403, ErrorIds.forbidden, 'impersonation_factors_forbidden');

/** Whether the account has a second factor: a confirmed authenticator app or a passkey. */
export async function hasSecondFactor(db: Db, userId: number): Promise<boolean> {
  return (await confirmedTotp(db, userId)) !== null || (await hasPasskey(db, userId));
}

/** Accepts a TOTP code once: records its step, refusing a step at or before the last one accepted. */
export async function useTotpCode(ctx: Pick<AppContext, 'db' | 'env'>, row: typeof totpSecrets.$inferSelect, code: string): Promise<boolean> {
  const step = totpStep(decryptSecret(ctx.env.APP_SECRET, row.secretSealed), code);
  if (step === null) return false;
  const updated = await ctx.db
    .update(totpSecrets)
    .set({ lastUsedStep: step })
    .where(and(eq(totpSecrets.userId, row.userId), or(isNull(totpSecrets.lastUsedStep), lt(totpSecrets.lastUsedStep, step))))
    .returning({ userId: totpSecrets.userId });
  return updated.length === 1;
}

/** Recovery codes compare without case, spaces or dashes. */
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/** Uses up a recovery code of the user; false when it is unknown or already used. */
export async function useRecoveryCode(db: Db, userId: number, code: string): Promise<boolean> {
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashToken(normalizeRecoveryCode(code))), isNull(recoveryCodes.usedAt)))
    .returning({ codeId: recoveryCodes.codeId });
  return used.length === 1;
}

/** A 6-digit code is checked as TOTP, anything else as a recovery code. */
export async function useSecondFactorCode(
  ctx: Pick<AppContext, 'db' | 'env'>,
  row: typeof totpSecrets.$inferSelect,
  code: string,
): Promise<'totp' | 'recovery_code' | null> {
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) return (await useTotpCode(ctx, row, trimmed)) ? 'totp' : null;
  return (await useRecoveryCode(ctx.db, row.userId, trimmed)) ? 'recovery_code' : null;
}

/** Replaces the user's recovery codes with new ones; returns them in the clear, the only time they are. */
export async function issueRecoveryCodes(db: Db, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashToken(normalizeRecoveryCode(code)) })));
  return codes;
}

export async function recoveryCodesLeft(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/** Remembers this browser for TWO_FACTOR_DEVICE_MS; the token goes to the browser, its hash stays here. */
export async function rememberDevice(db: Db, userId: number): Promise<string> {
  const token = randomToken();
  await db.insert(trustedDevices).values({ userId, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + TWO_FACTOR_DEVICE_MS) });
  return token;
}

/** Whether one of the browser's device tokens is a live one of this user. */
export async function isRememberedDevice(db: Db, userId: number, tokens: readonly string[] | undefined): Promise<boolean> {
  if (!tokens || tokens.length === 0) return false;
  const [row] = await db
    .select({ deviceId: trustedDevices.deviceId })
    .from(trustedDevices)
    .where(and(eq(trustedDevices.userId, userId), inArray(trustedDevices.tokenHash, tokens.map(hashToken)), gt(trustedDevices.expiresAt, new Date())))
    .limit(1);
  return row !== undefined;
}

/** Turning two-factor off forgets everything of it: secret, codes, remembered devices. */
export async function removeSecondFactors(db: Db, userId: number): Promise<void> {
  await db.delete(totpSecrets).where(eq(totpSecrets.userId, userId));
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.delete(trustedDevices).where(eq(trustedDevices.userId, userId));
}
