// Counters and markers that expire, for the per-account and per-address limits (account-limits.ts).
// With REDIS_URL they live in Redis, so every node counts the same attempts; otherwise in this process
// (one node: nothing to share).
import type { Redis } from 'ioredis';

export interface AttemptStore {
  /** Adds one to `key`'s count; a new count lives `windowMs` (a fixed window). Returns the new count. */
  increment(key: string, windowMs: number): Promise<number>;
  /** Takes one back from `key`'s count (an attempt that turned out fine); nothing when it has expired. */
  decrement(key: string): Promise<void>;
  /** The count of `key`; 0 when absent or expired. */
  count(key: string): Promise<number>;
  /** Sets a marker that lives `ttlMs` (replacing any earlier one). */
  mark(key: string, ttlMs: number): Promise<void>;
  /** Milliseconds left before `key` expires; 0 when absent or expired. */
  remainingMs(key: string): Promise<number>;
  delete(...keys: string[]): Promise<void>;
}

interface Entry {
  count: number;
  expiresAt: number;
}

/** In-process store. `now` is replaceable so tests can move the clock instead of sleeping. */
export class MemoryAttemptStore implements AttemptStore {
  private readonly entries = new Map<string, Entry>();

  constructor(
    public now: () => number = Date.now,
    /** Bound on the keys kept: random emails must not grow the map without limit. */
    private readonly maxEntries = 100_000,
  ) {}

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private put(key: string, entry: Entry) {
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries) this.makeRoom();
    this.entries.set(key, entry);
  }

  /** Drops expired entries; if that is not enough, the oldest tenth (a Map iterates in insertion order). */
  private makeRoom() {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    if (this.entries.size < this.maxEntries) return;
    let drop = Math.ceil(this.maxEntries / 10);
    for (const key of this.entries.keys()) {
      if (drop-- <= 0) break;
      this.entries.delete(key);
    }
  }

  async increment(key: string, windowMs: number): Promise<number> {
    const entry = this.live(key);
    if (entry) {
      entry.count += 1;
      return entry.count;
    }
    this.put(key, { count: 1, expiresAt: this.now() + windowMs });
    return 1;
  }

  async decrement(key: string): Promise<void> {
    const entry = this.live(key);
    if (entry && entry.count > 0) entry.count -= 1;
  }

  async count(key: string): Promise<number> {
    return this.live(key)?.count ?? 0;
  }

  async mark(key: string, ttlMs: number): Promise<void> {
    this.entries.delete(key);
    this.put(key, { count: 1, expiresAt: this.now() + ttlMs });
  }

  async remainingMs(key: string): Promise<number> {
    const entry = this.live(key);
    return entry ? entry.expiresAt - this.now() : 0;
  }

  async delete(...keys: string[]): Promise<void> {
    for (const key of keys) this.entries.delete(key);
  }
}

// INCR and, for a new count, its expiry, in one step: a crash between the two would leave a counter
// that never expires.
const INCREMENT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;
// DECR on an expired key would create a counter without expiry: only decrement one that exists.
const DECREMENT = `if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end
return 0`;

/** Shared store: every node sees the same counts. Keys get `prefix`. */
export class RedisAttemptStore implements AttemptStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'pluma-limits:',
  ) {}

  async increment(key: string, windowMs: number): Promise<number> {
    return Number(await this.redis.eval(INCREMENT, 1, this.prefix + key, Math.max(1, Math.round(windowMs))));
  }

  async decrement(key: string): Promise<void> {
    await this.redis.eval(DECREMENT, 1, this.prefix + key);
  }

  async count(key: string): Promise<number> {
    return Number((await this.redis.get(this.prefix + key)) ?? 0);
  }

  async mark(key: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.prefix + key, '1', 'PX', Math.max(1, Math.round(ttlMs)));
  }

  async remainingMs(key: string): Promise<number> {
    const ms = await this.redis.pttl(this.prefix + key);
    return ms > 0 ? ms : 0;
  }

  async delete(...keys: string[]): Promise<void> {
    if (keys.length > 0) await this.redis.del(...keys.map((key) => this.prefix + key));
  }
}
