// Lookups of users that are not operations of an actor: signing in (auth), resolving a session's
// impersonator, the current-user view the auth feature answers sign-in with, other features' services
// (staff, organizations). Route files never import this module: what a route calls takes the actor and
// authorizes inside (service.ts, admin-service.ts).
import type { CurrentUser } from '@pluma/common/users';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { totpSecrets, users } from '../../db/schema';
import { notFound } from '../../platform/http/errors';
import { accessFromRows, loadAccessRows } from './access';
import { phoneLookupCandidates } from './phone';
import { presentCurrentUser, type CurrentUserRows } from './present';

type UserRow = typeof users.$inferSelect;

/** Emails are compared lowercased and trimmed (spec part 1 §5); uses the lower(email) unique index. */
export async function findUserByEmail({ db, email }: { db: Db; email: string }): Promise<UserRow | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return user ?? null;
}

/** The account with this number in any spelling (the oldest when several share it), else null. */
export async function findUserByPhone({ db, phone }: { db: Db; phone: string }): Promise<UserRow | null> {
  const candidates = phoneLookupCandidates(phone);
  if (candidates.length === 0) return null;
  const [user] = await db.select().from(users).where(inArray(users.phone, candidates)).orderBy(users.userId).limit(1);
  return user ?? null;
}

/** The rows of the current-user view (spec part 1 §3), read in one query; 404 if the user no longer exists. */
export async function readCurrentUser({ db, userId }: { db: Db; userId: number }): Promise<CurrentUserRows> {
  const rows = await loadAccessRows(db, userId);
  if (rows.length === 0) throw notFound();
  const totp = await db
    .select({ userId: totpSecrets.userId })
    .from(totpSecrets)
    .where(and(eq(totpSecrets.userId, userId), isNotNull(totpSecrets.confirmedAt)))
    .limit(1);
  return { user: rows[0].user, access: accessFromRows(rows), picture: rows[0].file, twoFactorEnabled: totp.length > 0 };
}

/** The current-user view of a user id (the auth feature answers sign-in and sign-up with it). */
export async function loadCurrentUser({ db, userId, secondFactorVerified }: { db: Db; userId: number; secondFactorVerified?: boolean }): Promise<CurrentUser> {
  return presentCurrentUser(await readCurrentUser({ db, userId }), secondFactorVerified);
}

/** Who opened an impersonated session (GET /users of that session, and the sign-in that opens it). */
export async function impersonatorOf({ db, userId }: { db: Db; userId: number }): Promise<{ user_id: number; name: string; email: string }> {
  const [row] = await db.select({ userId: users.userId, name: users.name, lastName: users.lastName, email: users.email }).from(users).where(eq(users.userId, userId)).limit(1);
  // The admin's account went (their impersonated sessions cascade with it): a placeholder until then.
  if (!row) return { user_id: userId, name: '', email: '' };
  return { user_id: row.userId, name: `${row.name} ${row.lastName}`.trim(), email: row.email };
}
