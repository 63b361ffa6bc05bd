// Opaque session tokens, stored hashed, with idle and absolute expiry and rotation on refresh.
// Reusing a rotated token on /refresh (or after a short grace) revokes the whole family (token theft).
// Every change to a session tells the auth caches (invalidation.ts), so a cached actor never outlives it.
import { randomUUID } from 'node:crypto';
import type { StaffRole } from '@pluma/common/constants';
import { and, eq, gt, inArray, isNull, max, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedPerDatabase } from '../../db/prepared';
import { sessions, staff, users } from '../../db/schema';
import type { UserRow } from './actor';
import type { SessionTimes } from './auth-cache';
import { invalidateSessionFamily, invalidateUser } from './invalidation';
import { hashToken, randomToken } from './tokens';

export const SESSION_IDLE_MS = 7 * 24 * 3600_000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3600_000;
/** Requests already in flight when the browser refreshed may still carry the old token for this long. */
export const ROTATION_GRACE_MS = 30_000;
/** last_used_at is written at most this often, so reads stay reads. */
export const TOUCH_INTERVAL_MS = 60_000;

export type SessionRow = typeof sessions.$inferSelect;
type Refusal = 'unknown' | 'expired' | 'revoked' | 'reused';

export type SessionCheck = { ok: true; sessionId: number; userId: number; familyId: string } | { ok: false; reason: Refusal };

export type SessionLookup = { ok: true; session: SessionRow; user: UserRow; staffRole: StaffRole | null } | { ok: false; reason: Refusal };

/** An impersonated session ("log in as the user") ends an hour after it began, whatever its use. */
export const IMPERSONATION_ABSOLUTE_MS = 3600_000;

export async function createSession(
  db: Db,
  userId: number,
  options: { impersonatedBy?: number | null; /** The sign-in passed a second factor (features/auth/two-factor). */ secondFactor?: boolean } = {},
): Promise<string> {
  const token = randomToken();
  const impersonatedBy = options.impersonatedBy ?? null;
  await db.insert(sessions).values({
    userId,
    familyId: randomUUID(),
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + (impersonatedBy ? IMPERSONATION_ABSOLUTE_MS : SESSION_ABSOLUTE_MS)),
    impersonatedBy,
    secondFactorAt: options.secondFactor ? new Date() : null,
  });
  return token;
}

/**
 * Judges a live (not revoked) session from its times alone, so a cached session is judged exactly like
 * a freshly read one. `forRefresh` disables the rotation grace: a rotated token is never refreshed twice.
 */
export function judgeSession(times: SessionTimes, now: number, options: { forRefresh?: boolean } = {}): 'ok' | 'expired' | 'reused' {
  if (times.expiresAt.getTime() <= now || times.lastUsedAt.getTime() + SESSION_IDLE_MS <= now) return 'expired';
  if (times.rotatedAt) {
    const withinGrace = !options.forRefresh && now - times.rotatedAt.getTime() < ROTATION_GRACE_MS;
    if (!withinGrace) return 'reused';
  }
  return 'ok';
}

/** last_used_at (of a session or a user) is written when missing or older than a minute. */
export function needsTouch(lastUsedAt: Date | null, now: number): boolean {
  return !lastUsedAt || now - lastUsedAt.getTime() > TOUCH_INTERVAL_MS;
}

export async function touchSession(db: Db, sessionId: number, at: Date): Promise<void> {
  await db.update(sessions).set({ lastUsedAt: at }).where(eq(sessions.sessionId, sessionId));
}

// Every request whose actor is not cached runs it (a chat message usually: the cache keeps an actor a few
// seconds), so it is built once and prepared (db/prepared.ts).
const loadSessionQuery = preparedPerDatabase((db: Db) =>
  db
    .select({ session: sessions, user: users, staffRole: staff.role })
    .from(sessions)
    .innerJoin(users, eq(users.userId, sessions.userId))
    .leftJoin(staff, eq(staff.userId, sessions.userId))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .limit(1)
    .prepare('load_session'),
);

/** The session of a token hash with its user and staff role: one query on the unique token_hash index. */
async function loadSession(db: Db, tokenHash: string) {
  const [row] = await loadSessionQuery(db).execute({ tokenHash });
  return row ?? null;
}

/** Reads and judges the session of a token hash; a reused rotated token revokes its family. */
export async function lookUpSession(db: Db, tokenHash: string, options: { forRefresh?: boolean; now?: number } = {}): Promise<SessionLookup> {
  const now = options.now ?? Date.now();
  const row = await loadSession(db, tokenHash);
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.session.revokedAt) return { ok: false, reason: 'revoked' };
  const verdict = judgeSession(row.session, now, options);
  if (verdict === 'reused') {
    await revokeFamily(db, row.session.familyId);
    return { ok: false, reason: 'reused' };
  }
  if (verdict === 'expired') return { ok: false, reason: 'expired' };
  let session = row.session;
  if (needsTouch(session.lastUsedAt, now)) {
    session = { ...session, lastUsedAt: new Date(now) };
    await touchSession(db, session.sessionId, session.lastUsedAt);
  }
  return { ok: true, session, user: row.user, staffRole: (row.staffRole as StaffRole | null) ?? null };
}

