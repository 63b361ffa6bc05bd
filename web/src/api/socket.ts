// Real-time channel (spec part 2 §7): Socket.IO at the same origin, path /socket.io, websocket transport,
// authenticated with the session token; the server puts the connection in room user-{user_id}.
// socket.io-client is imported only after sign-in, so it stays off the sign-in screens' critical path.
import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';
import type { Socket } from 'socket.io-client';

export type SocketStatus = 'disconnected' | 'connecting' | 'connected';
type Handler = (...args: unknown[]) => void;

const handlers = new Map<string, Set<Handler>>();
const statusListeners = new Set<() => void>();
let socket: Socket | null = null;
let status: SocketStatus = 'disconnected';
// Bumped on every connect/disconnect so a slow import cannot resurrect a closed connection.
let generation = 0;

function setStatus(next: SocketStatus) {
  status = next;
  statusListeners.forEach((listener) => listener());
}

function dispatch(event: string, args: unknown[]) {
  handlers.get(event)?.forEach((handler) => handler(...args));
}

/** Opens the connection (idempotent). The token is read on every (re)connect, so refreshed tokens are used. */
export async function connectSocket(getToken: () => string | null): Promise<void> {
  if (socket || status === 'connecting') return;
  const mine = ++generation;
  setStatus('connecting');
  const { io } = await import('socket.io-client');
  if (mine !== generation) return;
  const next = io({
    path: '/socket.io',
    transports: ['websocket'],
    auth: (cb) => cb({ token: getToken() }),
  });
  next.on('connect', () => setStatus('connected'));
  next.on('disconnect', () => setStatus('connecting'));
  next.on('connect_error', () => setStatus('connecting'));
  next.onAny((event: string, ...args: unknown[]) => dispatch(event, args));
  socket = next;
}

/** Closes the connection (on sign-out). Subscriptions stay registered for the next session. */
export function disconnectSocket() {
  generation++;
  socket?.disconnect();
  socket = null;
  setStatus('disconnected');
}

/** Sends an event to the server; false when not connected. */
export function emitSocket(event: string, ...args: unknown[]): boolean {
  if (!socket?.connected) return false;
  socket.emit(event, ...args);
  return true;
}

/** Subscribes to a server event; returns the unsubscribe function. */
export function onSocketEvent<T = unknown>(event: string, handler: (payload: T, ...rest: unknown[]) => void): () => void {
  const set = handlers.get(event) ?? new Set<Handler>();
  set.add(handler as Handler);
  handlers.set(event, set);
  return () => {
    set.delete(handler as Handler);
    if (set.size === 0) handlers.delete(event);
  };
}

/** Calls `handler` for each `event` while the component is mounted (the latest handler is always used). */
export function useSocketEvent<T = unknown>(event: string, handler: (payload: T, ...rest: unknown[]) => void) {
  const onEvent = useEffectEvent((payload: T, ...rest: unknown[]) => handler(payload, ...rest));
  useEffect(() => onSocketEvent<T>(event, (payload, ...rest) => onEvent(payload, ...rest)), [event]);
}

const getStatus = () => status;
const subscribeStatus = (listener: () => void) => {
  statusListeners.add(listener);
  return () => {
    statusListeners.delete(listener);
  };
};

export function useSocketStatus(): SocketStatus {
  return useSyncExternalStore(subscribeStatus, getStatus, getStatus);
}
