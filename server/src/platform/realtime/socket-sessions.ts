// Sockets follow the session they were opened with: when that session ends — sign-out, a reused refresh
// token revoking its family, a password change (other sessions) or reset, idle or absolute expiry, the
// user deleted — its sockets are disconnected, on whichever node holds them, within a moment. A socket
// whose user's staff role changed (demoted) is disconnected too: the web client reconnects at once, and
// the new handshake carries the rights the user has now.
//
// Why re-check rather than disconnect by room from each session-ending path: every such write already
// announces invalidateUser / invalidateSessionFamily (platform/auth/invalidation.ts), and with REDIS_URL
// each node's auth cache hears every node's announcements (cache-sync.ts). So each node re-reads, for the
// sockets it holds of the announced user or family, whether their session is still signed in, and drops
// those that are not. One rule covers every path, present and future (an admin deleting a customer), and
// a change that ends nothing (a profile edit, a refresh) costs one indexed query and keeps the socket; a
// word charge (balanceSpent) is not re-checked at all.
//
// A socket follows its session *family* (one sign-in and every refresh of it), not the token it used:
// the browser refreshes its token every few minutes, and the socket must live on with the new one.
// Expiry happens without any write, so each family also has a timer at its deadline (the earlier of its
// absolute expiry and its idle deadline; HTTP use moves the latter, so the timer re-checks rather than
// disconnects), and a periodic sweep re-checks every family in case an announcement was missed (Redis
// subscription down).
import type { FastifyBaseLogger } from 'fastify';
import type { Socket } from 'socket.io';
import type { Db } from '../../db/client';
import type { AuthCache, AuthChange } from '../auth/auth-cache';
import { processAuthChanges } from '../auth/invalidation';
import { currentStaffRoles, liveFamilyDeadlines } from '../auth/sessions';
import type { SocketData } from './handshake';

/** How often every socket's session is re-checked even if nothing was announced. */
export const SESSION_SWEEP_MS = 60_000;
/** setTimeout fires at once beyond this (~24.8 days); a family's absolute expiry can be 30 days away. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Families checked per query. */
const CHECK_BATCH = 500;
/** A timer fires this much after the deadline, so the session is surely over when it is re-checked. */
const DEADLINE_SLACK_MS = 5;

interface TrackedFamily {
  userId: number;
  sockets: Set<Socket>;
  timer?: NodeJS.Timeout;
}

export interface SocketSessionGuardOptions {
  db: Db;
  log: Pick<FastifyBaseLogger, 'error'>;
  sweepIntervalMs?: number;
}

export class SocketSessionGuard {
  readonly #db: Db;
  readonly #log: Pick<FastifyBaseLogger, 'error'>;
  readonly #families = new Map<string, TrackedFamily>();
  readonly #userFamilies = new Map<number, Set<string>>();
  /** Families to re-check; a change heard while a check runs is checked again after it (it may have read old rows). */
  readonly #pending = new Set<string>();
  #running: Promise<void> | null = null;
  readonly #sweepTimer: NodeJS.Timeout;
  readonly #unfollow: (() => void)[] = [];
  #closed = false;
  /** One 'disconnect' listener for every socket (called with the socket as `this`), not a closure each. */
  readonly #onDisconnect: (this: Socket) => void;

