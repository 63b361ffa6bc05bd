// "Require SSO for our domain" (issue 33 item 4; spec part 2 §4 gives organizations their `domain`): a user
// whose email is on the domain of an organization that requires it signs in only through that organization's
// provider. A requirement counts only while its provider is enabled (a provider switched off by staff must not
// lock the domain out), and staff accounts are exempt so the operators can always reach /admin (break-glass,
// docs/decisions.md "Single sign-on"). Every other way in — password, reset link, phone code, passkey — is refused.
import { ErrorIds } from '@pluma/common/errors';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { organizations, organizationSso, ssoProviders, staff, users } from '../../../db/schema';
import { AppError } from '../../../platform/http/errors';
import type { Log } from '../../../platform/log';
import { findUserByEmail } from '../../users';

export const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).trim().toLowerCase();

export interface DomainSso {
  organizationId: number;
  providerId: number;
  providerName: string;
  required: boolean;
}

/** The organization whose domain is the email's, with its chosen (enabled) provider; null when none. */
export async function domainSso(db: Db, email: string): Promise<DomainSso | null> {
  const domain = emailDomain(email);
  if (!domain) return null;
  const [row] = await db
    .select({
      organizationId: organizations.organizationId,
      providerId: organizationSso.providerId,
      providerName: ssoProviders.name,
      required: organizationSso.required,
    })
    .from(organizations)
    .innerJoin(organizationSso, eq(organizationSso.organizationId, organizations.organizationId))
    .innerJoin(ssoProviders, and(eq(ssoProviders.providerId, organizationSso.providerId), eq(ssoProviders.enabled, true)))
    .where(sql`lower(${organizations.domain}) = ${domain}`)
    .limit(1);
  return row ?? null;
}

/** The refusal of a password sign-in (or sign-up) for an email on a domain that requires SSO. */
export const ssoRequired = (sso: DomainSso) => new AppError(403, ErrorIds.ssoRequired, 'sso_required', { provider: sso.providerName }, { code: sso.providerId });

/**
 * Throws `sso_required` when the email's domain requires SSO and the account (`userId`, null when none) is not
 * staff. Checked before the password, so the answer does not depend on the password.
 */
export function refusePasswordWhereSsoRequired(db: Db, email: string, userId: number | null): Promise<void> {
  return refusePasswordSignInWhereSsoRequired(db, email, userId, true);
}

/** Staff accounts are exempt from the requirement (their break-glass way in). */
export async function isStaff(db: Db, userId: number): Promise<boolean> {
  const [member] = await db.select({ userId: staff.userId }).from(staff).where(eq(staff.userId, userId)).limit(1);
  return member !== undefined;
}

/**
 * A password sign-in on a domain that requires SSO: only a staff account with its right password passes
 * (break-glass). Every other attempt — a wrong password included, a staff account's too — gets the same
 * sso_required, after the same password check, so neither the answer nor its time tells which addresses on the
 * domain are staff. `passwordOk` is the result of that check, made by the caller whatever the domain.
 */
export async function refusePasswordSignInWhereSsoRequired(db: Db, email: string, userId: number | null, passwordOk: boolean): Promise<void> {
  const sso = await domainSso(db, email);
  if (!sso?.required) return;
  if (userId !== null && passwordOk && (await isStaff(db, userId))) return;
  throw ssoRequired(sso);
}

/**
 * The same refusal for a sign-in that names the account rather than an email (a reset link, a phone code, a
 * passkey): the account's own email decides.
 */
export async function refuseSignInWhereSsoRequired(db: Db, userId: number): Promise<void> {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.userId, userId)).limit(1);
  if (user) await refusePasswordWhereSsoRequired(db, user.email, userId);
}

/**
 * A reset email asked for an address on a domain that requires SSO: a reset could not sign anyone in there, so
 * the answer is sso_required whether or not the account exists (nothing told either way); a staff account
 * (exempt) still gets its link by `send`, its failure only logged so the answer stays the same.
 */
export async function refuseRecoveryWhereSsoRequired(db: Db, email: string, send: (email: string) => Promise<unknown>, log: Log): Promise<void> {
  const sso = await domainSso(db, email);
  if (!sso?.required) return;
  const user = await findUserByEmail({ db, email });
  if (user && (await isStaff(db, user.userId))) {
    await send(user.email).catch((err: unknown) => log.error({ err, userId: user.userId }, 'reset email of a staff account on an SSO domain failed'));
  }
  throw ssoRequired(sso);
}
