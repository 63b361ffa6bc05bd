// Two app instances on one database and one Redis, as two processes of a scaled-out deployment
// (DESIGN.md §1.4). Both live in this one test process, where they would hear each other's changes on the
// process bus; node B gets a bus and an auth cache of its own, so only Redis tells it about A's changes.
import type { Redis } from 'ioredis';
import type { Database } from '../db/client';
import { AuthCache } from '../platform/auth/auth-cache';
import { syncAuthCache } from '../platform/auth/cache-sync';
import { AuthChangeBus } from '../platform/auth/invalidation';
import { createTestApp, type TestApp } from './test-app';
import { createTestDatabase } from './test-db';

export interface TwoNodes {
  database: Database;
  nodeA: TestApp;
  nodeB: TestApp;
  /** Node B's own auth cache, fed only over Redis. */
  cacheB: AuthCache;
  /** Node B's Redis subscriber (the auth-changes channel). */
  subscriberB: Redis;
  close(): Promise<void>;
}

export async function startTwoNodes(redisUrl: string | undefined): Promise<TwoNodes> {
  if (!redisUrl) throw new Error('REDIS_URL is not set (e.g. redis://127.0.0.1:6379); the cross-node test needs Redis');
  const database = await createTestDatabase(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
  const nodeA = await createTestApp({ REDIS_URL: redisUrl }, { database });
  const nodeB = await createTestApp({ REDIS_URL: redisUrl }, { database });
  const redisB = nodeB.ctx.services.redis!;
  await nodeB.ctx.services.authCache!.close();
  const cacheB = new AuthCache();
  const subscriberB = redisB.duplicate();
  subscriberB.on('error', () => {});
  await syncAuthCache(cacheB, { bus: new AuthChangeBus(), redis: { publisher: redisB, subscriber: subscriberB } });
  nodeB.ctx.services.authCache = cacheB;
  return {
    database,
    nodeA,
    nodeB,
    cacheB,
    subscriberB,
    async close() {
      await nodeA.close();
      await nodeB.close();
      await database.close();
    },
  };
}
