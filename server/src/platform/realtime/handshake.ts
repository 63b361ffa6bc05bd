// Who may open a socket: a valid session token (handshake `auth.token` or `Authorization: Bearer`),
// from the app's own origin. Refusals carry `{ error, message }` in the connect_error's `data`.
import type { EventEmitter } from 'node:events';
import { ServerResponse, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { Lang, StaffRole } from '@pluma/common/constants';
import { ErrorIds } from '@pluma/common/errors';
import { translate, type MessageKey } from '@pluma/common/messages';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'socket.io';
import { actorFromToken } from '../auth/guard';

export interface SocketData {
  userId: number;
  /** The session (token) it connected with, and its family: the socket lives as long as the family (socket-sessions.ts). */
  sessionId: number;
  familyId: string;
  /** The staff role the account held when it opened (one held back until a second factor included): a change (a demotion) drops the socket, whose client reconnects with its current rights. */
  staffRole: StaffRole | null;
}

/** Browsers cannot set headers on a websocket, so they send `auth: { token }`; other clients may use the header. */
export function handshakeToken(handshake: { auth: Record<string, unknown>; headers: IncomingHttpHeaders }): string | null {
  const fromAuth = handshake.auth?.token;
  if (typeof fromAuth === 'string' && fromAuth.trim()) return fromAuth.trim();
  const header = handshake.headers.authorization;
  if (typeof header !== 'string') return null;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value?.trim() ? value.trim() : null;
}

function headerLang(headers: IncomingHttpHeaders): Lang {
  const first = headers['accept-language']?.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('es') ? 'es' : 'en';
}

/** The error Socket.IO sends to the client as connect_error: a short reason, translated details in data. */
function refusal(headers: IncomingHttpHeaders, errorId: string, messageKey: MessageKey, reason = 'unauthorized'): Error & { data: unknown } {
  const error = new Error(reason) as Error & { data: unknown };
  error.data = { error: errorId, message: translate(headerLang(headers), messageKey) };
  return error;
}

/** Socket.IO middleware: attaches the user to the socket or refuses the connection. */
export function authenticateSocket(app: FastifyInstance) {
  return async (socket: Socket, next: (err?: Error) => void) => {
    const { headers } = socket.handshake;
    const token = handshakeToken(socket.handshake);
    if (!token) return next(refusal(headers, ErrorIds.unauthenticated, 'unauthenticated'));
    try {
      const actor = await actorFromToken(app, token);
      if (actor === 'expired') return next(refusal(headers, ErrorIds.tokenExpired, 'token_expired'));
      if (!actor) return next(refusal(headers, ErrorIds.unauthenticated, 'unauthenticated'));
      const data: SocketData = { userId: actor.user.userId, sessionId: actor.sessionId, familyId: actor.familyId, staffRole: actor.staffRole ?? actor.staffRoleAwaitingSecondFactor ?? null };
      socket.data = data;
      next();
    } catch (err) {
      app.log.error({ err }, 'socket authentication failed');
      next(refusal(headers, ErrorIds.internal, 'internal_error', 'internal_error'));
    }
  };
}

/**
 * What every connected socket's `handshake` becomes: one frozen object shared by all. Socket.IO builds a
 * handshake per socket (headers, token, query, the time as a date string, the URL, the address) that
 * nothing reads after the middleware above (issue 31 item 3: "drop the retained handshake request"); the
 * peer's address stays on `socket.conn.remoteAddress`. Frozen, so nothing can write one socket's data into
 * every socket's handshake.
 */
const RELEASED_HANDSHAKE: Socket['handshake'] = Object.freeze({
  headers: Object.freeze({}),
  time: '',
  address: '',
  xdomain: false,
  secure: false,
  issued: 0,
  url: '',
  query: Object.freeze({}),
  auth: Object.freeze({}),
});

/**
 * Once connected, a socket keeps nothing of its handshake: Socket.IO holds the upgrade request (with its
 * headers and raw headers) for the socket's life, and the handshake its headers and token — ~3 KB a socket
 * that nothing reads after the middleware (bench/socket-memory.mjs, issue 31 item 3). The token going also
 * means an idle socket holds no credential.
 */
export function releaseHandshake(socket: Socket): void {
  const conn = socket.conn as unknown as { request: IncomingMessage | null; transport: { socket?: EventEmitter } };
  const request = conn.request as (IncomingMessage & { _query?: unknown; websocket?: unknown }) | null;
  if (request) {
    // Should anything still hold the request (see releaseUpgradeResponse), its contents go anyway.
    request.headers = {};
    request.rawHeaders = [];
    request._query = undefined;
    request.websocket = undefined;
  }
  conn.request = null;
  (socket as { handshake: Socket['handshake'] }).handshake = RELEASED_HANDSHAKE;
  // Engine.IO leaves its pre-upgrade 'error' listener (a no-op) on the websocket for the socket's life,
  // beside the transport's own, which handles errors from then on.
  const websocket = conn.transport.socket;
  const leftover = websocket?.listeners('error').find((listener) => listener.name === 'onUpgradeError');
  if (leftover) websocket?.removeListener('error', leftover as (...args: unknown[]) => void);
}

/**
 * Engine.IO middleware (`io.engine.use`), which must be the first: for a websocket upgrade Engine.IO makes a
 * stand-in response whose constructor has just put a `once('close')` listener on the TCP socket (so that
 * middlewares can hear the response end). That listener keeps the stand-in and the upgrade request alive
 * for the socket's whole life (~1 KB a socket, issue 31 item 3); no middleware here listens, so it goes.
 * An ordinary HTTP request (a polling attempt, refused later) has a real response and is left alone.
 */
export function releaseUpgradeResponse(_req: IncomingMessage, res: ServerResponse, next: (err?: Error) => void): void {
  if (!(res instanceof ServerResponse)) {
    const tcp = (res as unknown as { socket: EventEmitter | null }).socket;
    const added = tcp?.rawListeners('close').at(-1) as ((...args: unknown[]) => void) & { listener?: unknown };
    // The listener once() wraps: the stand-in's is the last added, and once-only (the TCP socket's own are not).
    if (added && typeof added.listener === 'function') tcp?.removeListener('close', added);
  }
  next();
}

function originHost(value: string | undefined): string | null {
  if (!value) return null;
  try {
    return new URL(value).host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Same-origin only: a browser's Origin must name the host it connected to (or PUBLIC_URL, behind a proxy
 * that rewrites Host). Clients that are not browsers send no Origin and rely on their token alone.
 */
export function isSameOrigin(request: Pick<IncomingMessage, 'headers'>, publicUrl?: string): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const host = originHost(origin);
  if (!host) return false;
  const forwarded = request.headers['x-forwarded-host'];
  const allowed = [
    request.headers.host?.toLowerCase(),
    typeof forwarded === 'string' ? forwarded.split(',')[0].trim().toLowerCase() : undefined,
    originHost(publicUrl),
  ];
  return allowed.includes(host);
}
