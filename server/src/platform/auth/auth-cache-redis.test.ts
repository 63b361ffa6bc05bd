// Scaled out (DESIGN.md §1.4): a change made on node A reaches node B's auth cache over Redis, so B
// never serves a revoked session or an old balance from its cache. Two app instances share one database
// and one Redis (as in platform/realtime/realtime-redis.test.ts); CI sets REDIS_URL and TEST_DATABASE_URL.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { chargeWords } from '../../features/credits/ledger';
import { buildUser, type BuiltUser } from '../../test/factories';
import { type TestApp } from '../../test/test-app';
import { startTwoNodes, type TwoNodes } from '../../test/two-nodes';
import { AUTH_CHANGES_CHANNEL } from './cache-sync';
import { hashToken } from './tokens';

const REDIS_URL = process.env.REDIS_URL;
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const unconfigured = !REDIS_URL && !TEST_DATABASE_URL;

describe.skipIf(unconfigured)('auth cache across nodes (needs REDIS_URL and TEST_DATABASE_URL; skipped when both are unset)', () => {
  let database: Database;
  let nodeA: TestApp;
  let nodeB: TestApp;
  let subscriberB: Redis;

  let nodes: TwoNodes | undefined;

  beforeAll(async () => {
    nodes = await startTwoNodes(REDIS_URL);
    ({ database, nodeA, nodeB, subscriberB } = nodes);
  });
  afterAll(() => nodes?.close());

  const meOn = (node: TestApp, who: BuiltUser | string) =>
    node.app.inject({ url: '/api/users', headers: { authorization: `Bearer ${typeof who === 'string' ? who : who.token}` } });
  const cachedOnB = (token: string) => nodeB.ctx.services.authCache!.actor(hashToken(token)) !== undefined;

  /**
   * Resolves once node B has received everything node A published so far: A's changes and this marker
   * travel A's one publishing connection in order, so when B sees the marker it has handled the change.
   */
  async function bHeardA() {
    const marker = `marker-${randomBytes(6).toString('hex')}`;
    const heard = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('node B heard nothing from node A')), 5_000);
      const onMessage = (channel: string, raw: string) => {
        if (channel !== AUTH_CHANGES_CHANNEL || raw !== marker) return;
        clearTimeout(timer);
        subscriberB.off('message', onMessage);
        resolve();
      };
      subscriberB.on('message', onMessage);
    });
    await nodeA.ctx.services.redis!.publish(AUTH_CHANGES_CHANNEL, marker);
    await heard;
  }

  it('each node has its own subscriber; both caches are live', () => {
    expect(nodeA.ctx.services.authCache!.live).toBe(true);
    expect(nodeB.ctx.services.authCache!.live).toBe(true);
    expect(database.kind).toBe(TEST_DATABASE_URL ? 'postgres' : 'pglite');
  });

  it("sign-out on node A refuses the token node B has cached", async () => {
    const alice = await buildUser(nodeA.ctx);
    expect((await meOn(nodeB, alice)).statusCode).toBe(200);
    expect(cachedOnB(alice.token)).toBe(true);
    expect((await nodeA.app.inject({ method: 'POST', url: '/api/auth/logout', headers: alice.auth })).statusCode).toBe(204);
    await bHeardA();
    expect(cachedOnB(alice.token)).toBe(false);
    expect((await meOn(nodeB, alice)).statusCode).toBe(401);
  });

  it("a password change on node A signs out the other device node B has cached", async () => {
    const bob = await buildUser(nodeA.ctx);
    const login = await nodeB.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: bob.user.email, password: bob.password }, remoteAddress: '10.55.0.1' });
    const otherDevice = login.json().token as string;
    expect((await meOn(nodeB, otherDevice)).statusCode).toBe(200);
    expect(cachedOnB(otherDevice)).toBe(true);
    const change = await nodeA.app.inject({ method: 'PUT', url: '/api/auth/password', headers: bob.auth, payload: { current_password: bob.password, password: 'changed-on-a' } });
    expect(change.statusCode).toBe(204);
    await bHeardA();
    expect((await meOn(nodeB, otherDevice)).statusCode).toBe(401);
  });

  it("words charged on node A show at once in node B's cached GET /api/users", async () => {
    const carol = await buildUser(nodeA.ctx, { access: true });
    expect((await meOn(nodeB, carol)).json().available_words).toBe(10_000);
    expect(cachedOnB(carol.token)).toBe(true);
    await nodeA.ctx.db.transaction((tx) => chargeWords(tx, { userId: carol.user.userId, sourceType: 'test', sourceId: `redis-${carol.user.userId}`, words: 40 }));
    await bHeardA();
    expect((await meOn(nodeB, carol)).json().available_words).toBe(9_960);
  });
});
