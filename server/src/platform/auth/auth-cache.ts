// In-process cache of what every authenticated request needs: the actor of a bearer token (session,
// user row, staff role) and the presented current user (GET /api/users). Without it each request ran
// ~6 queries; PGlite runs them on the event loop, so they capped the whole API (bench/api-throughput).
//
// Correctness rules (tests: auth-cache.test.ts, actor-cache.test.ts, auth-cache-redis.test.ts):
// - Entries live a few seconds at most (TTL), and a session's own expiry is checked on every hit.
// - Every write that changes sessions, a user's row, staff role or purchases calls invalidateUser /
//   invalidateSessionFamily (invalidation.ts); that drops the entries on this node at once and, with
//   REDIS_URL, on the other nodes (cache-sync.ts).
// - Such writes often happen inside a transaction, so the drop can precede the commit; a read in between
//   would see the old rows. So after a drop nothing about that user or family is stored for HOLD_MS,
//   and a read that took longer than HOLD_MS is never stored.
// - While the cross-node channel is down, the cache serves and stores nothing.
import type { CurrentUser } from '@pluma/common/users';
import { LRUCache } from 'lru-cache';
import type { Actor } from './actor';

/** How long a resolved actor or current user may be reused. */
export const AUTH_CACHE_TTL_MS = 5_000;
/** Longer than any transaction that invalidates takes to commit. */
export const HOLD_MS = 5_000;
const MAX_ACTORS = 10_000;
const MAX_VIEWS = 10_000;

/** The session fields that decide, on every hit, whether the token is still good (sessions.ts judgeSession). */
export interface SessionTimes {
  lastUsedAt: Date;
  expiresAt: Date;
  rotatedAt: Date | null;
}

export interface CachedActor {
  actor: Actor;
  session: SessionTimes;
}

/**
 * What changed: one user (sessions, row, role, purchases, words granted), one session family (logout,
 * refresh), or one user's word balance going down (a charge: `balanceOf`). A charge follows every answer,
 * so it drops only the current-user view, which shows the balance: cached actors keep theirs, because an
 * actor's words are only a pre-check that the exact word hold repeats in SQL (credits/access.ts
 * assertCanGenerate, credits/holds.ts). Dropping actors on every answer made each user's next message pay
 * for a session query (bench/chat-first-token.mjs: about 1.3 ms of the 5.6 ms added on PostgreSQL).
 */
export type AuthChange = { userId: number } | { familyId: string } | { balanceOf: number };

/** Taken before reading the database; a store with a ticket older than a drop or an outage is refused. */
export interface FillTicket {
  startedAt: number;
  epoch: number;
}

export interface AuthCacheOptions {
  ttlMs?: number;
  holdMs?: number;
  maxActors?: number;
  maxViews?: number;
}

/**
 * An entry of the bounded caches. lru-cache evicts the least recently used entry when full; the deadline
 * is kept here and judged against the caller's `now` (not lru-cache's own clock), so tests can drive time.
 */
interface Slot<V> {
  value: V;
  /** Epoch ms from which the entry is never returned. */
  expiresAt: number;
}

type Slots<K extends string | number, V> = LRUCache<K, Slot<V>>;

/** The live value, marked as most recently used; an expired entry is dropped and reads as a miss. */
function liveValue<K extends string | number, V>(slots: Slots<K, V>, key: K, now: number): V | undefined {
  const slot = slots.get(key);
  if (!slot) return undefined;
  if (slot.expiresAt > now) return slot.value;
  slots.delete(key);
  return undefined;
}

/** Drops every entry whose value matches (invalidation by user or session family). */
function deleteWhere<K extends string | number, V>(slots: Slots<K, V>, matches: (value: V) => boolean): void {
  const doomed: K[] = [];
  for (const [key, slot] of slots.entries()) if (matches(slot.value)) doomed.push(key);
  for (const key of doomed) slots.delete(key);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value) && !(value instanceof Date)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function freezeActor(actor: Actor): Actor {
  Object.freeze(actor.user);
  return Object.freeze(actor);
}

export class AuthCache {
  readonly ttlMs: number;
  readonly holdMs: number;
  readonly #actors: Slots<string, CachedActor>;
  readonly #views: Slots<number, CurrentUser>;
  /** 'u:<userId>' / 'f:<familyId>' / 'b:<userId>' (views only) → until when nothing about it is stored; in deadline order. */
  readonly #held = new Map<string, number>();
  #live = true;
  /** Changes whenever the cache goes down or up, so reads begun before an outage are not stored. */
  #epoch = 0;
  readonly #closers: (() => Promise<void> | void)[] = [];
  readonly #changeListeners = new Set<(change: AuthChange) => void>();

  constructor(options: AuthCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? AUTH_CACHE_TTL_MS;
    this.holdMs = options.holdMs ?? HOLD_MS;
    this.#actors = new LRUCache({ max: options.maxActors ?? MAX_ACTORS });
    this.#views = new LRUCache({ max: options.maxViews ?? MAX_VIEWS });
  }

