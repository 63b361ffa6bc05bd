// Opaque session tokens, stored hashed, with idle and absolute expiry and rotation on refresh.
// Reusing a rotated token on /refresh (or after a short grace) revokes the whole family (token theft).
import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions } from '../../db/schema';
import { hashToken, randomToken } from './tokens';

export const SESSION_IDLE_MS = 7 * 24 * 3600_000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3600_000;
/** Requests already in flight when the browser refreshed may still carry the old token for this long. */
export const ROTATION_GRACE_MS = 30_000;
/** last_used_at is written at most this often, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

export type SessionCheck =
  | { ok: true; sessionId: number; userId: number; familyId: string }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'reused' };

export async function createSession(db: Db, userId: number): Promise<string> {
  const token = randomToken();
  await db.insert(sessions).values({
    userId,
    familyId: randomUUID(),
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + SESSION_ABSOLUTE_MS),
  });
  return token;
}

/** Checks a bearer token. `forRefresh` disables the rotation grace: a rotated token is never refreshed twice. */
export async function checkSession(db: Db, token: string, options: { forRefresh?: boolean } = {}): Promise<SessionCheck> {
  const [row] = await db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(token))).limit(1);
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.revokedAt) return { ok: false, reason: 'revoked' };
  const now = Date.now();
  if (row.expiresAt.getTime() <= now || row.lastUsedAt.getTime() + SESSION_IDLE_MS <= now) {
    return { ok: false, reason: 'expired' };
  }
  if (row.rotatedAt) {
    const withinGrace = !options.forRefresh && now - row.rotatedAt.getTime() < ROTATION_GRACE_MS;
    if (!withinGrace) {
      await revokeFamily(db, row.familyId);
      return { ok: false, reason: 'reused' };
    }
  }
  if (now - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.update(sessions).set({ lastUsedAt: new Date(now) }).where(eq(sessions.sessionId, row.sessionId));
  }
  return { ok: true, sessionId: row.sessionId, userId: row.userId, familyId: row.familyId };
}

/** Rotates a live token: the old one is marked rotated, a new one joins its family with the same absolute expiry. */
export async function rotateSession(db: Db, token: string): Promise<{ token: string; userId: number } | null> {
  const check = await checkSession(db, token, { forRefresh: true });
  if (!check.ok) return null;
  return db.transaction(async (tx) => {
    const rotated = await tx
      .update(sessions)
      .set({ rotatedAt: new Date() })
      .where(and(eq(sessions.sessionId, check.sessionId), isNull(sessions.rotatedAt)))
      .returning({ expiresAt: sessions.expiresAt });
    if (rotated.length === 0) {
      // Another refresh won the race with the same token: treat as reuse.
      await revokeFamily(tx as unknown as Db, check.familyId);
      return null;
    }
    const next = randomToken();
    await tx.insert(sessions).values({
      userId: check.userId,
      familyId: check.familyId,
      tokenHash: hashToken(next),
      expiresAt: rotated[0].expiresAt,
    });
    return { token: next, userId: check.userId };
  });
}

export async function revokeFamily(db: Db, familyId: string) {
  await db.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.familyId, familyId), isNull(sessions.revokedAt)));
}

/** Ends every session of a user, optionally keeping one family (the one that changed the password). */
export async function revokeUserSessions(db: Db, userId: number, keepFamilyId?: string) {
  const rows = await db
    .select({ familyId: sessions.familyId })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  const families = new Set(rows.map((r) => r.familyId));
  if (keepFamilyId) families.delete(keepFamilyId);
  for (const familyId of families) await revokeFamily(db, familyId);
}
