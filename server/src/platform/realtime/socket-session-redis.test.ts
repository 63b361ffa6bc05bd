// Scaled out (DESIGN.md §1.4): a session ended through node A drops its sockets on node B. Two app
// instances share one database and one Redis (as in realtime-redis.test.ts and auth-cache-redis.test.ts);
// CI sets REDIS_URL and TEST_DATABASE_URL.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { buildUser } from '../../test/factories';
import { type TestApp } from '../../test/test-app';
import { startTwoNodes, type TwoNodes } from '../../test/two-nodes';
import { createSession } from '../auth/sessions';
import { userRoom } from './rooms';
import type { RealtimeServer } from './socket-server';
import { connectSocket, listenLocally, nextEvent, type ClientSocket } from './socket-test-helpers';

const REDIS_URL = process.env.REDIS_URL;
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const unconfigured = !REDIS_URL && !TEST_DATABASE_URL;
/** The task's bound: a session's sockets are gone within a second of the write that ended it. */
const DROP_WITHIN_MS = 1_000;

describe.skipIf(unconfigured)('sockets follow their session across nodes (needs REDIS_URL and TEST_DATABASE_URL; skipped when both are unset)', () => {
  let database: Database;
  let nodeA: TestApp;
  let nodeB: TestApp;
  let urlB: string;
  const opened: ClientSocket[] = [];

  let nodes: TwoNodes | undefined;

  beforeAll(async () => {
    nodes = await startTwoNodes(REDIS_URL);
    ({ database, nodeA, nodeB } = nodes);
    urlB = await listenLocally(nodeB.app);
    // B's sockets follow B's own cache, which hears A only over Redis.
    realtimeOf(nodeB).sessions.follow(nodes.cacheB);
  });
  afterEach(() => {
    for (const socket of opened.splice(0)) socket.close();
  });
  afterAll(() => nodes?.close());

  function realtimeOf(node: TestApp): RealtimeServer {
    if (!node.ctx.services.realtime) throw new Error('realtime service not registered');
    return node.ctx.services.realtime as RealtimeServer;
  }

  /** A socket on node B, its id, and a promise of its disconnect reason (rejected after the bound, counted from `start`). */
  async function openOnB(token: string) {
    const socket = await connectSocket(urlB, { token });
    opened.push(socket);
    const id = socket.id!;
    await realtimeOf(nodeB).sessions.settled();
    let reason: Promise<string> | undefined;
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    return {
      socket,
      id,
      /** Call right after the action on node A returned. */
      dropped(): Promise<string> {
        reason ??= Promise.race([
          disconnected,
          new Promise<string>((_, reject) => setTimeout(() => reject(new Error(`socket on node B still connected ${DROP_WITHIN_MS} ms later`)), DROP_WITHIN_MS)),
        ]);
        return reason;
      },
    };
  }

  /** Socket ids in the user's room on every node (the Redis adapter asks them all). */
  const inRoom = async (userId: number) => (await realtimeOf(nodeA).io.in(userRoom(userId)).fetchSockets()).map((s) => s.id);

  it('each node has its own Redis clients and the database both share', () => {
    expect(nodeA.ctx.services.redis).not.toBe(nodeB.ctx.services.redis);
    expect(database.kind).toBe(TEST_DATABASE_URL ? 'postgres' : 'pglite');
  });

  it("sign-out through node A drops that session's socket on node B; another device stays", async () => {
    const who = await buildUser(nodeA.ctx);
    const signedOut = await openOnB(who.token);
    const other = await openOnB(await createSession(nodeA.ctx.db, who.user.userId));
    const res = await nodeA.app.inject({ method: 'POST', url: '/api/auth/logout', headers: who.auth });
    expect(res.statusCode).toBe(204);
    expect(await signedOut.dropped()).toBe('io server disconnect');

    const room = await inRoom(who.user.userId);
    expect(room).not.toContain(signedOut.id);
    expect(room).toContain(other.id);
    const after = nextEvent(other.socket, 'message_stream');
    realtimeOf(nodeA).emitToUser(who.user.userId, 'message_stream', { message_id: 2, content: 'still here' });
    expect(await after).toEqual({ message_id: 2, content: 'still here' });
  });

  it("a password change through node A drops the other device's socket on node B and keeps the current one", async () => {
    const who = await buildUser(nodeA.ctx);
    const current = await openOnB(who.token);
    const other = await openOnB(await createSession(nodeA.ctx.db, who.user.userId));
    const res = await nodeA.app.inject({
      method: 'PUT',
      url: '/api/auth/password',
      headers: who.auth,
      payload: { current_password: who.password, password: 'changed-on-a-9' },
    });
    expect(res.statusCode).toBe(204);
    expect(await other.dropped()).toBe('io server disconnect');
    await realtimeOf(nodeB).sessions.settled();
    expect(current.socket.connected).toBe(true);
    expect(await inRoom(who.user.userId)).toEqual([current.id]);
  });
});
