// Passkeys (WebAuthn, issue 33 item 3) with @simplewebauthn/server: the signed-in user registers, lists,
// renames and deletes theirs (each change audited, like two-factor's); anyone signs in with one as a first
// factor (a discoverable credential: no email asked), and a password sign-in's second step takes one instead
// of a TOTP code. Every WebAuthn challenge is a one-time token (5 minutes, used once, whatever the outcome).
// A passkey that verifies user presence on the device it lives on counts as having passed the second factor.
import { ErrorIds } from '@pluma/common/errors';
import type { AuthResponse } from '@pluma/common/users';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeClientDataJSON } from '@simplewebauthn/server/helpers';
import { and, count, desc, eq } from 'drizzle-orm';
import { createHmac } from 'node:crypto';
import type { AppContext } from '../../../context';
import type { Db } from '../../../db/client';
import { passkeys } from '../../../db/schema';
import { getConfig } from '../../../platform/appconfig/read';
import type { Actor } from '../../../platform/auth/actor';
import { invalidateUser } from '../../../platform/auth/invalidation';
import { consumeOneTimeToken, consumePasskeyChallenge, issueOneTimeToken, type PasskeyChallengePurpose } from '../../../platform/auth/one-time-tokens';
import { markSecondFactor } from '../../../platform/auth/sessions';
import { writeAudit } from '../../../platform/http/audit';
import { AppError, notFound } from '../../../platform/http/errors';
import { confirmedTotp, rememberDevice } from '../two-factor/factors';
import type { RequestMeta } from '../two-factor/service';
import { challengeInvalid as signInStepExpired, openSession } from '../two-factor/sign-in-step';

/** Who the browser talks to: the RP id for new options, and every origin and RP id a response may carry. */
export interface RelyingParty {
  rpId: string;
  rpIds: string[];
  origins: string[];
}

/** What the browser sends back (@simplewebauthn/browser's JSON), held only in its outer shape by the route. */
export type CredentialJson = { id: string; rawId: string; type: 'public-key'; response: { clientDataJSON: string } };

type PasskeyRow = typeof passkeys.$inferSelect;

const passkeyInvalid = () => new AppError(400, ErrorIds.passkeyInvalid, 'passkey_invalid');
const challengeExpired = () => new AppError(401, ErrorIds.passkeyChallengeInvalid, 'passkey_challenge_invalid');

/** Staff admins must keep a second factor (two-factor/service.ts says the same of TOTP). */
const isRequired = (actor: Actor) => (actor.staffRole ?? actor.staffRoleAwaitingSecondFactor) === 'admin';

function audit(db: Db, actor: Actor, action: string, meta: RequestMeta, details?: Record<string, unknown>) {
  return writeAudit(db, { actorUserId: actor.user.userId, action, targetType: 'user', targetId: actor.user.userId, details, ip: meta.ip, requestId: meta.requestId });
}

/** The WebAuthn user handle: stable per user (so an authenticator keeps one passkey per account), and no id or email. */
const userHandle = (ctx: Pick<AppContext, 'env'>, userId: number) =>
  Uint8Array.from(createHmac('sha256', ctx.env.APP_SECRET).update(`passkey-user:${userId}`).digest().subarray(0, 32));

/** A one-time token as the WebAuthn challenge: base64url of 32 random bytes, so the browser echoes it verbatim. */
async function newChallenge(db: Db, userId: number | null, purpose: PasskeyChallengePurpose): Promise<Uint8Array<ArrayBuffer>> {
  return Uint8Array.from(Buffer.from(await issueOneTimeToken(db, { userId, purpose }), 'base64url'));
}

/** The options as the JSON the browser's startRegistration/startAuthentication take. */
const asJson = (options: object) => options as Record<string, unknown>;

/** The challenge a response answers, used up now: a replay, an expired one or another purpose's is refused. */
async function useChallenge(db: Db, credential: CredentialJson, purpose: PasskeyChallengePurpose): Promise<{ challenge: string; userId: number | null }> {
  let challenge: string;
  try {
    challenge = decodeClientDataJSON(credential.response.clientDataJSON).challenge;
  } catch {
    throw passkeyInvalid();
  }
  const used = await consumePasskeyChallenge(db, challenge, purpose);
  if (!used.found) throw challengeExpired();
  return { challenge, userId: used.userId };
}

const descriptor = (row: Pick<PasskeyRow, 'credentialId' | 'transports'>) => ({ id: row.credentialId, transports: row.transports as AuthenticatorTransport[] });

const userPasskeys = (db: Db, userId: number) => db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(desc(passkeys.createdAt), desc(passkeys.passkeyId));

export function presentPasskey(row: PasskeyRow) {
  return { passkey_id: row.passkeyId, name: row.name, createdAt: row.createdAt.toISOString(), last_used_at: row.lastUsedAt?.toISOString() ?? null };
}

export async function listPasskeys({ ctx, actor }: { ctx: AppContext; actor: Actor }) {
  return { passkeys: (await userPasskeys(ctx.db, actor.user.userId)).map(presentPasskey) };
}

