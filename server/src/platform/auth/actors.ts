// Bearer token → actor, for every authenticated request and socket. A fresh cached actor costs no query;
// otherwise one indexed query reads session, user and staff role together. Nothing is written unless the
// session's last_used_at is over a minute old, judged from the values already in hand.
import type { AppContext } from '../../context';
import type { Actor } from './actor';
import { judgeSession, lookUpSession, needsTouch, touchSession } from './sessions';
import { hashToken } from './tokens';

/** The actor, 'expired' (the client should sign in again), or null for any other refusal. */
export type ActorResolution = Actor | 'expired' | null;

export async function resolveActor(ctx: Pick<AppContext, 'db' | 'services'>, token: string): Promise<ActorResolution> {
  const now = Date.now();
  const tokenHash = hashToken(token);
  const cache = ctx.services.authCache;

  const hit = cache?.actor(tokenHash, now);
  // A hit past its expiry or rotation grace goes to the database, which refuses it (and revokes on reuse).
  if (cache && hit && judgeSession(hit.session, now) === 'ok') {
    if (needsTouch(hit.session.lastUsedAt, now)) {
      const at = new Date(now);
      // Noted first, so the concurrent hits of this token do not all write too.
      cache.sessionTouched(tokenHash, at);
      await touchSession(ctx.db, hit.actor.sessionId, at);
    }
    return hit.actor;
  }

  const ticket = cache?.ticket(now);
  const found = await lookUpSession(ctx.db, tokenHash, { now });
  if (!found.ok) return found.reason === 'expired' ? 'expired' : null;
  const { session } = found;
  const secondFactor = session.secondFactorAt != null;
  // A staff admin's powers need a sign-in that passed a second factor; until then the account is a user's.
  const awaiting = found.staffRole === 'admin' && !secondFactor;
  const actor: Actor = Object.freeze({
    user: Object.freeze(found.user),
    staffRole: awaiting ? null : found.staffRole,
    staffRoleAwaitingSecondFactor: awaiting ? found.staffRole : null,
    sessionId: session.sessionId,
    familyId: session.familyId,
    impersonatedBy: session.impersonatedBy,
    secondFactor,
    secondFactorAt: session.secondFactorAt,
    organization: null,
  });
  if (cache && ticket) {
    cache.storeActor(tokenHash, { actor, session: { lastUsedAt: session.lastUsedAt, expiresAt: session.expiresAt, rotatedAt: session.rotatedAt } }, ticket);
  }
  return actor;
}
