// The WebAuthn pieces the passkey operations share (issue 33 item 3): the relying party, challenges as
// one-time tokens (5 minutes, used once whatever the outcome), the stored passkeys, and the check of an
// assertion with its signature counter.
import { ErrorIds } from '@pluma/common/errors';
import type { AuthenticationResponseJSON, AuthenticatorTransport } from '@simplewebauthn/server';
import { and, desc, eq } from 'drizzle-orm';
import { createHmac } from 'node:crypto';
import type { AppContext } from '../../../context';
import type { Db } from '../../../db/client';
import { passkeys } from '../../../db/schema';
import type { Actor } from '../../../platform/auth/actor';
import { consumePasskeyChallenge, issueOneTimeToken, type PasskeyChallengePurpose } from '../../../platform/auth/one-time-tokens';
import { writeAudit } from '../../../platform/http/audit';
import { AppError } from '../../../platform/http/errors';
import type { RequestMeta } from '../two-factor/service';

/** Who the browser talks to: the RP id for new options, and every origin and RP id a response may carry. */
export interface RelyingParty {
  rpId: string;
  rpIds: string[];
  origins: string[];
}

/** What the browser sends back (@simplewebauthn/browser's JSON), held only in its outer shape by the route. */
export type CredentialJson = { id: string; rawId: string; type: 'public-key'; response: { clientDataJSON: string } };

export type PasskeyRow = typeof passkeys.$inferSelect;

export const passkeyInvalid = () => new AppError(400, ErrorIds.passkeyInvalid, 'passkey_invalid');
export const challengeExpired = () => new AppError(401, ErrorIds.passkeyChallengeInvalid, 'passkey_challenge_invalid');

/** Staff admins must keep a second factor (two-factor/service.ts says the same of TOTP). */
export const isRequired = (actor: Actor) => (actor.staffRole ?? actor.staffRoleAwaitingSecondFactor) === 'admin';

export function audit(db: Db, actor: Actor, action: string, meta: RequestMeta, details?: Record<string, unknown>) {
  return writeAudit(db, { actorUserId: actor.user.userId, action, targetType: 'user', targetId: actor.user.userId, details, ip: meta.ip, requestId: meta.requestId });
}

/** The WebAuthn user handle: stable per user (so an authenticator keeps one passkey per account), and no id or email. */
export const userHandle = (ctx: Pick<AppContext, 'env'>, userId: number) =>
  Uint8Array.from(createHmac('sha256', ctx.env.APP_SECRET).update(`passkey-user:${userId}`).digest().subarray(0, 32));

/** A one-time token as the WebAuthn challenge: base64url of 32 random bytes, so the browser echoes it verbatim. */
export async function newChallenge(db: Db, userId: number | null, purpose: PasskeyChallengePurpose): Promise<Uint8Array<ArrayBuffer>> {
  return Uint8Array.from(Buffer.from(await issueOneTimeToken(db, { userId, purpose }), 'base64url'));
}

/**
 * @simplewebauthn/server, loaded with the first passkey call rather than at boot: with its X.509 and ASN.1
 * parsers it cost ~0.3 s of CPU at every start (cold start, issue 31 item 4).
 */
export const webauthnServer = () => import('@simplewebauthn/server');

/** The options as the JSON the browser's startRegistration/startAuthentication take. */
export const asJson = (options: object) => options as Record<string, unknown>;

/** The challenge a response answers, used up now: a replay, an expired one or another purpose's is refused. */
export async function useChallenge(db: Db, credential: CredentialJson, purpose: PasskeyChallengePurpose): Promise<{ challenge: string; userId: number | null }> {
  let challenge: unknown;
  try {
    const { decodeClientDataJSON } = await import('@simplewebauthn/server/helpers');
    challenge = decodeClientDataJSON(credential.response.clientDataJSON).challenge;
  } catch {
    throw passkeyInvalid();
  }
  // Any JSON decodes: client data without a challenge string (the fuzz sent other base64url JSON) is refused.
  if (typeof challenge !== 'string' || challenge.length === 0 || challenge.length > 200) throw passkeyInvalid();
  const used = await consumePasskeyChallenge(db, challenge, purpose);
  if (!used.found) throw challengeExpired();
  return { challenge, userId: used.userId };
}

export const descriptor = (row: Pick<PasskeyRow, 'credentialId' | 'transports'>) => ({ id: row.credentialId, transports: row.transports as AuthenticatorTransport[] });

export const userPasskeys = (db: Db, userId: number) => db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(desc(passkeys.createdAt), desc(passkeys.passkeyId));

/**
 * Verifies an assertion by a stored passkey, then records its counter with a conditional UPDATE: a counter
 * at or below the stored one (when the authenticator keeps one) is a cloned authenticator, refused.
 */
export async function verifyAssertion(
  ctx: AppContext,
  rp: RelyingParty,
  credential: CredentialJson,
  challenge: string,
  row: PasskeyRow,
  requireUserVerification: boolean,
): Promise<void> {
  let newCounter: number;
  try {
    const { verifyAuthenticationResponse } = await webauthnServer();
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

export async function passkeyByCredentialId(db: Db, credentialId: string): Promise<PasskeyRow | null> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).limit(1);
  return row ?? null;
}