/** Options for navigator.credentials.create: a discoverable credential, none of the user's own again. */
export async function startPasskeyRegistration({ ctx, actor, rp }: { ctx: AppContext; actor: Actor; rp: RelyingParty }) {
  const existing = await userPasskeys(ctx.db, actor.user.userId);
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
  const { challenge, userId: owner } = await useChallenge(ctx.db, input.credential, 'passkey_register');
  if (owner !== userId) throw challengeExpired();
  let verification;
  try {
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
  return presentPasskey(row);
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
  return presentPasskey(updated);
}

/** Deletes a passkey; a staff admin may not drop their last second factor (no TOTP, no other passkey). */
export async function deletePasskey({ ctx, actor, passkeyId, meta }: { ctx: AppContext; actor: Actor; passkeyId: number; meta: RequestMeta }) {
  const row = await ownPasskey(ctx.db, actor, passkeyId);
  if (isRequired(actor) && !(await confirmedTotp(ctx.db, actor.user.userId))) {
    const [others] = await ctx.db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, actor.user.userId));
    if ((others?.n ?? 0) <= 1) throw new AppError(403, ErrorIds.twoFactorRequired, 'two_factor_required');
  }
  await ctx.db.delete(passkeys).where(eq(passkeys.passkeyId, row.passkeyId));
  invalidateUser(actor.user.userId);
  await audit(ctx.db, actor, 'passkey.deleted', meta, { passkey_id: row.passkeyId, name: row.name });
}

/**
 * Verifies an assertion by a stored passkey, then records its counter with a conditional UPDATE: a counter
 * at or below the stored one (when the authenticator keeps one) is a cloned authenticator, refused.
 */
async function verifyAssertion(
  ctx: AppContext,
  rp: RelyingParty,
  credential: CredentialJson,
  challenge: string,
  row: PasskeyRow,
  requireUserVerification: boolean,
): Promise<void> {
  let newCounter: number;
  try {
    const verification = await verifyAuthenticationResponse({
      response: credential as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpIds,
      credential: { id: row.credentialId, publicKey: Uint8Array.from(Buffer.from(row.publicKey, 'base64url')), counter: row.counter, transports: descriptor(row).transports },
      requireUserVerification,
    });
    if (!verification.verified) throw passkeyInvalid();
    newCounter = verification.authenticationInfo.newCounter;
  } catch {
    throw passkeyInvalid();
  }
  const updated = await ctx.db
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: new Date() })
    .where(and(eq(passkeys.passkeyId, row.passkeyId), eq(passkeys.counter, row.counter)))
    .returning({ passkeyId: passkeys.passkeyId });
  if (updated.length !== 1) throw passkeyInvalid();
}

async function passkeyByCredentialId(db: Db, credentialId: string): Promise<PasskeyRow | null> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).limit(1);
  return row ?? null;
}

/**
 * Options for a sign-in with a passkey and no email: the browser offers the passkeys it holds for this site.
 * @contract-exception a visitor's: signing in is how a visitor becomes an actor (a passkey).
 */
export async function startPasskeySignIn({ ctx, rp }: { ctx: AppContext; rp: RelyingParty }) {
  return asJson(await generateAuthenticationOptions({ rpID: rp.rpId, userVerification: 'required', challenge: await newChallenge(ctx.db, null, 'passkey_sign_in') }));
}

/**
 * A session for the passkey's user: the passkey is the first factor, and its user verification (PIN,
 * fingerprint) on the device makes it a second one too (sessions.second_factor_at).
 * @contract-exception a visitor's: signing in is how a visitor becomes an actor (a passkey).
 */
export async function signInWithPasskey({ ctx, rp, credential }: { ctx: AppContext; rp: RelyingParty; credential: CredentialJson }): Promise<AuthResponse> {
  const { challenge } = await useChallenge(ctx.db, credential, 'passkey_sign_in');
  const row = await passkeyByCredentialId(ctx.db, credential.id);
  if (!row) throw passkeyInvalid();
  await verifyAssertion(ctx, rp, credential, challenge, row, true);
  return openSession(ctx, row.userId, true);
}

/**
 * Options for the second step of a password sign-in: that user's passkeys only.
 * @contract-exception a visitor's: the second step of a sign-in, before any session exists.
 */
export async function startPasskeySecondFactor({ ctx, rp, userId }: { ctx: AppContext; rp: RelyingParty; userId: number }) {
  const own = await userPasskeys(ctx.db, userId);
  if (own.length === 0) throw passkeyInvalid();
  return asJson(
    await generateAuthenticationOptions({
      rpID: rp.rpId,
      userVerification: 'preferred',
      allowCredentials: own.map(descriptor),
      challenge: await newChallenge(ctx.db, userId, 'passkey_two_factor'),
    }),
  );
}

/**
 * Finishes a password sign-in's second step with a passkey of that user (another's is refused); the sign-in
 * challenge is used up only by a verified passkey, as by a right code.
 * @contract-exception a visitor's: the second step of a sign-in, before any session exists.
 */
export async function finishSecondFactorWithPasskey({
  ctx,
  rp,
  userId,
  input,
}: {
  ctx: AppContext;
  rp: RelyingParty;
  userId: number;
  input: { challenge: string; credential: CredentialJson; remember_device?: boolean };
}): Promise<AuthResponse & { device_token?: string }> {
  const { challenge, userId: owner } = await useChallenge(ctx.db, input.credential, 'passkey_two_factor');
  if (owner !== userId) throw challengeExpired();
  const row = await passkeyByCredentialId(ctx.db, input.credential.id);
  if (!row || row.userId !== userId) throw passkeyInvalid();
  await verifyAssertion(ctx, rp, input.credential, challenge, row, false);
  if ((await consumeOneTimeToken(ctx.db, input.challenge, 'two_factor')) !== userId) throw signInStepExpired();
  const response = await openSession(ctx, userId, true);
  return input.remember_device ? { ...response, device_token: await rememberDevice(ctx.db, userId) } : response;
}
