// Our own auth (DESIGN.md §4, replacing the spec's hosted identity provider): sign-up, sign-in,
// token refresh with rotation, sign-out, password reset, one-time sign-in tokens, password change.
import type { ChangePasswordRequest, LoginRequest, SignupRequest } from '@pluma/common/auth';
import type { Lang } from '@pluma/common/constants';
import { ErrorIds } from '@pluma/common/errors';
import type { AuthResponse, LoginResponse } from '@pluma/common/users';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { getConfig, getConfigBool } from '../../platform/appconfig/read';
import type { Actor } from '../../platform/auth/actor';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords';
import { invalidateUser } from '../../platform/auth/invalidation';
import { createSession, revokeFamily, revokeUserSessions, rotateSession } from '../../platform/auth/sessions';
import { AppError, unauthenticated } from '../../platform/http/errors';
import { welcomeMail } from '../../platform/mail/templates';
import { notifyWebhook } from '../../platform/outbound/webhook';
import { findUserByEmail, impersonatorOf, loadCurrentUser, storedSignupPhone } from '../users';
import { consumeOneTimeToken, consumeOneTimeTokenRow, peekOneTimeToken, revokeOneTimeTokens } from '../../platform/auth/one-time-tokens';
import type { Log } from '../../platform/log';
import { sessionOrChallenge } from './two-factor/sign-in-step';
import { refusePasswordSignInWhereSsoRequired, refusePasswordWhereSsoRequired, refuseSignInWhereSsoRequired } from './sso/domain-rule';


const emailExists = () => new AppError(412, ErrorIds.emailExists, 'email_exists');
const invalidCredentials = () => new AppError(401, ErrorIds.invalidCredentials, 'invalid_credentials');

function isUniqueViolation(err: unknown): boolean {
  const code = (e: unknown) => (e as { code?: unknown } | null)?.code;
  return code(err) === '23505' || code((err as { cause?: unknown } | null)?.cause) === '23505';
}

async function sessionResponse(ctx: AppContext, userId: number, token?: string, secondFactorVerified = false): Promise<AuthResponse> {
  return { token: token ?? (await createSession(ctx.db, userId)), user: await loadCurrentUser({ db: ctx.db, userId, secondFactorVerified }) };
}

export interface SignupResult extends AuthResponse {
  /** Settles when the welcome webhook call is done (it never fails the signup). */
  webhook: Promise<void>;
}

/**
 * Creates the account and signs it in; mails the welcome and calls its webhook.
 * @contract-exception a visitor's: signing up is how an actor comes to exist.
 */
export async function signup(options: { ctx: AppContext; input: SignupRequest; lang: Lang; baseUrl: string; log: Log }): Promise<SignupResult> {
  const { ctx, input, log } = options;
  if (!(await getConfigBool(ctx, 'signup_enabled'))) throw new AppError(403, ErrorIds.signupDisabled, 'signup_disabled');
  // spec part 1 §8: an existing email (any case) is a 412 "You already have an account".
  if (await findUserByEmail({ db: ctx.db, email: input.email })) throw emailExists();
  // A domain that requires single sign-on gets its accounts from its provider (sso/domain-rule.ts).
  await refusePasswordWhereSsoRequired(ctx.db, input.email, null);
  const passwordHash = await hashPassword(input.password);
  let user: typeof users.$inferSelect;
  try {
    [user] = await ctx.db
      .insert(users)
      .values({
        name: input.name,
        lastName: input.last_name,
        email: input.email,
        passwordHash,
        phone: storedSignupPhone(input.phone),
        signupReason: input.signup_reason || null,
        lang: input.lang ?? options.lang,
      })
      .returning();
  } catch (err) {
    // Two sign-ups with the same email at once: the unique index decides, the loser gets the same 412.
    if (isUniqueViolation(err)) throw emailExists();
    throw err;
  }
  const response = await sessionResponse(ctx, user.userId);

  const appName = await getConfig(ctx, 'app_name');
  try {
    await ctx.services.mail?.send(welcomeMail({ to: user.email, lang: response.user.lang, name: user.name, appName, url: options.baseUrl }));
  } catch (err) {
    // The account exists and the user is signed in; a mail problem is the operator's to fix.
    log.error({ err, userId: user.userId }, 'welcome email failed');
  }
  const webhook = notifyWebhook(ctx, log, 'welcome_email', await getConfig(ctx, 'welcome_email_webhook_url'), {
    user_id: user.userId,
    name: user.name,
    last_name: user.lastName,
    email: user.email,
    phone: user.phone,
    lang: response.user.lang,
    signup_reason: user.signupReason,
    createdAt: response.user.createdAt,
  });
  return { ...response, webhook };
}

/**
 * A session, or for an account with two-factor on the challenge of its second step (two-factor/sign-in-step.ts).
 * @contract-exception a visitor's: signing in is how a visitor becomes an actor (email and password).
 */
