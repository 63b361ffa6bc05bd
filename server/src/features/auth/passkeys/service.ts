// Passkeys (WebAuthn, issue 33 item 3) of the signed-in user, with @simplewebauthn/server: register (options,
// then the browser's attestation), list, rename and delete — each change audited, like two-factor's. Signing
// in with one (a first factor, or a password sign-in's second step) is in sign-in.ts.
import { ErrorIds } from '@pluma/common/errors';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { and, count, eq } from 'drizzle-orm';
import type { AppContext } from '../../../context';
import type { Db } from '../../../db/client';
import { passkeys } from '../../../db/schema';
import { getConfig } from '../../../platform/appconfig/read';
import type { Actor } from '../../../platform/auth/actor';
import { invalidateUser } from '../../../platform/auth/invalidation';
import { markSecondFactor } from '../../../platform/auth/sessions';
import { AppError, notFound } from '../../../platform/http/errors';
import { confirmedTotp, requireFactorChange } from '../two-factor/factors';
import type { RequestMeta } from '../two-factor/service';
import {
  asJson,
  audit,
  challengeExpired,
  descriptor,
  isRequired,
  newChallenge,
  passkeyInvalid,
  useChallenge,
  userHandle,
  userPasskeys,
  webauthnServer,
  type CredentialJson,
  type PasskeyRow,
  type RelyingParty,
} from './webauthn';

export async function listPasskeys({ ctx, actor }: { ctx: AppContext; actor: Actor }) {
  return userPasskeys(ctx.db, actor.user.userId);
}

/** Options for navigator.credentials.create: a discoverable credential, none of the user's own again. */
export async function startPasskeyRegistration({ ctx, actor, rp }: { ctx: AppContext; actor: Actor; rp: RelyingParty }) {
  await requireFactorChange(ctx.db, actor);
  const existing = await userPasskeys(ctx.db, actor.user.userId);
  const { generateRegistrationOptions } = await webauthnServer();
  return asJson(await generateRegistrationOptions({
    rpName: (await getConfig(ctx, 'app_name')) || 'Pluma',
    rpID: rp.rpId,
    userID: userHandle(ctx, actor.user.userId),
    userName: actor.user.email,
    userDisplayName: `${actor.user.name} ${actor.user.lastName}`.trim(),
    challenge: await newChallenge(ctx.db, actor.user.userId, 'passkey_register'),
    attestationType: 'none',
    excludeCredentials: existing.map(descriptor),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  }));
}

/** Stores the new passkey once its attestation verifies against a live challenge of this user. */
export async function registerPasskey({
  ctx,
  actor,
  rp,
  input,
  meta,
}: {
  ctx: AppContext;
  actor: Actor;
  rp: RelyingParty;
  input: { name: string; credential: CredentialJson };
  meta: RequestMeta;
}) {
  const userId = actor.user.userId;
  await requireFactorChange(ctx.db, actor);
  const { challenge, userId: owner } = await useChallenge(ctx.db, input.credential, 'passkey_register');
  if (owner !== userId) throw challengeExpired();
  let verification;
  try {
    const { verifyRegistrationResponse } = await webauthnServer();
    verification = await verifyRegistrationResponse({
      response: input.credential as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpIds,
      requireUserVerification: false,
    });
  } catch {
    throw passkeyInvalid();
  }
  if (!verification.verified) throw passkeyInvalid();
  const { credential } = verification.registrationInfo;
  const [row] = await ctx.db
    .insert(passkeys)
    .values({
      userId,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name: input.name,
    })
    .onConflictDoNothing({ target: passkeys.credentialId })
    .returning();
  if (!row) throw new AppError(409, ErrorIds.conflict, 'passkey_exists');
  // Proving a passkey now is a second factor for this sign-in too (as confirming TOTP is).
  await markSecondFactor(ctx.db, actor.familyId);
  invalidateUser(userId);
  await audit(ctx.db, actor, 'passkey.added', meta, { passkey_id: row.passkeyId, name: row.name });
  return row;
}

/** One of the actor's own passkeys, or a 404 (another user's id is not found, DESIGN.md §7). */
async function ownPasskey(db: Db, actor: Actor, passkeyId: number): Promise<PasskeyRow> {
  const [row] = await db.select().from(passkeys).where(and(eq(passkeys.passkeyId, passkeyId), eq(passkeys.userId, actor.user.userId))).limit(1);
  if (!row) throw notFound();
  return row;
}

export async function renamePasskey({ ctx, actor, passkeyId, name, meta }: { ctx: AppContext; actor: Actor; passkeyId: number; name: string; meta: RequestMeta }) {
  const row = await ownPasskey(ctx.db, actor, passkeyId);
  const [updated] = await ctx.db.update(passkeys).set({ name }).where(eq(passkeys.passkeyId, row.passkeyId)).returning();
  await audit(ctx.db, actor, 'passkey.renamed', meta, { passkey_id: row.passkeyId, from: row.name, to: name });
  return updated;
}

/** Deletes a passkey; a staff admin may not drop their last second factor (no TOTP, no other passkey). */
export async function deletePasskey({ ctx, actor, passkeyId, meta }: { ctx: AppContext; actor: Actor; passkeyId: number; meta: RequestMeta }) {
  const row = await ownPasskey(ctx.db, actor, passkeyId);
  await requireFactorChange(ctx.db, actor);
  if (isRequired(actor) && !(await confirmedTotp(ctx.db, actor.user.userId))) {
    const [others] = await ctx.db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, actor.user.userId));
    if ((others?.n ?? 0) <= 1) throw new AppError(403, ErrorIds.twoFactorRequired, 'two_factor_required');
  }
  await ctx.db.delete(passkeys).where(eq(passkeys.passkeyId, row.passkeyId));
  invalidateUser(actor.user.userId);
  await audit(ctx.db, actor, 'passkey.deleted', meta, { passkey_id: row.passkeyId, name: row.name });
}

