// The real-time channel (spec part 2 §7; DESIGN.md §2, §4): Socket.IO on the app's own HTTP server,
// websocket transport only, one room per user. With REDIS_URL, the Redis adapter carries emits and
// disconnects to every node, so any node can reach a user connected to another. A socket lives only as
// long as the session it connected with (socket-sessions.ts).
import { once } from 'node:events';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import type { Realtime } from '../../context';
import { listenForStops } from '../ai/stops';
import { authenticateSocket, isSameOrigin, releaseHandshake, releaseUpgradeResponse, type SocketData } from './handshake';
import { joinTarget, userRoom } from './rooms';
import { SocketSessionGuard } from './socket-sessions';

export const SOCKET_PATH = '/socket.io';
/** Redis channel prefix, namespaced like the rate limiter's keys so a shared Redis stays tidy. */
export const REDIS_ADAPTER_KEY = 'pluma-socket.io';
/** Clients only ever send 'join'; anything large is not ours. */
const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;

export interface RealtimeServer extends Realtime {
  io: Server;
  /** Drops the sockets of ended sessions on this node. */
  sessions: SocketSessionGuard;
  /** Disconnects this node's sockets and leaves the Redis channel; run before the HTTP server closes. */
  close(): Promise<void>;
}

type JoinAck = (result: { ok: boolean }) => void;

/**
 * The original client asks to join its room; it is already in it, and no other room is granted. One
 * function for every socket (Socket.IO calls it with the socket as `this`): a closure per socket cost heap.
 */
function onJoin(this: Socket, arg: unknown, ack?: JoinAck): void {
  const own = joinTarget(arg) === (this.data as SocketData).userId;
  if (typeof ack === 'function') ack({ ok: own });
}

/** Attaches Socket.IO to `app.server`. The caller runs `close()` in a preClose hook (see boot.ts). */
export async function startRealtime(app: FastifyInstance): Promise<RealtimeServer> {
  const { env } = app.ctx;
  const io = new Server(app.server, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    serveClient: false,
    maxHttpBufferSize: MAX_CLIENT_MESSAGE_BYTES,
    // CORS does not cover websockets, so same-origin is enforced on the upgrade request itself.
    allowRequest: (request, callback) => callback(null, isSameOrigin(request, env.PUBLIC_URL)),
  });
  io.engine.use(releaseUpgradeResponse);

  const redisClients = env.REDIS_URL ? await attachRedisAdapter(app, io, env.REDIS_URL) : [];

  const sessions = new SocketSessionGuard({ db: app.ctx.db, log: app.log });
  sessions.follow(app.ctx.services.authCache);

  io.use(authenticateSocket(app));
  io.on('connection', (socket) => {
    const { userId } = socket.data as SocketData;
    void socket.join(userRoom(userId));
    releaseHandshake(socket);
    sessions.track(socket);
    socket.on('join', onJoin);
  });

  // Messages from the other nodes (only with the Redis adapter: a single node has no others).
  if (redisClients.length > 0) listenForStops(app.ctx, (event, handler) => io.on(event, handler));

  return {
    io,
    sessions,
    emitToNodes(event, payload) {
      if (redisClients.length > 0) io.serverSideEmit(event, payload);
    },
    emitToUser(userId, event, payload) {
      io.to(userRoom(userId)).emit(event, payload);
    },
    disconnectUser(userId) {
      io.in(userRoom(userId)).disconnectSockets(true);
    },
    async close() {
      // Upgraded sockets keep the HTTP server open, so they go first; the server itself is Fastify's to close.
      await sessions.close();
      io.local.disconnectSockets(true);
      await io.of('/').adapter.close();
      io.engine.close();
      await Promise.allSettled(redisClients.map((client) => client.quit()));
    },
  };
}

/** Own pub and sub connections (the sub one is stuck in subscriber mode), duplicated from the app's client. */
async function attachRedisAdapter(app: FastifyInstance, io: Server, url: string): Promise<Redis[]> {
  const base = app.ctx.services.redis;
  const pub = base ? base.duplicate() : new Redis(url, { maxRetriesPerRequest: 3 });
  const sub = pub.duplicate();
  for (const client of [pub, sub]) client.on('error', (err) => app.log.warn({ err }, 'realtime redis error'));
  try {
    // Connected before the adapter queues its subscriptions, so a Redis that is down fails the boot cleanly.
    await Promise.all([pub, sub].map((client) => (client.status === 'ready' ? undefined : once(client, 'ready'))));
  } catch (err) {
    pub.disconnect();
    sub.disconnect();
    throw err;
  }
  io.adapter(createAdapter(pub, sub, { key: REDIS_ADAPTER_KEY }));
  // The adapter subscribes without waiting; a PING answered after it proves the subscriptions are live,
  // so an emit from another node right after boot is not lost.
  await sub.ping();
  return [pub, sub];
}
