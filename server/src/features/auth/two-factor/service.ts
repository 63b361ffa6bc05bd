// Two-factor with TOTP for the signed-in user (issue 33 item 2): set up (a secret shown as a QR code and as
// text), confirm with a first code (recovery codes shown once; this sign-in counts as having passed it),
// turn off and get new recovery codes (each with a current code). Every change of factor is audited.
import { ErrorIds } from '@pluma/common/errors';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../../context';
import type { Db } from '../../../db/client';
import { totpSecrets } from '../../../db/schema';
import { getConfig } from '../../../platform/appconfig/read';
import type { Actor } from '../../../platform/auth/actor';
import { invalidateUser } from '../../../platform/auth/invalidation';
import { markSecondFactor } from '../../../platform/auth/sessions';
import { decryptSecret, encryptSecret } from '../../../platform/crypto/secret-box';
import { writeAudit } from '../../../platform/http/audit';
import { AppError } from '../../../platform/http/errors';
import { confirmedTotp, hasPasskey, issueRecoveryCodes, recoveryCodesLeft, rememberDevice, removeSecondFactors, requireFactorChange, useSecondFactorCode, useTotpCode } from './factors';
import { newTotpSecret, totpEnrollment } from './totp';

/** Where a request came from, for the audit log. */
export interface RequestMeta {
  ip: string;
  requestId: string;
}

const codeInvalid = () => new AppError(400, ErrorIds.twoFactorCodeInvalid, 'two_factor_code_invalid');
const notEnabled = () => new AppError(409, ErrorIds.conflict, 'two_factor_not_enabled');

/** Required of staff admins; the actor's role may be held back until a second factor (platform/auth/actors.ts). */
const isRequired = (actor: Actor) => (actor.staffRole ?? actor.staffRoleAwaitingSecondFactor) === 'admin';

function audit(db: Db, actor: Actor, action: string, meta: RequestMeta, details?: Record<string, unknown>) {
  return writeAudit(db, { actorUserId: actor.user.userId, action, targetType: 'user', targetId: actor.user.userId, details, ip: meta.ip, requestId: meta.requestId });
}

export async function getTwoFactorStatus({ ctx, actor }: { ctx: AppContext; actor: Actor }) {
  const row = await confirmedTotp(ctx.db, actor.user.userId);
  return {
    enabled: row !== null,
    // A staff admin with a passkey has their second factor (features/auth/passkeys): TOTP is then optional.
    required: isRequired(actor) && !(await hasPasskey(ctx.db, actor.user.userId)),
    verified: actor.secondFactor === true,
    recovery_codes_left: row ? await recoveryCodesLeft(ctx.db, actor.user.userId) : 0,
  };
}

/** A new secret for the user's authenticator app, pending until confirmed (an earlier pending one is replaced). */
export async function startTwoFactorSetup({ ctx, actor }: { ctx: AppContext; actor: Actor }) {
  if (await confirmedTotp(ctx.db, actor.user.userId)) throw new AppError(409, ErrorIds.conflict, 'two_factor_already_enabled');
  await requireFactorChange(ctx.db, actor);
  const secret = newTotpSecret();
  const sealed = encryptSecret(ctx.env.APP_SECRET, secret);
  await ctx.db
    .insert(totpSecrets)
    .values({ userId: actor.user.userId, secretSealed: sealed })
    .onConflictDoUpdate({ target: totpSecrets.userId, set: { secretSealed: sealed, lastUsedStep: null, createdAt: new Date() } });
  const issuer = (await getConfig(ctx, 'app_name')) || 'Pluma';
  const { otpauthUrl, qrSvg } = await totpEnrollment(secret, actor.user.email, issuer);
  return { secret, otpauth_url: otpauthUrl, qr_svg: qrSvg };
}

/** The first right code turns two-factor on: recovery codes (shown once), and this sign-in has passed it. */
export async function confirmTwoFactorSetup({
  ctx,
  actor,
  input,
  meta,
}: {
  ctx: AppContext;
  actor: Actor;
  input: { code: string; remember_device?: boolean };
  meta: RequestMeta;
}): Promise<{ recovery_codes: string[]; device_token?: string }> {
  const userId = actor.user.userId;
  await requireFactorChange(ctx.db, actor);
  const [pending] = await ctx.db.select().from(totpSecrets).where(eq(totpSecrets.userId, userId)).limit(1);
  if (!pending) throw notEnabled();
  if (pending.confirmedAt) throw new AppError(409, ErrorIds.conflict, 'two_factor_already_enabled');
  // Proves the app holds the secret (decryptable: sealed with this APP_SECRET) before anything depends on it.
  decryptSecret(ctx.env.APP_SECRET, pending.secretSealed);
  if (!(await useTotpCode(ctx, pending, input.code.trim()))) throw codeInvalid();
  await ctx.db.update(totpSecrets).set({ confirmedAt: new Date() }).where(eq(totpSecrets.userId, userId));
  const recoveryCodes = await issueRecoveryCodes(ctx.db, userId);
  await markSecondFactor(ctx.db, actor.familyId);
  invalidateUser(userId);
  await audit(ctx.db, actor, 'two_factor.enabled', meta, { method: 'totp' });
  const deviceToken = input.remember_device ? await rememberDevice(ctx.db, userId) : undefined;
  return { recovery_codes: recoveryCodes, ...(deviceToken ? { device_token: deviceToken } : {}) };
}

/** Turns two-factor off with a current code; refused to staff admins, who must keep it (or a passkey). */
export async function disableTwoFactor({ ctx, actor, input, meta }: { ctx: AppContext; actor: Actor; input: { code: string }; meta: RequestMeta }) {
  if (isRequired(actor) && !(await hasPasskey(ctx.db, actor.user.userId))) throw new AppError(403, ErrorIds.twoFactorRequired, 'two_factor_required');
  const row = await confirmedTotp(ctx.db, actor.user.userId);
  if (!row) throw notEnabled();
  if (!(await useSecondFactorCode(ctx, row, input.code))) throw codeInvalid();
  await removeSecondFactors(ctx.db, actor.user.userId);
  invalidateUser(actor.user.userId);
  await audit(ctx.db, actor, 'two_factor.disabled', meta);
}

/** New recovery codes (the old ones stop working), with a current code. */
export async function regenerateRecoveryCodes({ ctx, actor, input, meta }: { ctx: AppContext; actor: Actor; input: { code: string }; meta: RequestMeta }) {
  const row = await confirmedTotp(ctx.db, actor.user.userId);
  if (!row) throw notEnabled();
  if (!(await useSecondFactorCode(ctx, row, input.code))) throw codeInvalid();
  const codes = await issueRecoveryCodes(ctx.db, actor.user.userId);
  await audit(ctx.db, actor, 'two_factor.recovery_codes_regenerated', meta);
  return { recovery_codes: codes };
}
