// Real-time channel (spec part 2 §7): Socket.IO at the same origin, path /socket.io, websocket transport,
// authenticated with the session token; the server puts the connection in room user-{user_id}.
// socket.io-client is imported only after sign-in, so it stays off the sign-in screens' critical path.
import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';

/**
 * - 'connecting': the first connection is being made.
 * - 'reconnecting': it was lost (or the first attempt failed); Socket.IO tries again with backoff.
 * - 'offline': the server refused the connection and a renewed token did not help; reconnectSocket() tries again.
 */
export type SocketStatus = 'disconnected' | 'connecting' | 'connected' | 'reconnecting' | 'offline';
type Handler = (...args: unknown[]) => void;
/** What this module uses of a Socket.IO socket once connected (tests put a stand-in: socketTestSeam). */
export interface SocketConnection {
  readonly connected: boolean;
  connect(): unknown;
  disconnect(): unknown;
  emit(event: string, ...args: unknown[]): unknown;
}

/** Socket.IO's own backoff after a lost connection: 1 s, doubling, at most 10 s, ±50 % so clients spread out. */
export const RECONNECT_OPTIONS = { reconnection: true, reconnectionDelay: 1000, reconnectionDelayMax: 10_000, randomizationFactor: 0.5 } as const;
/**
 * A refusal by the server (expired or revoked token, a failed check) stops Socket.IO's own retries. We
 * renew the token and try again this many times, then stay 'offline': never retry forever with a dead token.
 */
export const MAX_REFUSED_RETRIES = 2;

const handlers = new Map<string, Set<Handler>>();
const statusListeners = new Set<() => void>();
let socket: SocketConnection | null = null;
let status: SocketStatus = 'disconnected';
// Bumped on every connect/disconnect so a slow import cannot resurrect a closed connection.
let generation = 0;
let refusals = 0;

function setStatus(next: SocketStatus) {
  if (status === next) return;
  status = next;
  statusListeners.forEach((listener) => listener());
}

function dispatch(event: string, args: unknown[]) {
  handlers.get(event)?.forEach((handler) => handler(...args));
}

/** The error id the server's handshake sent with a refusal (server/src/platform/realtime/handshake.ts). */
function refusalId(error: unknown): string | null {
  const data = (error as { data?: { error?: unknown } } | null)?.data;
  return typeof data?.error === 'string' ? data.error : null;
}

const TOKEN_REFUSALS = new Set(['auth/id-token-expired', 'unauthenticated']);

export interface ConnectOptions {
  /**
   * Renews the session token after the server refused it; false when the session is over (the API client
   * then signs out, which closes the socket). Default: the API client's forced refresh.
   */
  renewToken?: () => Promise<boolean>;
  /** Waits before trying again after a refusal (tests pass a no-op). */
  wait?: (ms: number) => Promise<void>;
}

const defaultRenew = () => import('./instance').then(({ api }) => api.refreshNow());
const defaultWait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Opens the connection (idempotent). The token is read on every (re)connect, so refreshed tokens are used. */
export async function connectSocket(getToken: () => string | null, options: ConnectOptions = {}): Promise<void> {
  if (socket || status === 'connecting') return;
  const mine = ++generation;
  refusals = 0;
  setStatus('connecting');
  const { io } = await import('socket.io-client');
  if (mine !== generation) return;
  const next = io({
    path: '/socket.io',
    transports: ['websocket'],
    auth: (cb) => cb({ token: getToken() }),
    ...RECONNECT_OPTIONS,
  });
  const renew = options.renewToken ?? defaultRenew;
  const wait = options.wait ?? defaultWait;

  // Refused (connect_error while inactive) or sent away by the server: Socket.IO will not retry by itself.
  const recover = async (error: unknown) => {
    refusals += 1;
    if (refusals > MAX_REFUSED_RETRIES) return setStatus('offline');
    setStatus('reconnecting');
    if (TOKEN_REFUSALS.has(refusalId(error) ?? '')) {
      const renewed = await renew().catch(() => false);
      if (mine !== generation) return;
      if (!renewed) return setStatus('offline');
    }
    await wait(RECONNECT_OPTIONS.reconnectionDelay * 2 ** (refusals - 1));
    if (mine === generation && !next.connected) next.connect();
  };

  next.on('connect', () => {
    refusals = 0;
    setStatus('connected');
  });
  next.on('disconnect', (reason) => {
    if (next.active) setStatus('reconnecting');
    else if (reason === 'io server disconnect') void recover(null);
  });
  next.on('connect_error', (error) => {
    if (next.active) setStatus('reconnecting');
    else void recover(error);
  });
  next.onAny((event: string, ...args: unknown[]) => dispatch(event, args));
  socket = next;
}

/** Tries again now (the connection banner's button): clears the refusal count. */
export function reconnectSocket() {
  if (!socket || socket.connected) return;
  refusals = 0;
  setStatus('reconnecting');
  socket.connect();
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

/** The connection's state now (useSocketStatus() follows it in components). */
export const getSocketStatus = (): SocketStatus => status;
const subscribeStatus = (listener: () => void) => {
  statusListeners.add(listener);
  return () => {
    statusListeners.delete(listener);
  };
};

export function useSocketStatus(): SocketStatus {
  return useSyncExternalStore(subscribeStatus, getSocketStatus, getSocketStatus);
}

/**
 * Tests only (test/fake-socket.ts): a stand-in connection in a chosen state, and server events delivered to
 * the subscribers as the connection would, so screens run with this module as it is.
 */
export const socketTestSeam = {
  install(connection: SocketConnection, state: SocketStatus) {
    generation++;
    socket = connection;
    refusals = 0;
    setStatus(state);
  },
  deliver(event: string, ...args: unknown[]) {
    dispatch(event, args);
  },
  setStatus(state: SocketStatus) {
    setStatus(state);
  },
};

/** Tests only (test/setup.ts): as on a page that never connected — no connection, no subscriptions. */
export function resetSocketForTests() {
  generation++;
  socket?.disconnect();
  socket = null;
  status = 'disconnected';
  refusals = 0;
  handlers.clear();
  statusListeners.clear();
}
