// Signing in with a passkey (issue 33 item 3): as a first factor (a discoverable credential: no email asked;
// its user verification on the device makes it a second factor too, sessions.second_factor_at), and as the
// second step of a password sign-in instead of a TOTP code. Visitors' operations: no session exists yet.
import type { AuthResponse } from '@pluma/common/users';
import type { AppContext } from '../../../context';
import { consumeOneTimeToken } from '../../../platform/auth/one-time-tokens';
import { refuseSignInWhereSsoRequired } from '../sso/domain-rule';
import { rememberDevice } from '../two-factor/factors';
import { challengeInvalid as signInStepExpired, openSession } from '../two-factor/sign-in-step';
import {
  asJson,
  challengeExpired,
  descriptor,
  newChallenge,
  passkeyByCredentialId,
  passkeyInvalid,
  useChallenge,
  userPasskeys,
  verifyAssertion,
  webauthnServer,
  type CredentialJson,
  type RelyingParty,
} from './webauthn';

/**
 * Options for a sign-in with a passkey and no email: the browser offers the passkeys it holds for this site.
 * @contract-exception a visitor's: signing in is how a visitor becomes an actor (a passkey).
 */
export async function startPasskeySignIn({ ctx, rp }: { ctx: AppContext; rp: RelyingParty }) {
  const { generateAuthenticationOptions } = await webauthnServer();
  return asJson(await generateAuthenticationOptions({ rpID: rp.rpId, userVerification: 'required', challenge: await newChallenge(ctx.db, null, 'passkey_sign_in') }));
}

/**
 * A session for the passkey's user: the passkey is the first factor, and its user verification (PIN,
 * fingerprint) on the device makes it a second one too (sessions.second_factor_at). Not where the
 * account's domain requires SSO (sso/domain-rule.ts).
 * @contract-exception a visitor's: signing in is how a visitor becomes an actor (a passkey).
 */
export async function signInWithPasskey({ ctx, rp, credential }: { ctx: AppContext; rp: RelyingParty; credential: CredentialJson }): Promise<AuthResponse> {
  const { challenge } = await useChallenge(ctx.db, credential, 'passkey_sign_in');
  const row = await passkeyByCredentialId(ctx.db, credential.id);
  if (!row) throw passkeyInvalid();
  await verifyAssertion(ctx, rp, credential, challenge, row, true);
  // Told only to the passkey's holder: an account whose domain requires SSO signs in through it.
  await refuseSignInWhereSsoRequired(ctx.db, row.userId);
  return openSession(ctx, row.userId, true);
}

/**
 * Options for the second step of a password sign-in: that user's passkeys only.
 * @contract-exception a visitor's: the second step of a sign-in, before any session exists.
 */
export async function startPasskeySecondFactor({ ctx, rp, userId }: { ctx: AppContext; rp: RelyingParty; userId: number }) {
  const own = await userPasskeys(ctx.db, userId);
  if (own.length === 0) throw passkeyInvalid();
  const { generateAuthenticationOptions } = await webauthnServer();
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
