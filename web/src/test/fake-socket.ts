// The real-time channel in screen tests: api/socket.ts as it is, with a stand-in connection in place of
// Socket.IO (socketTestSeam). Tests deliver server events with `emit` and set the connection's state with
// `setStatus`; `reconnect.calls` counts the connection attempts the screen asked for (the banner's button).
// Not a vi.mock of api/socket: test files share one module graph (isolate: false), so a module mocked by
// one file would stay bound in every screen that file loaded first (docs/testing.md).
// Use, at a test file's top level: const socket = setupFakeSocket();
import { beforeEach } from 'vitest';
import { getSocketStatus, socketTestSeam, type SocketConnection, type SocketStatus } from '../api/socket';

export type FakeSocket = ReturnType<typeof setupFakeSocket>;

/** Before each test of the calling file: a connected stand-in (test/setup.ts removes it after each test). */
export function setupFakeSocket() {
  const fake = {
    reconnect: { calls: 0 },
    emit(event: string, payload: unknown) {
      socketTestSeam.deliver(event, payload);
    },
    setStatus(status: SocketStatus) {
      socketTestSeam.setStatus(status);
    },
  };
  const connection: SocketConnection = {
    get connected() {
      return getSocketStatus() === 'connected';
    },
    connect() {
      fake.reconnect.calls += 1;
      return this;
    },
    disconnect() {
      return this;
    },
    emit() {
      return this;
    },
  };
  beforeEach(() => {
    fake.reconnect.calls = 0;
    socketTestSeam.install(connection, 'connected');
  });
  return fake;
}