export async function login(options: { ctx: AppContext; input: LoginRequest }): Promise<LoginResponse> {
  const { ctx, input } = options;
  const user = await findUserByEmail({ db: ctx.db, email: input.email });
  // verifyPassword hashes against a dummy when the user is unknown, so both failures take the same time.
  const ok = await verifyPassword(user?.passwordHash, input.password);
  // An email on a domain that requires single sign-on is told to use it, whatever the password (sso/domain-rule.ts;
  // staff pass with their right password).
  await refusePasswordSignInWhereSsoRequired(ctx.db, input.email, user?.userId ?? null, ok);
  if (!user || !ok) throw invalidCredentials();
  return sessionOrChallenge(ctx, user.userId, input.device_tokens);
}

/**
 * Rotates the token; a token that was already rotated revokes its whole family (sessions.ts).
 * @contract-exception a visitor's: the session token being rotated is the credential; no actor is resolved for it.
 */
export async function refresh(options: { ctx: AppContext; token: string }): Promise<AuthResponse> {
  const rotated = await rotateSession(options.ctx.db, options.token);
  if (!rotated) throw unauthenticated();
  return sessionResponse(options.ctx, rotated.userId, rotated.token, rotated.secondFactor);
}

export async function logout(options: { ctx: AppContext; actor: Actor }): Promise<void> {
  await revokeFamily(options.ctx.db, options.actor.familyId);
}

/** Sets a new password and ends every session of the user except `keepFamilyId`, and any outstanding reset link. */
async function setPassword(db: Db, userId: number, passwordHash: string, keepFamilyId?: string) {
  await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.userId, userId));
  await revokeUserSessions(db, userId, keepFamilyId);
  await revokeOneTimeTokens(db, userId, 'reset_password');
}

/**
 * The mailbox is not a second factor: an account with two-factor on gets the challenge, not a session. An
 * account whose domain requires SSO is refused (sso_required) before anything changes: its link (sent before
 * the requirement, or by an admin) must not become a way around the organization's provider.
 * @contract-exception a visitor's: the emailed reset token proves the mailbox; no one is signed in.
 */
export async function resetPassword(options: { ctx: AppContext; token: string; password: string }): Promise<{ response: LoginResponse; email: string }> {
  const { ctx } = options;
  const holder = await peekOneTimeToken(ctx.db, options.token, 'reset_password');
  if (holder !== null) await refuseSignInWhereSsoRequired(ctx.db, holder);
  // Hash first (slow), so the token is consumed and the password changed in one short transaction.
  const passwordHash = await hashPassword(options.password);
  const userId = await ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const owner = await consumeOneTimeToken(db, options.token, 'reset_password');
    if (owner == null) return null;
    await setPassword(db, owner, passwordHash);
    return owner;
  });
  if (userId == null) throw new AppError(400, ErrorIds.resetTokenInvalid, 'reset_token_invalid');
  // Announced again now that the revocations are committed: on PostgreSQL the sockets' re-check
  // (platform/realtime/socket-sessions.ts) could have read the sessions before the commit.
  invalidateUser(userId);
  const [owner] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.userId, userId)).limit(1);
  return { response: await sessionOrChallenge(ctx, userId), email: owner?.email ?? '' };
}

/**
 * A sign-in token issued by a staff admin ("log in as the user", users/admin-routes.ts) opens an
 * impersonated session: it records the admin (sessions.impersonated_by) and ends within the hour.
 * @contract-exception a visitor's: the one-time token is the sign-in (issued to an authorized admin, admin-service.ts).
 */
export async function exchangeSignInToken(options: { ctx: AppContext; token: string }): Promise<AuthResponse> {
  const row = await consumeOneTimeTokenRow(options.ctx.db, options.token, 'sign_in');
  if (!row) throw new AppError(400, ErrorIds.signInTokenInvalid, 'sign_in_token_invalid');
  const token = await createSession(options.ctx.db, row.userId, { impersonatedBy: row.createdByUserId });
  const response = await sessionResponse(options.ctx, row.userId, token);
  // As GET /users of this session says it (the web's "Viewing as" bar starts from this answer).
  if (row.createdByUserId == null) return response;
  return { ...response, user: { ...response.user, impersonated_by: await impersonatorOf({ db: options.ctx.db, userId: row.createdByUserId }) } };
}

export async function changePassword(options: { ctx: AppContext; actor: Actor; input: ChangePasswordRequest }): Promise<void> {
  const { ctx, actor, input } = options;
  if (!(await verifyPassword(actor.user.passwordHash, input.current_password))) {
    throw new AppError(400, ErrorIds.invalidCredentials, 'current_password_invalid');
  }
  const passwordHash = await hashPassword(input.password);
  // The caller's own session family stays signed in; every other device is signed out.
  await ctx.db.transaction((tx) => setPassword(tx as unknown as Db, actor.user.userId, passwordHash, actor.familyId));
  // After the commit, so the other sessions' sockets are re-checked against the committed revocations.
  invalidateUser(actor.user.userId);
}
