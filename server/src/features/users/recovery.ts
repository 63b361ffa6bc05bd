// Password recovery (spec part 1 §7–§8): email a reset link, or hand it to staff.
import type { Lang } from '@pluma/common/constants';
import { ErrorIds } from '@pluma/common/errors';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { getConfig } from '../../platform/appconfig/read';
import type { Actor } from '../../platform/auth/actor';
import { AppError } from '../../platform/http/errors';
import type { Log } from '../../platform/log';
import { organizationInviteMail, resetPasswordMail } from '../../platform/mail/templates';
import { notifyWebhook } from '../../platform/outbound/webhook';
import { createResetPasswordToken } from '../../platform/auth/one-time-tokens';
import { staffRoleOf } from './access';
import { customerRules } from './policy';
import { findUserByEmail } from './queries';

// spec part 1 §8: "We did not found any account with this email..."
const recoveryNotFound = () => new AppError(404, ErrorIds.notFound, 'recovery_not_found');

/** The reset page opens in the user's language (`lang`), whatever the browser that opens the mail. */
export function resetLink(baseUrl: string, token: string, lang: Lang): string {
  return `${baseUrl}/reset-password?token=${encodeURIComponent(token)}&lang=${lang}`;
}

const userLang = (user: { lang: string | null }): Lang => (user.lang === 'es' ? 'es' : 'en');

async function userForRecovery(db: Db, email: string) {
  const user = await findUserByEmail({ db, email });
  if (!user) throw recoveryNotFound();
  return user;
}

/**
 * POST /users/sendResetPasswordLink (no sign-in; the route applies the rate limits): mails the link (and
 * calls the reset webhook when configured). `webhook` settles when the webhook call has ended.
 */
export async function sendResetPasswordLink({ ctx, email, baseUrl, log }: { ctx: AppContext; email: string; baseUrl: string; log: Log }): Promise<{ webhook: Promise<void> }> {
  const user = await userForRecovery(ctx.db, email);
  const lang = userLang(user);
  const link = resetLink(baseUrl, await createResetPasswordToken(ctx, user.userId), lang);
  const appName = await getConfig(ctx, 'app_name');
  try {
    await ctx.services.mail?.send(resetPasswordMail({ to: user.email, lang, name: user.name, appName, link }));
  } catch (err) {
    // The failure is recorded in the outbox; the user sees spec §8 "Recovery, other error".
    log.error({ err, userId: user.userId }, 'reset password email failed');
    throw new AppError(502, ErrorIds.mailFailed, 'recovery_failed');
  }
  const webhook = notifyWebhook(ctx, log, 'reset_password_email', await getConfig(ctx, 'reset_password_email_webhook_url'), {
    user_id: user.userId,
    name: user.name,
    last_name: user.lastName,
    email: user.email,
    lang,
    link,
  });
  return { webhook };
}

/**
 * POST /users/resetPasswordLink (staff: customerRules) and an organization's member page: a reset link for the user with `email`,
 * returned instead of mailed, and that user's id (the audit target). A manager may not obtain a link for
 * a staff account — that would let a manager take over an admin (docs/decisions.md "Manager limits").
 */
export async function createResetLink({ ctx, actor, email, baseUrl }: { ctx: AppContext; actor: Actor; email: string; baseUrl: string }): Promise<{ link: string; userId: number }> {
  customerRules.authorize(actor, 'reset_link', null);
  const user = await userForRecovery(ctx.db, email);
  if (actor.staffRole !== 'admin' && user.userId !== actor.user.userId && (await staffRoleOf(ctx.db, user.userId))) {
    throw new AppError(403, ErrorIds.forbidden, 'staff_target_forbidden');
  }
  return { link: resetLink(baseUrl, await createResetPasswordToken(ctx, user.userId, actor.user.userId), userLang(user)), userId: user.userId };
}

/**
 * An organization Admin added or invited this user (organizations/members-service.ts): the mail names the
 * organization and the inviter, in the user's language, with the link to choose a password (a new account),
 * to sign in and accept on the organizations list (an invited existing account), or to sign in.
 */
export async function sendOrganizationInvite(input: {
  ctx: AppContext;
  user: { userId: number; email: string; name: string; lang: string | null };
  organization: string;
  inviter: string;
  mode: 'new_account' | 'invitation' | 'added';
  baseUrl: string;
}): Promise<void> {
  const { ctx, user } = input;
  const lang = userLang(user);
  const signIn = (await getConfig(ctx, 'landing_enabled')) ? '/auth/login' : '/login';
  const link =
    input.mode === 'new_account'
      ? resetLink(input.baseUrl, await createResetPasswordToken(ctx, user.userId), lang)
      : // An invited account signs in and lands on its organizations, where it accepts or declines.
        `${input.baseUrl}${signIn}${input.mode === 'invitation' ? `?next=${encodeURIComponent('/organizations')}` : ''}`;
  const appName = await getConfig(ctx, 'app_name');
  await ctx.services.mail?.send(organizationInviteMail({ to: user.email, lang, name: user.name, appName, organization: input.organization, inviter: input.inviter, link, mode: input.mode }));
}
