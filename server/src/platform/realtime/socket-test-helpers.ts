// Helpers for the real-time tests: a listening app and socket.io-client connections to it.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { SOCKET_PATH } from './socket-server';

export type { ClientSocket };

export interface ConnectRefusal extends Error {
  data?: { error: string; message: string };
}

/** Listens on a free local port; returns the base URL. */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('app is not listening on TCP');
  return `http://127.0.0.1:${address.port}`;
}

/** Connects like the web client (websocket only, no reconnection); rejects with the server's connect_error. */
export function connectSocket(
  baseUrl: string,
  options: { token?: string; headers?: Record<string, string> } = {},
): Promise<ClientSocket> {
  const socket = connectClient(baseUrl, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 5000,
    auth: options.token === undefined ? {} : { token: options.token },
    extraHeaders: options.headers,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

/** The next payload of `event`, or a rejection after `timeoutMs`. */
export function nextEvent<T = unknown>(socket: ClientSocket, event: string, timeoutMs = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, onEvent);
      reject(new Error(`no '${event}' within ${timeoutMs} ms`));
    }, timeoutMs);
    const onEvent = (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    };
    socket.once(event, onEvent);
  });
}

/** Resolves with the disconnect reason. */
export function nextDisconnect(socket: ClientSocket, timeoutMs = 5000): Promise<string> {
  return nextEvent<string>(socket, 'disconnect', timeoutMs);
}

/** Records every event a socket receives, in order. */
export function recordEvents(socket: ClientSocket): Array<{ event: string; payload: unknown }> {
  const seen: Array<{ event: string; payload: unknown }> = [];
  socket.onAny((event: string, payload: unknown) => seen.push({ event, payload }));
  return seen;
}

/**
 * A full garbage collection, for tests that check what a socket no longer keeps (through a WeakRef). V8's
 * `gc` is exposed on a fresh context, so the test process needs no --expose-gc flag.
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
