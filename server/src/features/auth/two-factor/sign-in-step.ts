// The second step of a sign-in (issue 33 item 2). After a right password, an account with two-factor on
// gets a 5-minute challenge instead of a session — unless the browser shows a device token that remembers
// a passed second factor. The challenge plus a TOTP or recovery code then opens a session marked as
// having passed it (sessions.second_factor_at).
import { ErrorIds } from '@pluma/common/errors';
import type { AuthResponse, LoginResponse, SecondFactorMethod, SignInChallenge } from '@pluma/common/users';
import type { AppContext } from '../../../context';
import type { Actor } from '../../../platform/auth/actor';
import { consumeOneTimeToken, issueOneTimeToken, peekOneTimeToken } from '../../../platform/auth/one-time-tokens';
import { createSession } from '../../../platform/auth/sessions';
import { writeAudit } from '../../../platform/http/audit';
import { AppError } from '../../../platform/http/errors';
import { loadCurrentUser } from '../../users';
import { confirmedTotp, hasPasskey, impersonationRefused, isRememberedDevice, rememberDevice, useSecondFactorCode } from './factors';
import type { RequestMeta } from './service';

export const challengeInvalid = () => new AppError(401, ErrorIds.twoFactorChallengeInvalid, 'two_factor_challenge_invalid');

/** A new session and the current-user view that says whether it passed a second factor. */
export async function openSession(ctx: AppContext, userId: number, secondFactor: boolean): Promise<AuthResponse> {
  const token = await createSession(ctx.db, userId, { secondFactor });
  return { token, user: await loadCurrentUser({ db: ctx.db, userId, secondFactorVerified: secondFactor }) };
}

/** The account's second factors: a TOTP app, passkeys (features/auth/passkeys); either turns the second step on. */
async function secondFactorMethods(ctx: AppContext, userId: number): Promise<SecondFactorMethod[]> {
  const methods: SecondFactorMethod[] = [];
  if (await confirmedTotp(ctx.db, userId)) methods.push('totp');
  if (await hasPasskey(ctx.db, userId)) methods.push('passkey');
  return methods;
}

const challengeOf = async (ctx: AppContext, userId: number, methods: SecondFactorMethod[]): Promise<SignInChallenge> => ({
  two_factor_required: true,
  challenge: await issueOneTimeToken(ctx.db, { userId, purpose: 'two_factor' }),
  methods,
});

/** After a right password (or any first factor): a session, or the challenge of the second step. */
export async function sessionOrChallenge(ctx: AppContext, userId: number, deviceTokens?: readonly string[]): Promise<LoginResponse> {
  const methods = await secondFactorMethods(ctx, userId);
  if (methods.length === 0) return openSession(ctx, userId, false);
  if (await isRememberedDevice(ctx.db, userId, deviceTokens)) return openSession(ctx, userId, true);
  return challengeOf(ctx, userId, methods);
}

/**
 * "Confirm it's you" before a factor change (factors.ts requireFactorChange): the signed-in session is the first
 * factor, so the user gets the second step's challenge at once — never skipped by a remembered device, which
 * proves the browser, not the person. Finishing it (POST /auth/two-factor/verify, or with a passkey) opens a
 * session that has just passed it; the browser keeps that one and ends the one it had.
 */
export async function startFactorReconfirm({ ctx, actor }: { ctx: AppContext; actor: Actor }): Promise<SignInChallenge> {
  if (actor.impersonatedBy != null) throw impersonationRefused();
  const methods = await secondFactorMethods(ctx, actor.user.userId);
  if (methods.length === 0) throw new AppError(409, ErrorIds.conflict, 'two_factor_not_enabled');
  return challengeOf(ctx, actor.user.userId, methods);
}

/** The account a live challenge belongs to (for the per-account code limit), or the refusal. */
export async function challengeOwner(ctx: AppContext, challenge: string): Promise<number> {
  const userId = await peekOneTimeToken(ctx.db, challenge, 'two_factor');
  if (userId === null) throw challengeInvalid();
  return userId;
}

/** Finishes the sign-in with a code: the challenge is used up only by a right one. */
export async function finishTwoFactorSignIn(
  ctx: AppContext,
  input: { userId: number; challenge: string; code: string; remember_device?: boolean },
  meta: RequestMeta,
): Promise<AuthResponse & { device_token?: string }> {
  const row = await confirmedTotp(ctx.db, input.userId);
  if (!row) throw challengeInvalid();
  const method = await useSecondFactorCode(ctx, row, input.code);
  if (!method) throw new AppError(400, ErrorIds.twoFactorCodeInvalid, 'two_factor_code_invalid');
  // Two right codes at once (a TOTP code and a recovery code): one session only.
  if ((await consumeOneTimeToken(ctx.db, input.challenge, 'two_factor')) !== input.userId) throw challengeInvalid();
  if (method === 'recovery_code') {
    await writeAudit(ctx.db, { actorUserId: input.userId, action: 'two_factor.recovery_code_used', targetType: 'user', targetId: input.userId, ip: meta.ip, requestId: meta.requestId });
  }
  const response = await openSession(ctx, input.userId, true);
  return input.remember_device ? { ...response, device_token: await rememberDevice(ctx.db, input.userId) } : response;
}
