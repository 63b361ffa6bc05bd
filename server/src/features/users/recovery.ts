// Password recovery (spec part 1 §7–§8): email a reset link, or hand it to staff.
import type { Lang } from '@pluma/common/constants';
import { ErrorIds } from '@pluma/common/errors';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { getConfig } from '../../platform/appconfig/read';
import type { Actor } from '../../platform/auth/guard';
import { AppError } from '../../platform/http/errors';
import { resetPasswordMail } from '../../platform/mail/templates';
import { notifyWebhook } from '../../platform/outbound/webhook';
import { createResetPasswordToken } from '../auth';
import { staffRoleOf } from './access';
import { findUserByEmail } from './service';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

// spec part 1 §8: "We did not found any account with this email..."
const recoveryNotFound = () => new AppError(404, ErrorIds.notFound, 'recovery_not_found');

/** The reset page opens in the user's language (`lang`), whatever the browser that opens the mail. */
export function resetLink(baseUrl: string, token: string, lang: Lang): string {
  return `${baseUrl}/reset-password?token=${encodeURIComponent(token)}&lang=${lang}`;
}

const userLang = (user: { lang: string | null }): Lang => (user.lang === 'es' ? 'es' : 'en');

async function userForRecovery(ctx: AppContext, email: string) {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) throw recoveryNotFound();
  return user;
}

/** POST /users/sendResetPasswordLink: mails the link (and calls the reset webhook when configured). */
export async function sendResetPasswordLink(options: {
  ctx: AppContext;
  email: string;
  baseUrl: string;
  log: Log;
}): Promise<{ webhook: Promise<void> }> {
  const { ctx, log } = options;
  const user = await userForRecovery(ctx, options.email);
  const lang = userLang(user);
  const link = resetLink(options.baseUrl, await createResetPasswordToken(ctx, user.userId), lang);
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
 * POST /users/resetPasswordLink (staff): returns the link instead of mailing it. A manager may not
 * obtain a link for a staff account — that would let a manager take over an admin.
 */
/** A reset link for the user with `email`, and that user's id (the audit target). */
export async function resetPasswordLinkFor(options: { ctx: AppContext; actor: Actor; email: string; baseUrl: string }): Promise<{ link: string; userId: number }> {
  const { ctx, actor } = options;
  const user = await userForRecovery(ctx, options.email);
  if (actor.staffRole !== 'admin' && user.userId !== actor.user.userId && (await staffRoleOf(ctx.db, user.userId))) {
    throw new AppError(403, ErrorIds.forbidden, 'staff_target_forbidden');
  }
  return { link: resetLink(options.baseUrl, await createResetPasswordToken(ctx, user.userId, actor.user.userId), userLang(user)), userId: user.userId };
}
