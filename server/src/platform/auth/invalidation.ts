// Tells every auth cache that something an actor or GET /api/users is built from has changed.
// Call it right after (or inside the transaction of) any write that changes:
//   - a user's sessions (sign-out, refresh, revocation)    → sessions.ts does it
//   - a user's row, staff role, purchases or words granted  → invalidateUser(userId)
//   - a word charge (the balance only goes down)            → balanceSpent(userId)
//   - deletion or suspension of a user                      → invalidateUser(userId)
// Every cache of this process drops the affected entries synchronously, before the caller goes on; each
// cache connected to Redis passes the change on to the other nodes (cache-sync.ts). No context is
// needed, so data-layer helpers that only hold a transaction (the credit ledger) can call it too.
// Each node also re-checks the sessions of its sockets on every change and drops those that ended
// (platform/realtime/socket-sessions.ts). That re-check reads committed rows, so a write that ends
// sessions inside a transaction must announce again after the commit (auth/service.ts does).
import type { AuthChange } from './auth-cache';

type Listener = (change: AuthChange) => void;

export class AuthChangeBus {
  readonly #listeners = new Set<Listener>();

  /** Registers a listener (one per app's auth cache); returns the function that removes it. */
  listen(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  announce(change: AuthChange): void {
    for (const listener of this.#listeners) listener(change);
  }
}

/** The bus of this process. Tests that stand in for a second process give that app its own bus. */
export const processAuthChanges = new AuthChangeBus();

/** The user's sessions, row (profile, words, password), staff role or purchases changed, or the user is gone. */
export function invalidateUser(userId: number): void {
  processAuthChanges.announce({ userId });
}

/** The user's word balance went down (a charge): GET /api/users' view is dropped, cached actors stay (auth-cache.ts). */
export function balanceSpent(userId: number): void {
  processAuthChanges.announce({ balanceOf: userId });
}

/** One session family was signed out, rotated or revoked. */
export function invalidateSessionFamily(familyId: string): void {
  processAuthChanges.announce({ familyId });
}
