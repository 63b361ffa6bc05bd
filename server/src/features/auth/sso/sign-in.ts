// Signing in through an OpenID provider (issue 33 item 4; a visitor's steps, so no actor, as two-factor/sign-in-step.ts): the redirect with PKCE (S256), state and nonce kept
// server-side (sso_attempts: single use, SSO_ATTEMPT_MS, bound to the browser by a cookie), the callback that
// verifies them and the ID token (openid-client), then the account: the (issuer, subject) link, else the
// account with the same email — linked only when the provider says email_verified — else a new account. The
// browser gets a one-time code (5 minutes, single use) that POST /api/auth/sso/exchange turns into a session
// the way a password does (two-factor/sign-in-step.ts sessionOrChallenge: TOTP still applies).
import { SSO_ATTEMPT_MS, type SsoErrorKey } from '@pluma/common/sso';
import type { Lang } from '@pluma/common/constants';
import type { LoginResponse } from '@pluma/common/users';
import { ErrorIds } from '@pluma/common/errors';
import { and, asc, eq, gt, isNull, lt } from 'drizzle-orm';
import * as client from 'openid-client';
import type { AppContext } from '../../../context';
import { ssoAttempts, ssoIdentities, ssoProviders, userOrganizations, users } from '../../../db/schema';
import { getConfigBool } from '../../../platform/appconfig/read';
import { invalidateUser } from '../../../platform/auth/invalidation';
import { consumeOneTimeToken, issueOneTimeToken } from '../../../platform/auth/one-time-tokens';
import { hashToken, randomToken } from '../../../platform/auth/tokens';
import { writeAudit } from '../../../platform/http/audit';
import { AppError, notFound } from '../../../platform/http/errors';
import type { Log } from '../../../platform/log';
import { findUserByEmail } from '../../users';
import { sessionOrChallenge } from '../two-factor/sign-in-step';
import { domainSso } from './domain-rule';
import { providerConfiguration, ssoCallbackUrl, type ProviderRow } from './provider-config';

/** A callback refused: the browser goes back to /login with this reason. */
export class SsoFailure extends Error {
  constructor(readonly reason: SsoErrorKey) {
    super(reason);
  }
}

/** The enabled providers' ids and names: the buttons of /login (every visitor sees them). */
export async function listEnabledSsoProviders(options: { ctx: AppContext }): Promise<{ providerId: number; name: string }[]> {
  return options.ctx.db
    .select({ providerId: ssoProviders.providerId, name: ssoProviders.name })
    .from(ssoProviders)
    .where(eq(ssoProviders.enabled, true))
    .orderBy(asc(ssoProviders.name), asc(ssoProviders.providerId));
}

/**
 * The provider's authorization URL for a new attempt, and the browser token its cookie must carry back.
 */
export async function startSsoSignIn(options: { ctx: AppContext; providerId: number }): Promise<{ url: string; browserToken: string }> {
  const { ctx, providerId } = options;
  const [provider] = await ctx.db
    .select()
    .from(ssoProviders)
    .where(and(eq(ssoProviders.providerId, providerId), eq(ssoProviders.enabled, true)))
    .limit(1);
  if (!provider) throw notFound();
  const config = await providerConfiguration(ctx, provider);
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const browserToken = randomToken();
  // Attempts nobody came back from are dropped here (indexed by expiry), so the table stays small.
  await ctx.db.delete(ssoAttempts).where(lt(ssoAttempts.expiresAt, new Date()));
  await ctx.db.insert(ssoAttempts).values({
    providerId,
    stateHash: hashToken(state),
    browserHash: hashToken(browserToken),
    nonce,
    codeVerifier,
    expiresAt: new Date(Date.now() + SSO_ATTEMPT_MS),
  });
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: ssoCallbackUrl(ctx),
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url: url.href, browserToken };
}

