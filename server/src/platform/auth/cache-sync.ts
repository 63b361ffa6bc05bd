// Keeps an auth cache in step with changes: those announced in this process (invalidation.ts) and, when
// REDIS_URL is set, those of the other nodes, over Redis pub/sub. The subscriber is its own connection
// (a subscribed connection can do nothing else). While it is down, changes made elsewhere could be
// missed, so the cache is switched off until the subscription is back (DESIGN.md §1.4: scale-out needs
// Redis; a single node needs nothing).
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AuthCache, AuthChange } from './auth-cache';
import { processAuthChanges, type AuthChangeBus } from './invalidation';

/** Namespaced like the rate limiter's keys and the Socket.IO channels, so a shared Redis stays tidy. */
export const AUTH_CHANGES_CHANNEL = 'pluma:auth-changes';

export interface CacheSyncOptions {
  /** `subscriber` becomes the sync's own: it is closed with the cache. */
  redis?: { publisher: Redis; subscriber: Redis };
  channel?: string;
  bus?: AuthChangeBus;
  log?: Pick<Console, 'error'>;
}

interface WireChange {
  from: string;
  userId?: number;
  familyId?: string;
  balanceOf?: number;
}

/** A change from another node, or null for anything malformed (the channel is shared, so be strict). */
export function parseWireChange(raw: string): (AuthChange & { from: string }) | null {
  let message: Partial<WireChange>;
  try {
    message = JSON.parse(raw) as Partial<WireChange>;
  } catch {
    return null;
  }
  if (!message || typeof message !== 'object' || typeof message.from !== 'string') return null;
  if (Number.isInteger(message.userId)) return { from: message.from, userId: message.userId as number };
  if (typeof message.familyId === 'string' && message.familyId) return { from: message.from, familyId: message.familyId };
  if (Number.isInteger(message.balanceOf)) return { from: message.from, balanceOf: message.balanceOf as number };
  return null;
}

/**
 * Connects the cache to the change bus and, with Redis, to the other nodes. Resolves once the Redis
 * subscription is live (rejects if Redis cannot be reached, as the Socket.IO adapter does at boot).
 */
export async function syncAuthCache(cache: AuthCache, options: CacheSyncOptions = {}): Promise<void> {
  const { redis, channel = AUTH_CHANGES_CHANNEL, bus = processAuthChanges, log = console } = options;
  const nodeId = randomUUID();

  const stopListening = bus.listen((change) => {
    cache.forget(change);
    if (!redis) return;
    const wire: WireChange = { from: nodeId, ...change };
    redis.publisher.publish(channel, JSON.stringify(wire)).catch((err: Error) => {
      // The other nodes keep their entries for at most the cache TTL.
      log.error(`auth cache: could not publish a change to the other nodes (${err.message})`);
    });
  });
  cache.onClose(stopListening);
  if (!redis) return;

  const { subscriber } = redis;
  cache.setLive(false);
  subscriber.on('message', (from: string, raw: string) => {
    if (from !== channel) return;
    const change = parseWireChange(raw);
    if (!change || change.from === nodeId) return;
    const { from: _from, ...heard } = change;
    cache.forget(heard);
  });
  subscriber.on('close', () => cache.setLive(false));
  // ioredis re-subscribes after a reconnect; subscribing again is harmless and tells us when it is done.
  subscriber.on('ready', () => {
    subscriber
      .subscribe(channel)
      .then(() => cache.setLive(true))
      .catch(() => cache.setLive(false));
  });
  cache.onClose(async () => {
    subscriber.removeAllListeners('ready');
    await subscriber.quit().catch(() => subscriber.disconnect());
  });
  try {
    await subscriber.subscribe(channel);
  } catch (err) {
    await cache.close();
    throw err;
  }
  cache.setLive(true);
}
