// When an organization's requirement starts to count — SSO required is switched on, its provider changed, a
// staff admin enables again the provider a requirement names, or the organization's domain changes while it
// requires SSO — the sessions its domain's accounts opened before are ended (staff excepted, as everywhere in
// features/auth/sso/domain-rule.ts). In platform, not in the auth feature: the organizations feature calls it
// too, and auth depends on organizations. Otherwise a password session opened the
// minute before would live on for its 30 days past a rule meant to close it. Everyone on the domain signs in
// again, through the provider; sessions do not record how they were opened, so SSO ones end too (once).
// Sockets and cached sessions follow (invalidateUser: platform/auth/invalidation.ts, socket-sessions.ts).
import { and, eq, gt, inArray, isNull, notExists, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { organizations, organizationSso, sessions, ssoProviders, staff, users } from '../../db/schema';
import { invalidateUser } from './invalidation';

/** The domain part of an email, lower-cased, in SQL (as emailDomain does in TypeScript). */
const emailDomainSql = sql`lower(substring(${users.email} from '@([^@]*)$'))`;

/**
 * Ends every live session of the non-staff accounts on the domains of the organizations that require SSO
 * through an enabled provider, among `organizationIds`; returns the accounts signed out.
 */
export async function endSessionsOnRequiredDomains(db: Db, organizationIds: number[]): Promise<number[]> {
  if (organizationIds.length === 0) return [];
  const now = new Date();
  const signedIn = await db
    .selectDistinct({ userId: sessions.userId })
    .from(sessions)
    .innerJoin(users, eq(users.userId, sessions.userId))
    .innerJoin(organizations, sql`lower(${organizations.domain}) = ${emailDomainSql}`)
    .innerJoin(organizationSso, and(eq(organizationSso.organizationId, organizations.organizationId), eq(organizationSso.required, true)))
    .innerJoin(ssoProviders, and(eq(ssoProviders.providerId, organizationSso.providerId), eq(ssoProviders.enabled, true)))
    .where(
      and(
        inArray(organizations.organizationId, organizationIds),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        notExists(db.select({ one: sql`1` }).from(staff).where(eq(staff.userId, sessions.userId))),
      ),
    );
  const userIds = signedIn.map((row) => row.userId);
  if (userIds.length === 0) return [];
  await db.update(sessions).set({ revokedAt: now }).where(and(inArray(sessions.userId, userIds), isNull(sessions.revokedAt)));
  for (const userId of userIds) invalidateUser(userId);
  return userIds;
}

/** The organizations whose requirement names `providerId` (to end their domains' sessions when it is enabled again). */
export async function organizationsRequiring(db: Db, providerId: number): Promise<number[]> {
  const rows = await db
    .select({ organizationId: organizationSso.organizationId })
    .from(organizationSso)
    .where(and(eq(organizationSso.providerId, providerId), eq(organizationSso.required, true)));
  return rows.map((row) => row.organizationId);
}
