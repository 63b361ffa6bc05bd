// The visitor token of the public widget API (contract B): a Bearer token for /messages, signed with HMAC-SHA256
// under a key derived from APP_SECRET for this use alone, carrying the widget, its key version and the session,
// valid 30 minutes. Rotating the widget's key raises its version, so every token minted before is refused.
// It is not a session token of the app: platform/auth never accepts it (no user, no row in sessions).
import { VISITOR_TOKEN_TTL_MS } from '@pluma/common/widgets';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export interface VisitorClaims {
  widgetId: number;
  keyVersion: number;
  sessionId: number;
  /** Expiry, milliseconds since the epoch. */
  expiresAt: number;
}

const PREFIX = 'pwv1';

const keyOf = (appSecret: string) => createHash('sha256').update(`pluma:widget-visitor:${appSecret}`).digest();

const mac = (appSecret: string, body: string) => createHmac('sha256', keyOf(appSecret)).update(`${PREFIX}.${body}`).digest('base64url');

export function signVisitorToken(appSecret: string, claims: Omit<VisitorClaims, 'expiresAt'>, now: number = Date.now()): { token: string; expiresAt: number } {
  const expiresAt = now + VISITOR_TOKEN_TTL_MS;
  const body = Buffer.from(JSON.stringify({ w: claims.widgetId, k: claims.keyVersion, s: claims.sessionId, e: expiresAt })).toString('base64url');
  return { token: `${PREFIX}.${body}.${mac(appSecret, body)}`, expiresAt };
}

const isPositiveInt = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/** The claims of a genuine, unexpired token; null for anything else (forged, altered, expired, malformed). */
export function verifyVisitorToken(appSecret: string, token: string, now: number = Date.now()): VisitorClaims | null {
  if (token.length > 512) return null;
  const [prefix, body, signature, ...rest] = token.split('.');
  if (prefix !== PREFIX || !body || !signature || rest.length > 0) return null;
  const expected = Buffer.from(mac(appSecret, body));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let payload: { w?: unknown; k?: unknown; s?: unknown; e?: unknown };
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof payload;
  } catch {
    return null;
  }
  if (!isPositiveInt(payload.w) || !isPositiveInt(payload.k) || !isPositiveInt(payload.s) || !isPositiveInt(payload.e)) return null;
  if (payload.e <= now) return null;
  return { widgetId: payload.w, keyVersion: payload.k, sessionId: payload.s, expiresAt: payload.e };
}
