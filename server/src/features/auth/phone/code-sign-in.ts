// Phone sign-in (issue 33 item 1; spec part 1 §7 "phone sign-in", §8 the unknown-number message): a
// 6-digit code by SMS to the account with that number, then the code opens the same response as the
// password sign-in (a session, or the second step for an account with two-factor on). Codes are stored as
// an HMAC keyed by APP_SECRET (6 digits hashed plainly would fall to a million guesses offline), used once,
// dead after 10 minutes or 5 wrong tries, and a new code ends the older ones.
// A visitor's steps with no actor, like two-factor/sign-in-step.ts: kept out of a service module (their
// @contract-exception notes say why), as the password sign-in's second step is.
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Lang } from '@pluma/common/constants';
import { ErrorIds } from '@pluma/common/errors';
import { translate } from '@pluma/common/messages';
import { PHONE_CODE_MAX_TRIES, PHONE_CODE_RESEND_MS, PHONE_CODE_TTL_MS, type PhoneStartResponse } from '@pluma/common/phone-sign-in';
import type { LoginResponse } from '@pluma/common/users';
import { and, desc, eq, gt, gte, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../../context';
import type { Db } from '../../../db/client';
import { deleteInBatches } from '../../../db/delete-in-batches';
import { phoneSignInCodes } from '../../../db/schema';
import { getConfig } from '../../../platform/appconfig/read';
import { AppError } from '../../../platform/http/errors';
import { SmsDeliveryError } from '../../../platform/sms/sms';
import { smsNumber } from '../../../platform/sms/sms-number';
import { findUserByPhone } from '../../users';
import { refuseSignInWhereSsoRequired } from '../sso/domain-rule';
import { sessionOrChallenge } from '../two-factor/sign-in-step';

export const phoneCodeInvalid = () => new AppError(401, ErrorIds.phoneCodeInvalid, 'phone_code_invalid');

/** The account a typed number belongs to (same spellings as the staff lookup, GET /users/phone). */
export interface PhoneAccount {
  userId: number;
  phone: string;
  lang: Lang;
}

function codeHash(ctx: AppContext, userId: number, code: string): string {
  return createHmac('sha256', ctx.env.APP_SECRET).update(`phone-sign-in:${userId}:${code}`).digest('hex');
}

/**
 * The account with this number, or null.
 * @contract-exception a visitor's: signing in with a code is how a visitor becomes an actor.
 */
export async function phoneAccountOf({ ctx, phone }: { ctx: AppContext; phone: string }): Promise<PhoneAccount | null> {
  const user = await findUserByPhone({ db: ctx.db, phone });
  if (!user?.phone) return null;
  return { userId: user.userId, phone: user.phone, lang: user.lang === 'es' ? 'es' : 'en' };
}

/**
 * The account with this number, or the spec's 404 in `lang` (the language the visitor reads the page in).
 * @contract-exception a visitor's: asking for a sign-in code is how a visitor becomes an actor.
 */
export async function findPhoneAccount({ ctx, phone, lang }: { ctx: AppContext; phone: string; lang: Lang }): Promise<PhoneAccount> {
  const account = await phoneAccountOf({ ctx, phone });
  // spec part 1 §8: "We're sorry, we couldn't find an account with that number."
  if (!account) throw new AppError(404, ErrorIds.notFound, 'phone_not_found', {}, { message: translate(lang, 'phone_not_found') });
  return account;
}

/**
 * Makes a new code for the account (ending any earlier one) and texts it to the account's number.
 * @contract-exception a visitor's: asking for a sign-in code is how a visitor becomes an actor.
 */
export async function sendPhoneSignInCode({ ctx, account, lang }: { ctx: AppContext; account: PhoneAccount; lang?: Lang }): Promise<PhoneStartResponse> {
  const sms = ctx.services.sms;
  if (!sms) throw new AppError(503, ErrorIds.smsFailed, 'sms_failed');
  // No code for an account whose domain requires SSO: it could not sign in with it (verify refuses it too).
  await refuseSignInWhereSsoRequired(ctx.db, account.userId);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = new Date();
  await ctx.db
    .update(phoneSignInCodes)
    .set({ usedAt: now })
    .where(and(eq(phoneSignInCodes.userId, account.userId), isNull(phoneSignInCodes.usedAt)));
  const [row] = await ctx.db
    .insert(phoneSignInCodes)
    .values({ userId: account.userId, codeHash: codeHash(ctx, account.userId, code), expiresAt: new Date(now.getTime() + PHONE_CODE_TTL_MS) })
    .returning({ codeId: phoneSignInCodes.codeId });
  const app = await getConfig(ctx, 'app_name');
  try {
    await sms.send({ to: smsNumber(account.phone), text: translate(lang ?? account.lang, 'sms_code_text', { app, code }), kind: 'phone_sign_in', code });
  } catch (err) {
    // A code nobody received must not stay usable.
    await ctx.db.delete(phoneSignInCodes).where(eq(phoneSignInCodes.codeId, row.codeId));
    if (err instanceof SmsDeliveryError) throw new AppError(502, ErrorIds.smsFailed, 'sms_failed');
    throw err;
  }
  return { expires_in: PHONE_CODE_TTL_MS / 1000, resend_in: PHONE_CODE_RESEND_MS / 1000 };
}

/**
 * Checks the code of the account's live code; a right one is used up (one UPDATE ... RETURNING, so two
 * requests with the same code cannot both pass), a wrong one counts against the code.
 * @contract-exception a visitor's: the texted code is the credential; no actor exists yet.
 */
export async function verifyPhoneSignInCode({
  ctx,
  userId,
  code,
  deviceTokens,
}: {
  ctx: AppContext;
  userId: number;
  code: string;
  deviceTokens?: readonly string[];
}): Promise<LoginResponse> {
  const now = new Date();
  const [live] = await ctx.db
    .select()
    .from(phoneSignInCodes)
    .where(
      and(
        eq(phoneSignInCodes.userId, userId),
        isNull(phoneSignInCodes.usedAt),
        gt(phoneSignInCodes.expiresAt, now),
        lt(phoneSignInCodes.failedAttempts, PHONE_CODE_MAX_TRIES),
      ),
    )
    .orderBy(desc(phoneSignInCodes.codeId))
    .limit(1);
  if (!live) throw phoneCodeInvalid();
  const expected = Buffer.from(live.codeHash, 'hex');
  const given = Buffer.from(codeHash(ctx, userId, code), 'hex');
  if (!timingSafeEqual(expected, given)) {
    await ctx.db
      .update(phoneSignInCodes)
      .set({ failedAttempts: sql`${phoneSignInCodes.failedAttempts} + 1` })
      .where(eq(phoneSignInCodes.codeId, live.codeId));
    throw phoneCodeInvalid();
  }
  const [used] = await ctx.db
    .update(phoneSignInCodes)
    .set({ usedAt: now })
    .where(and(eq(phoneSignInCodes.codeId, live.codeId), isNull(phoneSignInCodes.usedAt), lt(phoneSignInCodes.failedAttempts, PHONE_CODE_MAX_TRIES)))
    .returning({ codeId: phoneSignInCodes.codeId });
  if (!used) throw phoneCodeInvalid();
  await refuseSignInWhereSsoRequired(ctx.db, userId);
  return sessionOrChallenge(ctx, userId, deviceTokens);
}

/** Deletes the codes that can no longer sign anyone in — used, expired at `now`, or out of tries — in batches; returns how many. */
export function purgeSpentPhoneSignInCodes(db: Db, now = new Date()): Promise<number> {
  const spent = or(isNotNull(phoneSignInCodes.usedAt), lte(phoneSignInCodes.expiresAt, now), gte(phoneSignInCodes.failedAttempts, PHONE_CODE_MAX_TRIES));
  return deleteInBatches(db, phoneSignInCodes, phoneSignInCodes.codeId, spent);
}