/** Checks a bearer token against the database (no cache: refresh must see the latest rotation). */
export async function checkSession(db: Db, token: string, options: { forRefresh?: boolean } = {}): Promise<SessionCheck> {
  const found = await lookUpSession(db, hashToken(token), options);
  if (!found.ok) return found;
  return { ok: true, sessionId: found.session.sessionId, userId: found.session.userId, familyId: found.session.familyId };
}

/**
 * For each family that is still signed in (a family is one sign-in, continued by every refresh), when it
 * ends if nothing else happens: the earlier of its absolute expiry and its idle deadline (judged as in
 * judgeSession). Families that ended — revoked, expired, or gone with their deleted user — are absent.
 * One grouped query on the family index; the real-time channel uses it to drop sockets of ended sessions.
 */
export async function liveFamilyDeadlines(db: Db, familyIds: readonly string[], now: number = Date.now()): Promise<Map<string, number>> {
  const deadlines = new Map<string, number>();
  if (familyIds.length === 0) return deadlines;
  const rows = await db
    .select({ familyId: sessions.familyId, expiresAt: max(sessions.expiresAt), lastUsedAt: max(sessions.lastUsedAt) })
    .from(sessions)
    .where(
      and(
        inArray(sessions.familyId, [...familyIds]),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date(now)),
        gt(sessions.lastUsedAt, new Date(now - SESSION_IDLE_MS)),
      ),
    )
    .groupBy(sessions.familyId);
  for (const row of rows) {
    if (!row.expiresAt || !row.lastUsedAt) continue;
    deadlines.set(row.familyId, Math.min(row.expiresAt.getTime(), row.lastUsedAt.getTime() + SESSION_IDLE_MS));
  }
  return deadlines;
}

/** The staff role of each of `userIds` now (users without one are absent). */
export async function currentStaffRoles(db: Db, userIds: readonly number[]): Promise<Map<number, StaffRole>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.select({ userId: staff.userId, role: staff.role }).from(staff).where(inArray(staff.userId, [...userIds]));
  return new Map(rows.map((row) => [row.userId, row.role as StaffRole]));
}

/** Rotates a live token: the old one is marked rotated, a new one joins its family with the same absolute expiry. */
export async function rotateSession(db: Db, token: string): Promise<{ token: string; userId: number; secondFactor: boolean } | null> {
  const check = await checkSession(db, token, { forRefresh: true });
  if (!check.ok) return null;
  const rotated = await db.transaction(async (tx) => {
    const marked = await tx
      .update(sessions)
      .set({ rotatedAt: new Date() })
      .where(and(eq(sessions.sessionId, check.sessionId), isNull(sessions.rotatedAt)))
      .returning({ expiresAt: sessions.expiresAt, impersonatedBy: sessions.impersonatedBy, secondFactorAt: sessions.secondFactorAt });
    if (marked.length === 0) {
      // Another refresh won the race with the same token: treat as reuse.
      await revokeFamily(tx as unknown as Db, check.familyId);
      return null;
    }
    const next = randomToken();
    await tx.insert(sessions).values({
      userId: check.userId,
      familyId: check.familyId,
      tokenHash: hashToken(next),
      expiresAt: marked[0].expiresAt,
      // A refreshed "log in as" session is still the admin's view (the bar, the audit), and keeps its hour.
      impersonatedBy: marked[0].impersonatedBy,
      // The second factor belongs to the sign-in, so every refresh of it keeps it.
      secondFactorAt: marked[0].secondFactorAt,
    });
    return { token: next, userId: check.userId, secondFactor: marked[0].secondFactorAt != null };
  });
  // A cached actor of the old token would skip the grace period's end (and with it reuse detection).
  invalidateSessionFamily(check.familyId);
  return rotated;
}

/** Records that a signed-in family passed a second factor now (enrolling proves one), for all its tokens. */
export async function markSecondFactor(db: Db, familyId: string) {
  await db.update(sessions).set({ secondFactorAt: new Date() }).where(and(eq(sessions.familyId, familyId), isNull(sessions.revokedAt)));
  invalidateSessionFamily(familyId);
}

export async function revokeFamily(db: Db, familyId: string) {
  await db.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.familyId, familyId), isNull(sessions.revokedAt)));
  invalidateSessionFamily(familyId);
}

/**
 * Ends every session of a user, optionally keeping one family (the one that changed the password).
 * The user's cached actors are all dropped, the kept family's too: they carry the old password hash.
 */
export async function revokeUserSessions(db: Db, userId: number, keepFamilyId?: string) {
  const rows = await db
    .select({ familyId: sessions.familyId })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  const families = new Set(rows.map((r) => r.familyId));
  if (keepFamilyId) families.delete(keepFamilyId);
  for (const familyId of families) await revokeFamily(db, familyId);
  invalidateUser(userId);
}
