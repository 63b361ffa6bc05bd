// The checks every public widget request passes (contract B "Public API"): the Origin header against the
// widget's allowed_origins (exact scheme://host:port; a missing Origin is refused; the app's own origin only
// for its /chat-embedded page, and only when the widget lists at least one website), CORS only for an
// allowed origin, the owner's access, and the rate limits. Refusals are WidgetRefusal, answered as
// { code, message } in the request's language (public-routes.ts).
import type { Lang } from '@pluma/common/constants';
import type { MessageKey } from '@pluma/common/messages';
import { toWidgetOrigin, WIDGET_ERROR_CODES, WIDGET_PUBLIC_KEY_PATTERN, type WidgetErrorCode } from '@pluma/common/widgets';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { avatars, files, staff, users, widgets } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError } from '../../platform/http/errors';
import { requireFeature } from '../appconfig';
import { requireAccess } from '../credits';
import { publicBaseUrl } from '../../platform/http/public-url';
import type { WidgetRow } from './policy';
import { avatarUsableBy } from './service';

export class WidgetRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: WidgetErrorCode,
    readonly messageKey: MessageKey,
  ) {
    super(code);
  }
}

const C = WIDGET_ERROR_CODES;
export const originNotAllowed = () => new WidgetRefusal(403, C.originNotAllowed, 'origin_not_allowed');
export const widgetNotFound = () => new WidgetRefusal(404, C.widgetNotFound, 'widget_not_found');
export const widgetDisabled = () => new WidgetRefusal(403, C.widgetDisabled, 'widget_disabled');
export const widgetUnavailable = () => new WidgetRefusal(403, C.widgetUnavailable, 'widget_unavailable');
export const visitorTokenInvalid = () => new WidgetRefusal(401, C.visitorTokenInvalid, 'visitor_token_invalid');
export const widgetRateLimited = () => new WidgetRefusal(429, C.rateLimited, 'rate_limited');
export const widgetLimitReached = () => new WidgetRefusal(402, C.widgetLimitReached, 'widget_limit_reached');

/** What a public request knows about its widget once the origin passed. */
export interface PublicWidget {
  widget: WidgetRow;
  avatar: { avatarId: number; name: string; context: string; userId: number; organizationId: number | null; public: boolean; kind: string | null };
  image: { fileId: number; type: string; publicName: string | null } | null;
  /** The request's Origin, allowed for this widget. */
  origin: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    publicWidget?: PublicWidget;
  }
}

