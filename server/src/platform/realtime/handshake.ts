// Who may open a socket: a valid session token (handshake `auth.token` or `Authorization: Bearer`),
// from the app's own origin. Refusals carry `{ error, message }` in the connect_error's `data`.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
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
 * Once connected, a socket keeps nothing of its handshake: Socket.IO holds the upgrade request (with its
 * headers and raw headers) for the socket's life, and the handshake its headers and token — ~3 KB a socket
 * that nothing reads after the middleware (bench/socket-memory.mjs, issue 31 item 3). The token going also
 * means an idle socket holds no credential.
 */
export function releaseHandshake(socket: Socket): void {
  const conn = socket.conn as unknown as { request: IncomingMessage | null };
  const request = conn.request as (IncomingMessage & { _query?: unknown; websocket?: unknown }) | null;
  if (request) {
    // Engine.IO's upgrade response object stays on the TCP socket's 'close' listener and holds the
    // request, so dropping our reference alone frees nothing: its contents go instead (~0.6 KB a socket).
    request.headers = {};
    request.rawHeaders = [];
    request._query = undefined;
    request.websocket = undefined;
  }
  conn.request = null;
  const handshake = socket.handshake as { headers: IncomingHttpHeaders; auth: Record<string, unknown>; query: unknown };
  handshake.headers = {};
  handshake.auth = {};
  handshake.query = {};
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
