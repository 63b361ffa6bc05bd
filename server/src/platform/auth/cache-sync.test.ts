// Keeping auth caches in step: within a process (the change bus) and across processes (Redis pub/sub).
// The Redis part uses two caches on separate buses, as two processes would have; it needs REDIS_URL.
import type { CurrentUser } from '@pluma/common/users';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { Actor, UserRow } from './actor';
import { AuthCache, type CachedActor } from './auth-cache';
import { parseWireChange, syncAuthCache } from './cache-sync';
import { AuthChangeBus } from './invalidation';

const REDIS_URL = process.env.REDIS_URL;

function entry(userId: number, familyId: string): CachedActor {
  const at = new Date();
  const user = { userId, email: `u${userId}@example.com`, lastUsedAt: at } as UserRow;
  const actor: Actor = { user, staffRole: null, sessionId: userId, familyId, organization: null };
  return { actor, session: { lastUsedAt: at, expiresAt: new Date(Date.now() + 86_400_000), rotatedAt: null } };
}

async function until(condition: () => boolean, timeoutMs = 3_000) {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('parseWireChange', () => {
  it('reads a user or family change and rejects anything else', () => {
    expect(parseWireChange('{"from":"n1","userId":7}')).toEqual({ from: 'n1', userId: 7 });
    expect(parseWireChange('{"from":"n1","familyId":"f-1"}')).toEqual({ from: 'n1', familyId: 'f-1' });
    expect(parseWireChange('{"from":"n1","balanceOf":7}')).toEqual({ from: 'n1', balanceOf: 7 });
    for (const bad of ['{"from":"n1","balanceOf":"7"}', 'not json', 'null', '{"userId":7}', '{"from":"n1","userId":"7"}', '{"from":"n1","userId":1.5}', '{"from":"n1","familyId":""}', '{"from":"n1"}']) {
      expect(parseWireChange(bad)).toBeNull();
    }
  });
});

describe('syncAuthCache within one process', () => {
  it('a change announced on the bus drops the entries at once; after close the cache no longer listens', async () => {
    const bus = new AuthChangeBus();
    const cache = new AuthCache();
    await syncAuthCache(cache, { bus });
    cache.storeActor('h1', entry(1, 'fam-1'), cache.ticket());
    bus.announce({ familyId: 'fam-1' });
    expect(cache.actor('h1')).toBeUndefined();

    await cache.close();
    cache.setLive(true);
    cache.storeActor('h2', entry(2, 'fam-2'), cache.ticket());
    bus.announce({ userId: 2 });
    expect(cache.actor('h2')).toBeDefined();
  });
});

describe.skipIf(!REDIS_URL)('syncAuthCache across processes (needs REDIS_URL)', () => {
  const clients: Redis[] = [];
  const caches: AuthCache[] = [];
  // Other test runs may share this Redis: a channel of our own.
  const channel = `pluma-test:auth-changes:${randomBytes(4).toString('hex')}`;

  afterEach(async () => {
    await Promise.all(caches.splice(0).map((cache) => cache.close()));
    for (const client of clients.splice(0)) client.disconnect();
  });

  const client = (name?: string) => {
    const redis = new Redis(REDIS_URL!, { maxRetriesPerRequest: 3, connectionName: name });
    redis.on('error', () => {});
    clients.push(redis);
    return redis;
  };
  /** A cache as one node has it: its own bus, publisher and subscriber. */
  const node = async (name: string) => {
    const cache = new AuthCache();
    const bus = new AuthChangeBus();
    caches.push(cache);
    await syncAuthCache(cache, { bus, channel, redis: { publisher: client(), subscriber: client(name) } });
    return { cache, bus };
  };

  it("a change on one node drops the other node's entries", async () => {
    const a = await node(`a-${channel}`);
    const b = await node(`b-${channel}`);
    expect(b.cache.live).toBe(true);
    b.cache.storeActor('h1', entry(1, 'fam-1'), b.cache.ticket());
    b.cache.storeActor('h2', entry(2, 'fam-2'), b.cache.ticket());
    b.cache.storeActor('h3', entry(3, 'fam-3'), b.cache.ticket());

    a.bus.announce({ userId: 1 });
    await until(() => b.cache.actor('h1') === undefined);
    a.bus.announce({ familyId: 'fam-2' });
    await until(() => b.cache.actor('h2') === undefined);
    expect(b.cache.actor('h3')).toBeDefined();
    // Held back on B too: a read racing the change's commit is not stored there either.
    expect(b.cache.storeActor('h1', entry(1, 'fam-1'), b.cache.ticket())).toBe(false);
    // A word charge on A drops B's view of that user, and B keeps the actor.
    b.cache.storeView(3, { user_id: 3 } as CurrentUser, Number.POSITIVE_INFINITY, b.cache.ticket());
    a.bus.announce({ balanceOf: 3 });
    await until(() => b.cache.view(3) === undefined);
    expect(b.cache.actor('h3')).toBeDefined();
  });

  it('ignores malformed messages on the channel', async () => {
    const b = await node(`b2-${channel}`);
    b.cache.storeActor('h1', entry(1, 'fam-1'), b.cache.ticket());
    const raw = client();
    await raw.publish(channel, 'garbage');
    await raw.publish(channel, JSON.stringify({ from: 'elsewhere', userId: 1 }));
    await until(() => b.cache.actor('h1') === undefined);
    expect(b.cache.live).toBe(true);
  });

  it('switches itself off while its subscription is lost, and back on once it is restored', async () => {
    const name = `b3-${channel}`;
    const b = await node(name);
    b.cache.storeActor('h1', entry(1, 'fam-1'), b.cache.ticket());
    const admin = client();
    const list = (await admin.client('LIST')) as string;
    const id = list
      .split('\n')
      .find((line) => line.includes(` name=${name} `))
      ?.match(/^id=(\d+)/)?.[1];
    expect(id).toBeDefined();
    await admin.client('KILL', 'ID', id!);
    await until(() => !b.cache.live);
    // Whatever was cached may have missed changes meanwhile.
    expect(b.cache.actor('h1')).toBeUndefined();
    await until(() => b.cache.live, 10_000);
    // Subscribed again: changes from other nodes arrive.
    b.cache.storeActor('h1', entry(1, 'fam-1'), b.cache.ticket());
    await admin.publish(channel, JSON.stringify({ from: 'other-node', userId: 1 }));
    await until(() => b.cache.actor('h1') === undefined);
  });

  it('fails to start when Redis cannot be reached, leaving the cache closed', async () => {
    const cache = new AuthCache();
    const unreachable = { host: '127.0.0.1', port: 1, maxRetriesPerRequest: 0, retryStrategy: () => null } as const;
    const publisher = new Redis(unreachable);
    const subscriber = new Redis(unreachable);
    for (const redis of [publisher, subscriber]) redis.on('error', () => {});
    clients.push(publisher, subscriber);
    await expect(syncAuthCache(cache, { bus: new AuthChangeBus(), channel, redis: { publisher, subscriber } })).rejects.toThrow();
    expect(cache.live).toBe(false);
  });
});
