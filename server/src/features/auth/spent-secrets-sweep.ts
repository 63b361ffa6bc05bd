// Short-lived sign-in secrets are deleted once they can no longer be used, as the app runs: one-time tokens
// (reset links, sign-in steps, passkey challenges) and phone sign-in codes. Anonymous callers can make both
// (passkey sign-in options, phone code requests), so without the sweep their tables would only grow; with
// it they hold about an hour of rows (the longest lifetime, a reset link's), within the callers' rate limits.
import type { AppContext } from '../../context';
import { purgeSpentOneTimeTokens } from '../../platform/auth/one-time-tokens';
import { every } from '../../platform/jobs/every';
import { purgeSpentPhoneSignInCodes } from './phone/code-sign-in';

/** How often spent secrets are deleted. */
export const SPENT_SECRETS_SWEEP_MS = 10 * 60_000;

/** Deletes every spent one-time token and phone code; returns how many of each went. */
export async function purgeSpentSignInSecrets(db: AppContext['db'], now = new Date()): Promise<{ tokens: number; phoneCodes: number }> {
  const tokens = await purgeSpentOneTimeTokens(db, now);
  const phoneCodes = await purgeSpentPhoneSignInCodes(db, now);
  return { tokens, phoneCodes };
}

/** Runs purgeSpentSignInSecrets every SPENT_SECRETS_SWEEP_MS; returns the stop function. */
export function startSpentSecretsSweep(ctx: Pick<AppContext, 'db'>, onError: (err: unknown) => void, intervalMs = SPENT_SECRETS_SWEEP_MS): () => void {
  return every(intervalMs, () => purgeSpentSignInSecrets(ctx.db), onError);
}
