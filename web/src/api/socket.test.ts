// The socket client's connection states: backoff options, lost and regained connections, and a server
// refusal (expired or revoked token) that renews the token a bounded number of times, never forever.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Listener = (...args: unknown[]) => void;

/** A stand-in for socket.io-client's Socket: tests fire its events and read what the client did. */
class FakeSocket {
  listeners = new Map<string, Listener[]>();
  active = true;
  connected = false;
  connect = vi.fn(() => {
    this.active = true;
  });
  disconnect = vi.fn(() => {
    this.active = false;
  });
  on(event: string, listener: Listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  onAny() {
    return this;
  }
  fire(event: string, ...args: unknown[]) {
    this.listeners.get(event)?.forEach((listener) => listener(...args));
  }
}

const created = vi.hoisted(() => ({ sockets: [] as unknown[], options: [] as unknown[] }));
vi.mock('socket.io-client', () => ({
  io: (options: unknown) => {
    const socket = new FakeSocket();
    created.sockets.push(socket);
    created.options.push(options);
    return socket;
  },
}));

const { connectSocket, disconnectSocket, getSocketStatus: currentStatus, reconnectSocket, MAX_REFUSED_RETRIES, RECONNECT_OPTIONS } = await import('./socket');

const refused = (error: string) => Object.assign(new Error('unauthorized'), { data: { error, message: 'x' } });
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('socket client', () => {
  let socket: FakeSocket;
  const renewToken = vi.fn(async () => true);
  const wait = vi.fn(async () => undefined);

  beforeEach(async () => {
    created.sockets.length = 0;
    created.options.length = 0;
    renewToken.mockReset().mockResolvedValue(true);
    wait.mockClear();
    await connectSocket(() => 'token-1', { renewToken, wait });
    socket = created.sockets[0] as FakeSocket;
  });
  afterEach(() => disconnectSocket());

  it('reconnects with backoff after a lost connection and reports each state', () => {
    expect(created.options[0]).toMatchObject({ transports: ['websocket'], ...RECONNECT_OPTIONS });
    expect(RECONNECT_OPTIONS.reconnectionDelayMax).toBeGreaterThan(RECONNECT_OPTIONS.reconnectionDelay);
    expect(currentStatus()).toBe('connecting');
    socket.connected = true;
    socket.fire('connect');
    expect(currentStatus()).toBe('connected');
    // The server went away: Socket.IO is still active and retries by itself.
    socket.connected = false;
    socket.fire('disconnect', 'transport close');
    expect(currentStatus()).toBe('reconnecting');
    socket.fire('connect_error', new Error('websocket error'));
    expect(currentStatus()).toBe('reconnecting');
    expect(renewToken).not.toHaveBeenCalled();
    socket.fire('connect');
    expect(currentStatus()).toBe('connected');
  });

  it('an expired token is renewed and the connection tried again, a bounded number of times, then offline', async () => {
    for (let attempt = 1; attempt <= MAX_REFUSED_RETRIES; attempt++) {
      socket.active = false;
      socket.fire('connect_error', refused('auth/id-token-expired'));
      await flush();
      expect(renewToken).toHaveBeenCalledTimes(attempt);
      expect(socket.connect).toHaveBeenCalledTimes(attempt);
      expect(currentStatus()).toBe('reconnecting');
    }
    socket.active = false;
    socket.fire('connect_error', refused('auth/id-token-expired'));
    await flush();
    expect(renewToken).toHaveBeenCalledTimes(MAX_REFUSED_RETRIES);
    expect(socket.connect).toHaveBeenCalledTimes(MAX_REFUSED_RETRIES);
    expect(currentStatus()).toBe('offline');
    // The banner's button tries again.
    reconnectSocket();
    expect(socket.connect).toHaveBeenCalledTimes(MAX_REFUSED_RETRIES + 1);
    expect(currentStatus()).toBe('reconnecting');
  });

  it('a session that cannot be renewed stays offline without reconnecting', async () => {
    renewToken.mockResolvedValue(false);
    socket.active = false;
    socket.fire('connect_error', refused('unauthenticated'));
    await flush();
    expect(renewToken).toHaveBeenCalledTimes(1);
    expect(socket.connect).not.toHaveBeenCalled();
    expect(currentStatus()).toBe('offline');
  });

  it('a successful connection resets the refusal count; a server kick is retried without a renewal', async () => {
    socket.active = false;
    socket.fire('connect_error', refused('auth/id-token-expired'));
    await flush();
    socket.connected = true;
    socket.fire('connect');
    socket.connected = false;
    socket.active = false;
    socket.fire('disconnect', 'io server disconnect');
    await flush();
    expect(renewToken).toHaveBeenCalledTimes(1);
    expect(socket.connect).toHaveBeenCalledTimes(2);
    expect(currentStatus()).toBe('reconnecting');
  });
});
