// Sockets follow the session they connected with (socket-sessions.ts): every way a session ends drops
// its sockets at once, while other sessions of the same user, and changes that end nothing, keep theirs.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createResetPasswordToken } from '../auth/one-time-tokens';
import { sessions, staff, users } from '../../db/schema';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { invalidateUser } from '../auth/invalidation';
import { createSession, SESSION_IDLE_MS } from '../auth/sessions';
import { hashToken } from '../auth/tokens';
import type { SocketData } from './handshake';
import { userRoom } from './rooms';
import type { RealtimeServer } from './socket-server';
import { connectSocket, listenLocally, nextEvent, recordEvents, type ClientSocket } from './socket-test-helpers';

/** The task's bound: a session's sockets are gone within a second of the write that ended it. */
const DROP_WITHIN_MS = 1_000;

let ip = 0;
/** Each call its own address, so the auth routes' per-IP limits never get in the way. */
const nextIp = () => `10.77.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;

/** Watches a socket from now on; `dropped()` waits (after the action) for a server-side disconnect. */
function watch(socket: ClientSocket) {
  let reason: string | null = null;
  const waiting: ((why: string) => void)[] = [];
  socket.once('disconnect', (why: string) => {
    reason = why;
    for (const resolve of waiting) resolve(why);
  });
  return {
    dropped(): Promise<string> {
      if (reason !== null) return Promise.resolve(reason);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`socket still connected ${DROP_WITHIN_MS} ms after its session ended`)), DROP_WITHIN_MS);
        waiting.push((why) => {
          clearTimeout(timer);
          resolve(why);
        });
      });
    },
  };
}

describe('sockets follow their session', () => {
  let t: TestApp;
  let url: string;
  const opened: ClientSocket[] = [];

  const realtime = (): RealtimeServer => t.ctx.services.realtime as RealtimeServer;
  const guard = () => realtime().sessions;

  /** A connected socket, its server-side id, the events it receives and a disconnect watch. */
  async function open(token: string) {
    const socket = await connectSocket(url, { token });
    opened.push(socket);
    const id = socket.id!;
    const seen = recordEvents(socket);
    const { dropped } = watch(socket);
    // The connection's own first check is done: later checks are the ones under test.
    await guard().settled();
    return { socket, id, seen, dropped };
  }
  type Opened = Awaited<ReturnType<typeof open>>;

  /** Socket ids in the user's room on the server. */
  const inRoom = async (userId: number) => (await realtime().io.in(userRoom(userId)).fetchSockets()).map((s) => s.id);

  /**
   * The dropped socket is out of the user's room and gets nothing more; the kept one (if any) still
   * gets the user's events. Emitted in order on one node: once the kept socket has the marker, anything
   * for the dropped one would have been sent first.
   */
  async function expectOnlyKept(userId: number, dropped: Opened, kept?: Opened) {
    expect(await dropped.dropped()).toBe('io server disconnect');
    const room = await inRoom(userId);
    expect(room).not.toContain(dropped.id);
    if (kept) {
      expect(room).toContain(kept.id);
      const marker = nextEvent(kept.socket, 'message_stream');
      realtime().emitToUser(userId, 'message_stream', { message_id: 1, content: 'after' });
      expect(await marker).toEqual({ message_id: 1, content: 'after' });
      expect(kept.socket.connected).toBe(true);
    }
    expect(dropped.seen).toEqual([]);
  }

  async function expectStillConnected(userId: number, ...kept: Opened[]) {
    await guard().settled();
    const room = await inRoom(userId);
    for (const socket of kept) {
      expect(socket.socket.connected).toBe(true);
      expect(room).toContain(socket.id);
    }
  }

  /** A second sign-in of the same user (another device): its own session family. */
  const otherDevice = (who: BuiltUser) => createSession(t.ctx.db, who.user.userId);

  beforeAll(async () => {
    t = await createTestApp();
    url = await listenLocally(t.app);
  });
  afterEach(async () => {
    for (const socket of opened.splice(0)) socket.close();
    // The server hears the closes a moment later; the next test starts when it has forgotten them.
    await expect.poll(() => guard().familyCount, { timeout: 5_000 }).toBe(0);
  });
  afterAll(() => t.close());

  it('a socket carries its session id and family id', async () => {
    const who = await buildUser(t.ctx);
    const { id } = await open(who.token);
    const [session] = await t.ctx.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(who.token)));
    const [server] = await realtime().io.in(id).fetchSockets();
    expect(server.data as SocketData).toEqual({ userId: who.user.userId, sessionId: session.sessionId, familyId: session.familyId, staffRole: null });
  });

  it("sign-out drops that session's socket; the user's other device stays connected", async () => {
    const who = await buildUser(t.ctx);
    const signedOut = await open(who.token);
    const other = await open(await otherDevice(who));
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: who.auth });
    expect(res.statusCode).toBe(204);
    await expectOnlyKept(who.user.userId, signedOut, other);
  });

  it('a refresh keeps the socket, also after the rotated token is past its grace', async () => {
    const who = await buildUser(t.ctx);
    const socket = await open(who.token);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: who.auth, remoteAddress: nextIp() });
    expect(res.statusCode).toBe(200);
    await expectStillConnected(who.user.userId, socket);
    // The socket's own token is now a rotated one: the socket follows the family, which goes on.
    await t.ctx.db.update(sessions).set({ rotatedAt: new Date(Date.now() - 3_600_000) }).where(eq(sessions.tokenHash, hashToken(who.token)));
    await guard().sweep();
    await expectStillConnected(who.user.userId, socket);
  });

  it("a reused refresh token revokes the family and drops its sockets, the old token's and the new one's", async () => {
    const who = await buildUser(t.ctx);
    const withOld = await open(who.token);
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: who.auth, remoteAddress: nextIp() });
    const withNew = await open(refreshed.json().token as string);
    const other = await open(await otherDevice(who));
    const reuse = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: who.auth, remoteAddress: nextIp() });
    expect(reuse.statusCode).toBe(401);
    await expectOnlyKept(who.user.userId, withOld, other);
    await expectOnlyKept(who.user.userId, withNew, other);
  });

  it("a password change drops the other sessions' sockets and keeps the current one's", async () => {
    const who = await buildUser(t.ctx);
    const current = await open(who.token);
    const other = await open(await otherDevice(who));
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/password',
      headers: who.auth,
      payload: { current_password: who.password, password: 'changed-pass-9' },
    });
    expect(res.statusCode).toBe(204);
    await expectOnlyKept(who.user.userId, other, current);
    await expectStillConnected(who.user.userId, current);
  });

  it("a password reset drops every socket of the user, and no one else's", async () => {
    const who = await buildUser(t.ctx);
    const bystander = await buildUser(t.ctx);
    const first = await open(who.token);
    const second = await open(await otherDevice(who));
    const unrelated = await open(bystander.token);
    const reset = await createResetPasswordToken(t.ctx, who.user.userId);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: reset, password: 'brand-new-9' }, remoteAddress: nextIp() });
    expect(res.statusCode).toBe(200);
    await expectOnlyKept(who.user.userId, first);
    await expectOnlyKept(who.user.userId, second);
    await expectStillConnected(bystander.user.userId, unrelated);
  });

  it('a session reaching its absolute expiry drops its socket with no request or announcement', async () => {
    const who = await buildUser(t.ctx);
    // Ends shortly after the socket connects: the family's timer, not a sweep, must notice.
    await t.ctx.db.update(sessions).set({ expiresAt: new Date(Date.now() + 800) }).where(eq(sessions.tokenHash, hashToken(who.token)));
    const expiring = await open(who.token);
    const other = await open(await otherDevice(who));
    await new Promise((resolve) => setTimeout(resolve, 800));
    await expectOnlyKept(who.user.userId, expiring, other);
  });

  it("an idle session's socket is dropped by the periodic re-check", async () => {
    const who = await buildUser(t.ctx);
    const idle = await open(who.token);
    const other = await open(await otherDevice(who));
    await t.ctx.db
      .update(sessions)
      .set({ lastUsedAt: new Date(Date.now() - SESSION_IDLE_MS - 1_000) })
      .where(eq(sessions.tokenHash, hashToken(who.token)));
    await guard().sweep();
    await expectOnlyKept(who.user.userId, idle, other);
  });

  it('HTTP use before the idle deadline keeps the socket when its timer comes due', async () => {
    const who = await buildUser(t.ctx);
    const socket = await open(who.token);
    // Idle in 1 s; the sweep arms the family's timer for then.
    await t.ctx.db
      .update(sessions)
      .set({ lastUsedAt: new Date(Date.now() - SESSION_IDLE_MS + 1_000) })
      .where(eq(sessions.tokenHash, hashToken(who.token)));
    await guard().sweep();
    // A request (read from the database, not the cache) moves last_used_at to now.
    t.ctx.services.authCache?.clear();
    expect((await t.app.inject({ url: '/api/users', headers: who.auth })).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await expectStillConnected(who.user.userId, socket);
  });

  it("deleting a user (as staff would, with only invalidateUser) drops the user's sockets", async () => {
    const who = await buildUser(t.ctx);
    const first = await open(who.token);
    const second = await open(await otherDevice(who));
    await t.ctx.db.delete(users).where(eq(users.userId, who.user.userId));
    invalidateUser(who.user.userId);
    await expectOnlyKept(who.user.userId, first);
    await expectOnlyKept(who.user.userId, second);
  });

  it('deleting their own account drops the user\'s sockets', async () => {
    const who = await buildUser(t.ctx);
    const socket = await open(who.token);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/users', headers: who.auth })).statusCode).toBe(204);
    await expectOnlyKept(who.user.userId, socket);
  });

  it('a demoted user\'s sockets are dropped, and reconnect with the rights the user has now', async () => {
    const who = await buildUser(t.ctx, { staffRole: 'manager' });
    const socket = await open(who.token);
    const [before] = await realtime().io.in(socket.id).fetchSockets();
    expect((before.data as SocketData).staffRole).toBe('manager');
    await t.ctx.db.delete(staff).where(eq(staff.userId, who.user.userId));
    invalidateUser(who.user.userId);
    await expectOnlyKept(who.user.userId, socket);
    // The session itself lives on: the same token connects again, now without the staff role.
    const again = await open(who.token);
    const [after] = await realtime().io.in(again.id).fetchSockets();
    expect((after.data as SocketData).staffRole).toBeNull();
  });

  it('changes that end no session and change no rights (a profile edit) keep the sockets', async () => {
    const who = await buildUser(t.ctx, { staffRole: 'manager', access: true });
    const socket = await open(who.token);
    const edit = await t.app.inject({ method: 'PUT', url: '/api/users', headers: who.auth, payload: { company: 'Acme' } });
    expect(edit.statusCode).toBe(200);
    invalidateUser(who.user.userId);
    await expectStillConnected(who.user.userId, socket);
  });

  it('forgets the sessions of closed sockets', async () => {
    const who = await buildUser(t.ctx);
    const before = guard().familyCount;
    const { socket } = await open(who.token);
    expect(guard().familyCount).toBe(before + 1);
    const gone = nextEvent(socket, 'disconnect');
    socket.close();
    await gone;
    // The server hears the close a moment after the client; its room empties then.
    await expect.poll(() => guard().familyCount, { timeout: 5_000 }).toBe(before);
  });
});
