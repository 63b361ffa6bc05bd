import type { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { ErrorIds } from '@pluma/common/errors';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema';
import { buildUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { hashToken } from '../auth/tokens';
import { userRoom } from './rooms';
import type { RealtimeServer } from './socket-server';
import {
  collectGarbage,
  connectSocket,
  listenLocally,
  nextDisconnect,
  nextEvent,
  recordEvents,
  type ClientSocket,
  type ConnectRefusal,
} from './socket-test-helpers';

describe('real-time channel', () => {
  let t: TestApp;
  let url: string;
  const opened: ClientSocket[] = [];
  const connect = async (options: Parameters<typeof connectSocket>[1]) => {
    const socket = await connectSocket(url, options);
    opened.push(socket);
    return socket;
  };
  const refusalOf = (options: Parameters<typeof connectSocket>[1]) =>
    connectSocket(url, options).then(
      (socket) => {
        socket.close();
        throw new Error('connection was accepted');
      },
      (err: ConnectRefusal) => err,
    );
  const realtime = (): RealtimeServer => {
    const service = t.ctx.services.realtime;
    if (!service || !('io' in service)) throw new Error('realtime service not registered');
    return service as RealtimeServer;
  };

  beforeAll(async () => {
    t = await createTestApp();
    url = await listenLocally(t.app);
  });
  afterEach(() => {
    for (const socket of opened.splice(0)) socket.close();
  });
  afterAll(() => t.close());

  it('delivers emitToUser events to the user connected with auth.token', async () => {
    const { user, token } = await buildUser(t.ctx);
    const socket = await connect({ token });
    const received = nextEvent(socket, 'message_stream');
    realtime().emitToUser(user.userId, 'message_stream', { message_id: 7, content: 'Hola', conversation_id: 3 });
    expect(await received).toEqual({ message_id: 7, content: 'Hola', conversation_id: 3 });
  });

  it('accepts the token in an Authorization: Bearer header', async () => {
    const { user, auth } = await buildUser(t.ctx);
    const socket = await connect({ headers: auth });
    const received = nextEvent(socket, 'output');
    realtime().emitToUser(user.userId, 'output', { ok: true });
    expect(await received).toEqual({ ok: true });
  });

  it("delivers the spec's error events (their names are not reserved by Socket.IO)", async () => {
    const { user, token } = await buildUser(t.ctx);
    const socket = await connect({ token });
    for (const event of ['error', 'openai-error', 'anthropic-error']) {
      const received = nextEvent(socket, event);
      realtime().emitToUser(user.userId, event, { status: 500, message: event });
      expect(await received).toEqual({ status: 500, message: event });
    }
  });

  it('refuses a connection without a token, with a translated reason', async () => {
    const err = await refusalOf({});
    expect(err.message).toBe('unauthorized');
    expect(err.data).toEqual({ error: ErrorIds.unauthenticated, message: 'Please sign in to continue.' });
  });

  it('refuses an unknown token (in Spanish when the browser asks for it)', async () => {
    const err = await refusalOf({ token: 'not-a-real-session-token', headers: { 'accept-language': 'es-MX,es;q=0.9' } });
    expect(err.message).toBe('unauthorized');
    expect(err.data).toEqual({ error: ErrorIds.unauthenticated, message: 'Inicia sesión para continuar.' });
  });

  it('refuses expired and revoked sessions', async () => {
    const expired = await buildUser(t.ctx);
    await t.ctx.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.tokenHash, hashToken(expired.token)));
    const expiredErr = await refusalOf({ token: expired.token });
    expect(expiredErr.message).toBe('unauthorized');
    expect(expiredErr.data?.error).toBe(ErrorIds.tokenExpired);

    const revoked = await buildUser(t.ctx);
    await t.ctx.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.tokenHash, hashToken(revoked.token)));
    const revokedErr = await refusalOf({ token: revoked.token });
    expect(revokedErr.data?.error).toBe(ErrorIds.unauthenticated);
  });

  it("never delivers user B's events to user A", async () => {
    const a = await buildUser(t.ctx);
    const b = await buildUser(t.ctx);
    const socketA = await connect({ token: a.token });
    const socketB = await connect({ token: b.token });
    const seenByA = recordEvents(socketA);
    const toB = nextEvent(socketB, 'message');
    realtime().emitToUser(b.user.userId, 'message', { secret: 'for B' });
    // Emitted after B's event on the same node: once A has this marker, B's event would have arrived first.
    const marker = nextEvent(socketA, 'marker');
    realtime().emitToUser(a.user.userId, 'marker', 1);
    expect(await toB).toEqual({ secret: 'for B' });
    await marker;
    expect(seenByA).toEqual([{ event: 'marker', payload: 1 }]);
  });

  it("ignores a 'join' for another user's room", async () => {
    const a = await buildUser(t.ctx);
    const b = await buildUser(t.ctx);
    const socketA = await connect({ token: a.token });
    expect(await socketA.emitWithAck('join', `user-${b.user.userId}`)).toEqual({ ok: false });
    expect(await socketA.emitWithAck('join', { user_id: b.user.userId })).toEqual({ ok: false });
    expect(await socketA.emitWithAck('join', a.user.userId)).toEqual({ ok: true });

    const inRoomB = await realtime().io.in(userRoom(b.user.userId)).fetchSockets();
    expect(inRoomB).toHaveLength(0);
    const [serverSideA] = await realtime().io.in(userRoom(a.user.userId)).fetchSockets();
    expect([...serverSideA.rooms].sort()).toEqual([serverSideA.id, userRoom(a.user.userId)].sort());

    const seenByA = recordEvents(socketA);
    realtime().emitToUser(b.user.userId, 'message', { secret: 'for B' });
    const marker = nextEvent(socketA, 'marker');
    realtime().emitToUser(a.user.userId, 'marker', 2);
    await marker;
    expect(seenByA).toEqual([{ event: 'marker', payload: 2 }]);
  });

  it('disconnectUser closes every socket of that user and no other', async () => {
    const a = await buildUser(t.ctx);
    const b = await buildUser(t.ctx);
    const firstA = await connect({ token: a.token });
    const secondA = await connect({ token: a.token });
    const socketB = await connect({ token: b.token });
    const closed = Promise.all([nextDisconnect(firstA), nextDisconnect(secondA)]);
    realtime().disconnectUser(a.user.userId);
    expect(await closed).toEqual(['io server disconnect', 'io server disconnect']);
    expect(socketB.connected).toBe(true);
    const toB = nextEvent(socketB, 'message');
    realtime().emitToUser(b.user.userId, 'message', 'still here');
    expect(await toB).toBe('still here');
  });

  it('accepts browsers from its own origin only', async () => {
    const { token } = await buildUser(t.ctx);
    await expect(connectSocket(url, { token, headers: { origin: 'https://evil.example' } })).rejects.toThrow();
    const sameOrigin = await connect({ token, headers: { origin: url } });
    expect(sameOrigin.connected).toBe(true);
  });

  it('keeps neither the upgrade request nor Engine.IO\'s stand-in response once connected (issue 31 item 3)', async () => {
    const { token } = await buildUser(t.ctx);
    let request: WeakRef<IncomingMessage> | undefined;
    const onUpgrade = (req: IncomingMessage) => void (request = new WeakRef(req));
    t.app.server.on('upgrade', onUpgrade);
    try {
      const socket = await connect({ token });
      expect(socket.connected).toBe(true);
    } finally {
      t.app.server.off('upgrade', onUpgrade);
    }
    expect(request).toBeDefined();
    // A WeakRef's target is kept until the job that made or read it ends: collect on a later turn.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(request?.deref()).toBeUndefined();
  });

  it('leaves a connected socket its transport\'s error listener, a shared handshake and no token', async () => {
    const { user, token } = await buildUser(t.ctx);
    const client = await connect({ token });
    const server = realtime().io.of('/').sockets.get(client.id ?? '');
    if (!server) throw new Error('no server-side socket');
    expect(server.handshake).toEqual({ headers: {}, time: '', address: '', xdomain: false, secure: false, issued: 0, url: '', query: {}, auth: {} });
    expect(Object.isFrozen(server.handshake)).toBe(true);
    expect(server.conn.remoteAddress).toBe('127.0.0.1');
    const websocket = (server.conn.transport as unknown as { socket: EventEmitter }).socket;
    expect(websocket.listeners('error').map((listener) => listener.name)).toEqual(['bound onError']);
    // Errors are still handled: the socket closes rather than the process throwing.
    const closed = nextDisconnect(client);
    websocket.emit('error', new Error('broken frame'));
    expect(await closed).toBe('transport close');
    expect(realtime().io.of('/').sockets.has(server.id)).toBe(false);
    expect(await realtime().io.in(userRoom(user.userId)).fetchSockets()).toHaveLength(0);
  });

  it('offers the websocket transport only', async () => {
    const res = await fetch(`${url}/socket.io/?EIO=4&transport=polling`);
    expect(res.status).toBe(400);
  });
});

describe('real-time channel shutdown', () => {
  it('disconnects open sockets when the app closes', async () => {
    const t = await createTestApp();
    const url = await listenLocally(t.app);
    const { token } = await buildUser(t.ctx);
    const socket = await connectSocket(url, { token });
    const disconnected = nextDisconnect(socket);
    await t.close();
    expect(await disconnected).toBe('io server disconnect');
    socket.close();
  });
});
