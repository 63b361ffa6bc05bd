// A stand-in for api/socket.ts in screen tests: tests deliver server events with `emit` and set the
// connection's state with `setStatus`; the hooks behave as the real ones do for a component.
// Use: const socket = await vi.hoisted(async () => (await import('../../test/fake-socket')).createFakeSocket());
//      vi.mock('../../api/socket', async () => (await import('../../test/fake-socket')).fakeSocketModule(socket));
import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';

export type FakeSocket = ReturnType<typeof createFakeSocket>;

export function createFakeSocket() {
  const handlers = new Map<string, Set<(payload: unknown) => void>>();
  const statusListeners = new Set<() => void>();
  const state = { status: 'connected' as string };
  return {
    handlers,
    statusListeners,
    state,
    reconnect: { calls: 0 },
    emit(event: string, payload: unknown) {
      handlers.get(event)?.forEach((handler) => handler(payload));
    },
    setStatus(status: string) {
      state.status = status;
      statusListeners.forEach((listener) => listener());
    },
  };
}

export function fakeSocketModule(socket: FakeSocket) {
  return {
    reconnectSocket: () => {
      socket.reconnect.calls += 1;
    },
    useSocketStatus: () =>
      useSyncExternalStore(
        (listener: () => void) => {
          socket.statusListeners.add(listener);
          return () => void socket.statusListeners.delete(listener);
        },
        () => socket.state.status,
      ),
    useSocketEvent: (event: string, handler: (payload: unknown) => void) => {
      const onEvent = useEffectEvent(handler);
      useEffect(() => {
        const set = socket.handlers.get(event) ?? new Set();
        const listener = (payload: unknown) => onEvent(payload);
        set.add(listener);
        socket.handlers.set(event, set);
        return () => void set.delete(listener);
      }, [event]);
    },
  };
}