/** The request's language: `lang` of the body or query, else Accept-Language, else English. */
export function publicLang(request: FastifyRequest): Lang {
  for (const source of [request.body, request.query]) {
    const lang = (source as { lang?: unknown } | undefined)?.lang;
    if (lang === 'en' || lang === 'es') return lang;
  }
  const first = String(request.headers['accept-language'] ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('es') ? 'es' : 'en';
}

/** This app's own origins: PUBLIC_URL's, and the one the request was made to (behind no rewriting proxy). */
export function appOrigins(app: FastifyInstance, request: FastifyRequest): string[] {
  const own = [new URL(publicBaseUrl(app.ctx)).origin];
  const host = request.headers.host;
  if (host) {
    const origin = toWidgetOrigin(`${request.protocol}://${host}`);
    if (origin) own.push(origin);
  }
  return own;
}

async function findPublicWidget(db: Db, publicKey: string): Promise<Omit<PublicWidget, 'origin'> | null> {
  if (!WIDGET_PUBLIC_KEY_PATTERN.test(publicKey)) return null;
  const [row] = await db
    .select({
      widget: widgets,
      avatar: {
        avatarId: avatars.avatarId,
        name: avatars.name,
        context: avatars.context,
        userId: avatars.userId,
        organizationId: avatars.organizationId,
        public: avatars.public,
        kind: avatars.kind,
      },
      fileId: files.fileId,
      fileType: files.type,
      publicName: files.publicName,
    })
    .from(widgets)
    .innerJoin(avatars, eq(avatars.avatarId, widgets.avatarId))
    .leftJoin(files, eq(files.fileId, widgets.imageFileId))
    .where(eq(widgets.publicKey, publicKey))
    .limit(1);
  if (!row) return null;
  return {
    widget: row.widget,
    avatar: row.avatar,
    image: row.fileId !== null && row.fileType !== null ? { fileId: row.fileId, type: row.fileType, publicName: row.publicName } : null,
  };
}

/**
 * The origin check (a preValidation hook of the public routes, so it also guards the CORS preflight): a missing
 * Origin is 403, an unknown or rotated key 404, an Origin the widget does not list 403 — all without CORS
 * headers, so a browser on another website cannot even read the refusal. An allowed Origin is reflected.
 */
export async function admitOrigin(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<PublicWidget> {
  reply.header('Cross-Origin-Resource-Policy', 'cross-origin').header('Vary', 'Origin');
  const header = request.headers.origin;
  const origin = typeof header === 'string' ? toWidgetOrigin(header) : null;
  if (!origin) throw originNotAllowed();
  const found = await findPublicWidget(app.ctx.db, String((request.params as { publicKey?: unknown }).publicKey ?? ''));
  if (!found) throw widgetNotFound();
  const listed = found.widget.allowedOrigins;
  // Deny by default: an empty list answers no website, not even the embedded page.
  const allowed = listed.includes(origin) || (listed.length > 0 && appOrigins(app, request).includes(origin));
  if (!allowed) throw originNotAllowed();
  reply.header('Access-Control-Allow-Origin', origin);
  const admitted = { ...found, origin };
  request.publicWidget = admitted;
  return admitted;
}

/** The answer's owner as the credits feature needs them: their staff role and their word balance. */
export interface WidgetOwner {
  staffRole: Actor['staffRole'];
  user: { userId: number; availableWords: number };
}

export async function widgetOwner(db: Db, userId: number): Promise<WidgetOwner | null> {
  const [row] = await db
    .select({ userId: users.userId, availableWords: users.availableWords, role: staff.role })
    .from(users)
    .leftJoin(staff, eq(staff.userId, users.userId))
    .where(eq(users.userId, userId))
    .limit(1);
  if (!row) return null;
  return { staffRole: (row.role as Actor['staffRole']) ?? null, user: { userId: row.userId, availableWords: row.availableWords } };
}

/**
 * The widget answers only while the feature is on, its owner has access (credits requireAccess: staff or a purchase giving access
 * now) and may still use its avatar (their own, or still public); else it is unavailable (403).
 */
export async function requireAnsweringOwner(ctx: AppContext, admitted: PublicWidget): Promise<WidgetOwner> {
  const { db } = ctx;
  // With chatwidget_enabled off the feature does not exist: its widgets are unavailable too.
  await requireFeature(ctx, 'chatwidget_enabled').catch((err: unknown) => {
    throw err instanceof AppError && err.status === 404 ? widgetUnavailable() : err;
  });
  const owner = await widgetOwner(db, admitted.widget.userId);
  if (!owner || !avatarUsableBy(admitted.avatar, owner.user.userId)) throw widgetUnavailable();
  try {
    await requireAccess(db, owner as unknown as Pick<Actor, 'staffRole' | 'user'>);
  } catch (err) {
    if (err instanceof AppError && err.status === 412) throw widgetUnavailable();
    throw err;
  }
  return owner;
}

/** The visitor's address, hashed with the app secret (the owner's session list never shows addresses). */
export const ipHashOf = (appSecret: string, ip: string) => createHash('sha256').update(`pluma:widget-ip:${appSecret}:${ip}`).digest('hex');

/**
 * The rate limits (docs/decisions.md "Chat widgets"), per minute. A visitor's session and address keep one
 * person from spending the owner's words; the widget's own cap bounds what all its visitors together can
 * spend in a minute.
 */
export const WIDGET_RATE_LIMITS = {
  startPerAddress: 30,
  startPerWidget: 600,
  messagesPerSession: 12,
  messagesPerAddress: 30,
  messagesPerWidget: 120,
  /** The visitor's Stop (it costs nothing; bounds a script hammering it). */
  stopsPerSession: 30,
} as const;

type Limiter = (request: FastifyRequest) => Promise<void>;

/** A limiter of `max` requests a minute, keyed by `key` (namespaced: the stores are shared). */
export function limiter(app: FastifyInstance, name: string, max: number, key: (request: FastifyRequest) => string): Limiter {
  const check = app.createRateLimit({ max, timeWindow: 60_000, keyGenerator: (request) => `widget:${name}:${key(request)}` });
  return async (request) => {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) throw widgetRateLimited();
  };
}