  get live(): boolean {
    return this.#live;
  }

  get size(): { actors: number; views: number } {
    return { actors: this.#actors.size, views: this.#views.size };
  }

  ticket(now: number = Date.now()): FillTicket {
    return { startedAt: now, epoch: this.#epoch };
  }

  /** The cached actor of a token hash; the caller still judges the session times against the clock. */
  actor(tokenHash: string, now: number = Date.now()): CachedActor | undefined {
    return this.#live ? liveValue(this.#actors, tokenHash, now) : undefined;
  }

  /** Stores a freshly read actor unless a drop or an outage happened since `ticket` (see the rules above). */
  storeActor(tokenHash: string, entry: CachedActor, ticket: FillTicket, now: number = Date.now()): boolean {
    if (!this.#mayStore(ticket, now, `u:${entry.actor.user.userId}`, `f:${entry.actor.familyId}`)) return false;
    const value = { actor: freezeActor(entry.actor), session: Object.freeze({ ...entry.session }) };
    this.#actors.set(tokenHash, { value, expiresAt: now + this.ttlMs });
    return true;
  }

  view(userId: number, now: number = Date.now()): CurrentUser | undefined {
    return this.#live ? liveValue(this.#views, userId, now) : undefined;
  }

  /** `validUntil`: when the view changes by itself (the shown purchase expires). */
  storeView(userId: number, view: CurrentUser, validUntil: number, ticket: FillTicket, now: number = Date.now()): boolean {
    if (!this.#mayStore(ticket, now, `u:${userId}`, `b:${userId}`)) return false;
    this.#views.set(userId, { value: deepFreeze(view), expiresAt: Math.min(now + this.ttlMs, validUntil) });
    return true;
  }

  /** The session's last_used_at was written: later hits must not write it again. */
  sessionTouched(tokenHash: string, at: Date): void {
    // In place: the entry keeps its deadline and its place in the eviction order.
    const slot = this.#actors.peek(tokenHash);
    if (slot) slot.value = { actor: slot.value.actor, session: Object.freeze({ ...slot.value.session, lastUsedAt: at }) };
  }

  /** users.last_used_at was written: every cached actor of the user carries the new value. */
  userTouched(userId: number, at: Date): void {
    // Expired entries included (harmless to update); in place, so deadlines and eviction order stay.
    this.#actors.forEach((slot) => {
      const entry = slot.value;
      if (entry.actor.user.userId !== userId) return;
      const actor = freezeActor({ ...entry.actor, user: { ...entry.actor.user, lastUsedAt: at } });
      slot.value = { actor, session: entry.session };
    });
  }

  /** Drops what the change affects, on this node only (invalidation.ts spreads it to every node). */
  forget(change: AuthChange, now: number = Date.now()): void {
    if ('userId' in change) {
      deleteWhere(this.#actors, (entry) => entry.actor.user.userId === change.userId);
      this.#views.delete(change.userId);
      this.#hold(`u:${change.userId}`, now);
    } else if ('balanceOf' in change) {
      this.#views.delete(change.balanceOf);
      this.#hold(`b:${change.balanceOf}`, now);
    } else {
      deleteWhere(this.#actors, (entry) => entry.actor.familyId === change.familyId);
      this.#hold(`f:${change.familyId}`, now);
    }
    for (const listener of this.#changeListeners) listener(change);
  }

  /**
   * Hears every change this cache drops entries for: this process's and, with Redis, the other nodes'
   * (the real-time channel re-checks its sockets' sessions on them). Returns the function that stops it.
   */
  onChange(listener: (change: AuthChange) => void): () => void {
    this.#changeListeners.add(listener);
    return () => {
      this.#changeListeners.delete(listener);
    };
  }

  /** Down: changes made on other nodes may go unheard, so everything is dropped and nothing is stored until up. */
  setLive(live: boolean): void {
    if (live === this.#live) return;
    this.#live = live;
    this.#epoch++;
    if (!live) this.clear();
  }

  clear(): void {
    this.#actors.clear();
    this.#views.clear();
  }

  /** Registers teardown work (leaving the invalidation bus, closing the Redis subscriber). */
  onClose(closer: () => Promise<void> | void): void {
    this.#closers.push(closer);
  }

  async close(): Promise<void> {
    const closers = this.#closers.splice(0);
    await Promise.allSettled(closers.map((closer) => closer()));
    this.setLive(false);
  }

  #hold(key: string, now: number): void {
    // Re-inserted so the map stays ordered by deadline; expired holds are pruned from the front.
    this.#held.delete(key);
    this.#held.set(key, now + this.holdMs);
    for (const [heldKey, until] of this.#held) {
      if (until > now) break;
      this.#held.delete(heldKey);
    }
  }

  #mayStore(ticket: FillTicket, now: number, ...keys: string[]): boolean {
    if (!this.#live || ticket.epoch !== this.#epoch || now - ticket.startedAt > this.holdMs) return false;
    return keys.every((key) => (this.#held.get(key) ?? 0) <= now);
  }
}
