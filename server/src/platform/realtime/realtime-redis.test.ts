// Scaled out (DESIGN.md §1.4): two app instances, each with its own Socket.IO server and Redis clients,
// on one database and one Redis. CI sets REDIS_URL and TEST_DATABASE_URL.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { buildUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase } from '../../test/test-db';
import { registerStoppable, requestStop, StoppedByUser } from '../ai/stops';
import { connectSocket, listenLocally, nextDisconnect, nextEvent, recordEvents, type ClientSocket } from './socket-test-helpers';

const REDIS_URL = process.env.REDIS_URL;
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const unconfigured = !REDIS_URL && !TEST_DATABASE_URL;

describe.skipIf(unconfigured)('real-time channel across nodes (needs REDIS_URL and TEST_DATABASE_URL; skipped when both are unset)', () => {
  let database: Database;
  let nodeA: TestApp;
  let nodeB: TestApp;
  let urlB: string;
  // Other test runs may share this Redis: event names are unique to this run.
  const nonce = randomBytes(4).toString('hex');

  beforeAll(async () => {
    if (!REDIS_URL) throw new Error('REDIS_URL is not set (e.g. redis://127.0.0.1:6379); the cross-node test needs Redis');
    // One PostgreSQL database for both nodes; without TEST_DATABASE_URL, one shared in-process PGlite.
    database = await createTestDatabase(TEST_DATABASE_URL ? 'postgres' : 'pglite');
    nodeA = await createTestApp({ REDIS_URL }, { database });
    nodeB = await createTestApp({ REDIS_URL }, { database });
    await listenLocally(nodeA.app);
    urlB = await listenLocally(nodeB.app);
  });
  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    await database?.close();
  });

  const realtimeOf = (node: TestApp) => {
    if (!node.ctx.services.realtime) throw new Error('realtime service not registered');
    return node.ctx.services.realtime;
  };

  it('uses its own Redis clients on each node', () => {
    expect(nodeA.ctx.services.redis).toBeDefined();
    expect(nodeB.ctx.services.redis).toBeDefined();
    expect(nodeA.ctx.services.redis).not.toBe(nodeB.ctx.services.redis);
    expect(database.kind).toBe(TEST_DATABASE_URL ? 'postgres' : 'pglite');
  });

  it("an event emitted on node A reaches the user's socket on node B, and only that user's", async () => {
    const sockets: ClientSocket[] = [];
    try {
      const alice = await buildUser(nodeA.ctx);
      const bob = await buildUser(nodeA.ctx);
      const aliceOnB = await connectSocket(urlB, { token: alice.token });
      const bobOnB = await connectSocket(urlB, { token: bob.token });
      sockets.push(aliceOnB, bobOnB);
      const seenByBob = recordEvents(bobOnB);

      const event = `message_stream_${nonce}`;
      const received = nextEvent(aliceOnB, event);
      realtimeOf(nodeA).emitToUser(alice.user.userId, event, { message_id: 1, content: 'from A' });
      expect(await received).toEqual({ message_id: 1, content: 'from A' });

      // Both events travel the same Redis channel in order: once Bob has his, Alice's would have come first.
      const marker = nextEvent(bobOnB, `marker_${nonce}`);
      realtimeOf(nodeA).emitToUser(bob.user.userId, `marker_${nonce}`, 1);
      await marker;
      expect(seenByBob).toEqual([{ event: `marker_${nonce}`, payload: 1 }]);
    } finally {
      for (const socket of sockets) socket.close();
    }
  });

  it("a Stop asked on node A ends the generation running on node B (issue 30 item 1)", async () => {
    const controller = new AbortController();
    const aborted = new Promise<unknown>((resolve) => controller.signal.addEventListener('abort', () => resolve(controller.signal.reason)));
    let finish!: () => void;
    registerStoppable(nodeB.ctx, `message:${nonce}`, controller, new Promise<void>((resolve) => (finish = resolve)));
    // Not running on A: A tells the other nodes and answers at once.
    expect(await requestStop(nodeA.ctx, `message:${nonce}`)).toBe(false);
    expect(await aborted).toBeInstanceOf(StoppedByUser);
    finish();
    // A key no node runs stops nothing.
    expect(await requestStop(nodeA.ctx, `message:${nonce}-none`)).toBe(false);
  });

  it("disconnectUser on node A closes the user's sockets on node B", async () => {
    const carol = await buildUser(nodeA.ctx);
    const socket = await connectSocket(urlB, { token: carol.token });
    try {
      const disconnected = nextDisconnect(socket);
      realtimeOf(nodeA).disconnectUser(carol.user.userId);
      expect(await disconnected).toBe('io server disconnect');
    } finally {
      socket.close();
    }
  });
});