  constructor(options: SocketSessionGuardOptions) {
    this.#db = options.db;
    this.#log = options.log;
    this.#sweepTimer = setInterval(() => void this.sweep(), options.sweepIntervalMs ?? SESSION_SWEEP_MS);
    this.#sweepTimer.unref();
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the listener's own `this` is the socket
    const guard = this;
    this.#onDisconnect = function (this: Socket) {
      guard.#untrack(this, (this.data as SocketData).familyId);
    };
  }

  /**
   * Re-checks on every change the auth cache hears (this process's and the other nodes'); without a
   * cache, on this process's changes alone.
   */
  follow(cache: AuthCache | undefined): void {
    const listener = (change: AuthChange) => this.heard(change);
    this.#unfollow.push(cache ? cache.onChange(listener) : processAuthChanges.listen(listener));
  }

  /** Starts following a connected socket; its session is checked once now (it may have ended since the handshake). */
  track(socket: Socket): void {
    const { userId, familyId } = socket.data as SocketData;
    let family = this.#families.get(familyId);
    if (!family) {
      family = { userId, sockets: new Set() };
      this.#families.set(familyId, family);
      const ofUser = this.#userFamilies.get(userId) ?? new Set<string>();
      ofUser.add(familyId);
      this.#userFamilies.set(userId, ofUser);
    }
    family.sockets.add(socket);
    // 'disconnect' comes once; on() spares the wrapper once() makes per socket.
    socket.on('disconnect', this.#onDisconnect);
    this.#schedule([familyId]);
  }

  /** An announced change: the user's families, or the one family, are re-checked. */
  heard(change: AuthChange): void {
    // A word charge ends no session (it follows every answer, so it would cost a query each time).
    if ('balanceOf' in change) return;
    if ('userId' in change) {
      const families = this.#userFamilies.get(change.userId);
      if (families) this.#schedule(families);
    } else if (this.#families.has(change.familyId)) {
      this.#schedule([change.familyId]);
    }
  }

  /** Re-checks every family with a socket here; resolves when done. */
  sweep(): Promise<void> {
    this.#schedule(this.#families.keys());
    return this.settled();
  }

  /** Resolves once no check is waiting or running. */
  async settled(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /** Families (sessions) with a socket on this node. */
  get familyCount(): number {
    return this.#families.size;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweepTimer);
    for (const unfollow of this.#unfollow.splice(0)) unfollow();
    for (const family of this.#families.values()) clearTimeout(family.timer);
    this.#pending.clear();
    await this.settled();
  }

  #schedule(familyIds: Iterable<string>): void {
    if (this.#closed) return;
    for (const familyId of familyIds) this.#pending.add(familyId);
    if (!this.#running && this.#pending.size > 0) this.#running = this.#drain();
  }

  async #drain(): Promise<void> {
    try {
      do {
        // One turn of the event loop lets the announcements of one write (each family, then the user) batch up.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const familyIds = [...this.#pending].filter((familyId) => this.#families.has(familyId));
        this.#pending.clear();
        for (let i = 0; i < familyIds.length; i += CHECK_BATCH) await this.#check(familyIds.slice(i, i + CHECK_BATCH));
      } while (this.#pending.size > 0 && !this.#closed);
    } finally {
      // Cleared in the same turn as the last look at #pending, so a later change always starts a new drain.
      this.#running = null;
    }
  }

  async #check(familyIds: string[]): Promise<void> {
    const now = Date.now();
    let deadlines: Map<string, number>;
    let roles: Map<number, string>;
    try {
      deadlines = await liveFamilyDeadlines(this.#db, familyIds, now);
      const userIds = new Set(familyIds.flatMap((familyId) => this.#families.get(familyId)?.userId ?? []));
      roles = await currentStaffRoles(this.#db, [...userIds]);
    } catch (err) {
      // The sockets stay until a check succeeds (the next change, timer or sweep).
      this.#log.error({ err }, 'socket session check failed');
      return;
    }
    if (this.#closed) return;
    for (const familyId of familyIds) {
      const family = this.#families.get(familyId);
      if (!family) continue;
      const deadline = deadlines.get(familyId);
      if (deadline === undefined) {
        this.#end(familyId, family);
        continue;
      }
      this.#armTimer(familyId, family, deadline - now);
      const role = roles.get(family.userId) ?? null;
      // Rights changed: this socket goes (its 'disconnect' untracks it); the session lives on.
      for (const socket of [...family.sockets]) if ((socket.data as SocketData).staffRole !== role) socket.disconnect(true);
    }
  }

  /** The session ended: its sockets here are closed (no reconnection: the client sees 'io server disconnect'). */
  #end(familyId: string, family: TrackedFamily): void {
    for (const socket of [...family.sockets]) socket.disconnect(true);
    this.#forget(familyId, family);
  }

  #armTimer(familyId: string, family: TrackedFamily, delayMs: number): void {
    clearTimeout(family.timer);
    family.timer = setTimeout(() => this.#schedule([familyId]), Math.min(Math.max(delayMs, 0) + DEADLINE_SLACK_MS, MAX_TIMER_MS));
    family.timer.unref();
  }

  #untrack(socket: Socket, familyId: string): void {
    const family = this.#families.get(familyId);
    if (!family) return;
    family.sockets.delete(socket);
    if (family.sockets.size === 0) this.#forget(familyId, family);
  }

  #forget(familyId: string, family: TrackedFamily): void {
    clearTimeout(family.timer);
    if (this.#families.get(familyId) !== family) return;
    this.#families.delete(familyId);
    const ofUser = this.#userFamilies.get(family.userId);
    ofUser?.delete(familyId);
    if (ofUser?.size === 0) this.#userFamilies.delete(family.userId);
  }
}
