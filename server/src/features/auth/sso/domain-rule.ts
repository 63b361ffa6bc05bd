// "Require SSO for our domain" (issue 33 item 4; spec part 2 §4 gives organizations their `domain`): a user
// whose email is on the domain of an organization that requires it signs in only through that organization's
// provider. A requirement counts only while its provider is enabled (a provider switched off by staff must not
// lock the domain out), and staff accounts are exempt so the operators can always reach /admin.
import { ErrorIds } from '@pluma/common/errors';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { organizations, organizationSso, ssoProviders, staff } from '../../../db/schema';
import { AppError } from '../../../platform/http/errors';

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
export async function refusePasswordWhereSsoRequired(db: Db, email: string, userId: number | null): Promise<void> {
  const sso = await domainSso(db, email);
  if (!sso?.required) return;
  if (userId !== null) {
    const [member] = await db.select({ userId: staff.userId }).from(staff).where(eq(staff.userId, userId)).limit(1);
    if (member) return;
  }
  throw ssoRequired(sso);
}