/** Uses up the attempt of `state` (one UPDATE ... RETURNING: a replayed callback finds it used). */
async function consumeAttempt(ctx: AppContext, state: string) {
  const now = new Date();
  const [attempt] = await ctx.db
    .update(ssoAttempts)
    .set({ usedAt: now })
    .where(and(eq(ssoAttempts.stateHash, hashToken(state)), isNull(ssoAttempts.usedAt), gt(ssoAttempts.expiresAt, now)))
    .returning();
  return attempt ?? null;
}

interface Claims {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string;
  lastName: string;
}

function claimsOf(raw: client.IDToken): Claims {
  const str = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const email = str(raw.email).toLowerCase() || null;
  // spec part 1 §5 asks name and last name at sign-up; a provider may give only `name`, or nothing.
  const given = str(raw.given_name);
  const family = str(raw.family_name);
  const full = str(raw.name);
  const name = (given || full || (email ? email.slice(0, email.indexOf('@')) : '')).slice(0, 100) || 'SSO';
  return {
    issuer: raw.iss,
    subject: raw.sub,
    email,
    // Some providers send the claim as a string.
    emailVerified: raw.email_verified === true || raw.email_verified === 'true',
    name,
    lastName: (given ? family : '').slice(0, 100),
  };
}

const isUniqueViolation = (err: unknown) => {
  const code = (e: unknown) => (e as { code?: unknown } | null)?.code;
  return code(err) === '23505' || code((err as { cause?: unknown } | null)?.cause) === '23505';
};

/** The account these claims sign in to: linked, linked now (verified email only), or created. */
async function accountFor(ctx: AppContext, provider: ProviderRow, claims: Claims, lang: Lang, meta: { ip: string; requestId: string }): Promise<number> {
  const [linked] = await ctx.db
    .select({ userId: ssoIdentities.userId })
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.issuer, claims.issuer), eq(ssoIdentities.subject, claims.subject)))
    .limit(1);
  if (linked) return linked.userId;
  if (!claims.email) throw new SsoFailure('sso_email_missing');
  const link = async (userId: number, action: string) => {
    await ctx.db.insert(ssoIdentities).values({ userId, providerId: provider.providerId, issuer: claims.issuer, subject: claims.subject });
    await writeAudit(ctx.db, {
      actorUserId: userId,
      action,
      targetType: 'user',
      targetId: userId,
      details: { provider_id: provider.providerId, issuer: claims.issuer },
      ip: meta.ip,
      requestId: meta.requestId,
    });
  };
  const existing = await findUserByEmail({ db: ctx.db, email: claims.email });
  if (existing) {
    // Anyone can make an account at some provider with someone else's address: only a verified one links.
    if (!claims.emailVerified) throw new SsoFailure('sso_email_unverified');
    await link(existing.userId, 'sso.linked');
    return existing.userId;
  }
  const domain = await domainSso(ctx.db, claims.email);
  const organizationsProvider = domain?.providerId === provider.providerId;
  if (!organizationsProvider && !(await getConfigBool(ctx, 'signup_enabled'))) throw new SsoFailure('sso_signup_disabled');
  let userId: number;
  try {
    // No password (password login stays closed until a reset sets one) and no phone: the provider gives neither.
    [{ userId }] = await ctx.db
      .insert(users)
      .values({ name: claims.name, lastName: claims.lastName, email: claims.email, passwordHash: null, phone: null, lang })
      .returning({ userId: users.userId });
  } catch (err) {
    // The same email signed up at the same moment: the next attempt links (when verified).
    if (isUniqueViolation(err)) throw new SsoFailure('sso_failed');
    throw err;
  }
  await link(userId, 'sso.account_created');
  return userId;
}

/** A sign-in on the organization's domain through the organization's provider joins it as a Member (role 3). */
async function joinDomainOrganization(ctx: AppContext, provider: ProviderRow, userId: number, email: string, emailVerified: boolean) {
  const domain = await domainSso(ctx.db, email);
  if (!domain || domain.providerId !== provider.providerId || !emailVerified) return;
  const joined = await ctx.db
    .insert(userOrganizations)
    .values({ userId, organizationId: domain.organizationId, userTypeId: 3 })
    .onConflictDoNothing()
    .returning({ id: userOrganizations.userOrganizationId });
  if (joined.length) invalidateUser(userId);
}

/**
 * Verifies the callback (state, browser, then openid-client: code, PKCE, ID token and nonce) and returns the
 * one-time code for the browser. Refusals are SsoFailure.
 */
export async function finishSsoSignIn(options: {
  ctx: AppContext;
  search: string;
  browserToken: string | undefined;
  lang: Lang;
  meta: { ip: string; requestId: string };
  log: Log;
}): Promise<{ code: string }> {
  const { ctx, log } = options;
  const params = new URLSearchParams(options.search);
  const state = params.get('state');
  if (!state) throw new SsoFailure('sso_state_invalid');
  const attempt = await consumeAttempt(ctx, state);
  // Another browser's attempt (a link sent to a victim, login CSRF) is refused like an unknown one.
  if (!attempt || !options.browserToken || hashToken(options.browserToken) !== attempt.browserHash) throw new SsoFailure('sso_state_invalid');
  const [provider] = await ctx.db
    .select()
    .from(ssoProviders)
    .where(and(eq(ssoProviders.providerId, attempt.providerId), eq(ssoProviders.enabled, true)))
    .limit(1);
  if (!provider) throw new SsoFailure('sso_failed');

  let claims: Claims;
  try {
    const config = await providerConfiguration(ctx, provider);
    const tokens = await client.authorizationCodeGrant(config, new URL(`${ssoCallbackUrl(ctx)}?${params.toString()}`), {
      pkceCodeVerifier: attempt.codeVerifier,
      expectedState: state,
      expectedNonce: attempt.nonce,
      idTokenExpected: true,
    });
    const idToken = tokens.claims();
    if (!idToken) throw new Error('no ID token');
    let raw: client.IDToken = idToken;
    // Providers that keep profile claims out of the ID token (oidc-provider's default, Entra without optional
    // claims) give them at the userinfo endpoint; its `sub` is checked against the ID token's.
    if (typeof idToken.email !== 'string' && config.serverMetadata().userinfo_endpoint) {
      const info = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
      raw = { ...info, ...idToken, email: info.email, email_verified: info.email_verified } as client.IDToken;
    }
    claims = claimsOf(raw);
  } catch (err) {
    log.warn({ err, providerId: provider.providerId }, 'sso callback refused');
    throw new SsoFailure('sso_failed');
  }

  if (claims.email) {
    const domain = await domainSso(ctx.db, claims.email);
    if (domain?.required && domain.providerId !== provider.providerId) throw new SsoFailure('sso_wrong_provider');
  }
  const userId = await accountFor(ctx, provider, claims, options.lang, options.meta);
  const [account] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.userId, userId)).limit(1);
  // A linked identity may carry another address (or none): the account's own domain requires its provider too.
  if (account) {
    const own = await domainSso(ctx.db, account.email);
    if (own?.required && own.providerId !== provider.providerId) throw new SsoFailure('sso_wrong_provider');
  }
  // The organization of the account's own email (a linked account's address may differ from the claim's).
  if (account) await joinDomainOrganization(ctx, provider, userId, account.email, claims.emailVerified && account.email.toLowerCase() === claims.email);
  return { code: await issueOneTimeToken(ctx.db, { userId, purpose: 'sso' }) };
}

/**
 * The callback's code for a session, or with two-factor on the challenge of its second step.
 */
export async function exchangeSsoCode(options: { ctx: AppContext; code: string; deviceTokens?: readonly string[] }): Promise<LoginResponse> {
  const userId = await consumeOneTimeToken(options.ctx.db, options.code, 'sso');
  if (userId === null) throw new AppError(400, ErrorIds.ssoCodeInvalid, 'sso_code_invalid');
  return sessionOrChallenge(options.ctx, userId, options.deviceTokens);
}
