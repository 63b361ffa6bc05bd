// Chat widgets (spec part 2 §2 "Chat widget generator", §3 "Widget config", §5; issue 15 items 3-4):
// requests and responses of the owner API /api/widgets and the public API /api/widget/{publicKey}/…
// (docs/briefs contract B). The spec's snippet carried the user id; ours carries only a public key that
// the owner can rotate, and the widget answers only on the websites the owner lists (deny by default).
import { z } from 'zod';
import { LANGUAGES } from './constants';
import { id, idParam, text } from './schema-kit';

export const WIDGET_NAME_MAX = 100;
export const WIDGET_ORIGINS_MAX = 20;
export const WIDGET_ORIGIN_MAX_LENGTH = 300;
/** spec §3/§10: 'Default widget accent #ff0000'. */
export const DEFAULT_WIDGET_ACCENT = '#ff0000';
export const WIDGET_MESSAGE_MAX = 2_000;
export const WIDGET_SESSIONS_PAGE_SIZE = 20;
/** The visitor token lives 30 minutes; the session token resumes a conversation for 7 days. */
export const VISITOR_TOKEN_TTL_MS = 30 * 60 * 1000;
export const WIDGET_SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** 'pw_' + 32 url-safe characters. */
export const WIDGET_PUBLIC_KEY_PATTERN = /^pw_[A-Za-z0-9_-]{32}$/;
export const WIDGET_SESSION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A CSS hex colour: #rgb or #rrggbb (stored lower case, #rrggbb). */
export const WIDGET_ACCENT_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** '#F00' → '#ff0000'; '#AbCdEf' → '#abcdef'. Assumes WIDGET_ACCENT_PATTERN matched. */
export function normalizeAccent(value: string): string {
  const hex = value.slice(1).toLowerCase();
  return '#' + (hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex);
}

/**
 * One allowed website as an origin ('https://Shop.example.com/' → 'https://shop.example.com'), or null when it
 * is not scheme://host[:port] (http or https, no user, path, query or fragment). The public API compares the
 * request's Origin header with these exactly.
 */
export function toWidgetOrigin(value: string): string | null {
  const candidate = value.trim();
  if (candidate.length > WIDGET_ORIGIN_MAX_LENGTH) return null;
  if (!/^https?:\/\/[^/?#\s]+\/?$/i.test(candidate)) return null;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
  return url.origin;
}

const widgetOrigin = text()
  .refine((value) => toWidgetOrigin(value) !== null, { error: 'widget_origin_invalid' })
  .transform((value) => toWidgetOrigin(value) ?? value);

const widgetOrigins = z
  .array(widgetOrigin, { error: 'widget_origins_invalid' })
  .max(WIDGET_ORIGINS_MAX, { error: 'widget_origins_too_many' })
  .transform((origins) => [...new Set(origins)]);

const widgetName = text({ error: 'widget_name_required' })
  .trim()
  .min(1, { error: 'widget_name_required' })
  .max(WIDGET_NAME_MAX, { error: 'widget_name_too_long' });

/** Free text as in the spec, but it must be a CSS hex colour ('#ff0000' by default). */
const widgetAccent = text({ error: 'widget_accent_invalid' })
  .trim()
  .regex(WIDGET_ACCENT_PATTERN, { error: 'widget_accent_invalid' })
  .transform(normalizeAccent);

/**
 * POST /api/widgets (JSON, or the `widget` JSON part of a multipart body with an optional `image` file).
 * spec §5: the avatar first ('Please select an avatar'), then the name ('Please type in a name for your Widget').
 */
export const widgetInput = z.object({
  avatar_id: id({ error: 'widget_avatar_required' }),
  name: widgetName,
  accent_color: widgetAccent.default(DEFAULT_WIDGET_ACCENT),
  allowed_origins: widgetOrigins.default([]),
  enabled: z.boolean({ error: 'invalid_type' }).default(true),
});
export type WidgetInput = z.input<typeof widgetInput>;

/** PUT /api/widgets/{id}: the same fields, all optional; `remove_image` drops the button image. */
export const widgetUpdate = z.object({
  avatar_id: id({ error: 'widget_avatar_required' }).optional(),
  name: widgetName.optional(),
  accent_color: widgetAccent.optional(),
  allowed_origins: widgetOrigins.optional(),
  enabled: z.boolean({ error: 'invalid_type' }).optional(),
  remove_image: z.boolean({ error: 'invalid_type' }).optional(),
});
export type WidgetUpdate = z.input<typeof widgetUpdate>;

export const WIDGET_ACTIONS = ['update', 'delete'] as const;
export type WidgetAction = (typeof WIDGET_ACTIONS)[number];
export const widgetAbilities = z.object({ update: z.boolean(), delete: z.boolean() });

export const widget = z.object({
  widget_id: z.number(),
  avatar_id: z.number(),
  avatar_name: z.string(),
  name: z.string(),
  accent_color: z.string(),
  image_url: z.string().nullable(),
  allowed_origins: z.array(z.string()),
  enabled: z.boolean(),
  public_key: z.string(),
  words_used: z.number(),
  sessions_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  abilities: widgetAbilities,
});
export type Widget = z.infer<typeof widget>;

export const widgetList = z.object({ widgets: z.array(widget) });
export type WidgetList = z.infer<typeof widgetList>;

export const widgetIdParams = z.object({ id: idParam() });
export const widgetSessionParams = z.object({ id: idParam(), sessionId: idParam() });
export const widgetSessionsQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) });

export const WIDGET_MESSAGE_ROLES = ['user', 'assistant'] as const;
export type WidgetMessageRole = (typeof WIDGET_MESSAGE_ROLES)[number];
/** 'stopped': the visitor stopped the answer (issue 30 item 1); its text is kept. */
export const WIDGET_MESSAGE_STATUSES = ['streaming', 'done', 'failed', 'stopped'] as const;
export type WidgetMessageStatus = (typeof WIDGET_MESSAGE_STATUSES)[number];

export const widgetSessionSummary = z.object({
  session_id: z.number(),
  origin: z.string(),
  started_at: z.string(),
  last_message_at: z.string().nullable(),
  messages_count: z.number(),
  /** The start of the visitor's first message (at most 120 characters); '' before any. */
  preview: z.string(),
});
export type WidgetSessionSummary = z.infer<typeof widgetSessionSummary>;

export const widgetSessionList = z.object({ sessions: z.array(widgetSessionSummary), total: z.number(), page: z.number() });
export type WidgetSessionList = z.infer<typeof widgetSessionList>;

export const widgetMessage = z.object({
  message_id: z.number(),
  role: z.enum(WIDGET_MESSAGE_ROLES),
  content: z.string(),
  status: z.enum(WIDGET_MESSAGE_STATUSES),
  created_at: z.string(),
});
export type WidgetMessage = z.infer<typeof widgetMessage>;

export const widgetSessionDetail = z.object({ session: widgetSessionSummary, messages: z.array(widgetMessage) });
export type WidgetSessionDetail = z.infer<typeof widgetSessionDetail>;

// ---- Public API (no user auth; Origin checked on every request) ----

export const widgetLang = z.enum(LANGUAGES).optional().catch(undefined);

export const widgetPublicKeyParams = z.object({
  publicKey: z.string().regex(WIDGET_PUBLIC_KEY_PATTERN, { error: 'widget_not_found' }),
});

/** POST /api/widget/{publicKey}/start */
export const widgetStartRequest = z.object({
  session_token: z.string().regex(WIDGET_SESSION_TOKEN_PATTERN).optional().catch(undefined),
  new_chat: z.boolean().optional().catch(undefined),
  lang: widgetLang,
});
export type WidgetStartRequest = z.input<typeof widgetStartRequest>;

/** A message as the visitor's widget shows it (no ids: the visitor has no use for them). */
export const widgetVisitorMessage = z.object({
  role: z.enum(WIDGET_MESSAGE_ROLES),
  content: z.string(),
  status: z.enum(WIDGET_MESSAGE_STATUSES),
});
export type WidgetVisitorMessage = z.infer<typeof widgetVisitorMessage>;

export const widgetStartResponse = z.object({
  /** Bearer token for /messages: signed, 30 minutes, bound to the widget, its key version and the session. */
  visitor_token: z.string(),
  /** Opaque; send it back to /start to resume the conversation (7 days). */
  session_token: z.string(),
  session: z.object({ session_id: z.number(), expires_at: z.string() }),
  widget: z.object({ name: z.string(), accent_color: z.string(), image_url: z.string().nullable() }),
  messages: z.array(widgetVisitorMessage),
});
export type WidgetStartResponse = z.infer<typeof widgetStartResponse>;

/** POST /api/widget/{publicKey}/messages (Authorization: Bearer <visitor_token>). */
export const widgetSendRequest = z.object({
  content: text({ error: 'widget_message_required' })
    .trim()
    .min(1, { error: 'widget_message_required' })
    .max(WIDGET_MESSAGE_MAX, { error: 'widget_message_too_long' }),
  lang: widgetLang,
});
export type WidgetSendRequest = z.input<typeof widgetSendRequest>;

/**
 * POST /api/widget/{publicKey}/messages/stop (Authorization: Bearer <visitor_token>; issue 30 item 1): the
 * visitor's Stop ends their session's answer as it is ('stopped', its text kept); answers that answer. 404
 * when the session has none.
 */
export const widgetStopResponse = z.object({ message: widgetVisitorMessage });
export type WidgetStopResponse = z.infer<typeof widgetStopResponse>;

/**
 * The answer streams as server-sent events on the POST response:
 *   event: delta  data {"text": "..."}            (text since the previous frame)
 *   event: done   data {"message": WidgetVisitorMessage}
 *   event: error  data {"code", "message"}
 */
export const WIDGET_STREAM_EVENTS = { delta: 'delta', done: 'done', error: 'error' } as const;
export const widgetDeltaEvent = z.object({ text: z.string() });
export const widgetDoneEvent = z.object({ message: widgetVisitorMessage });
export const widgetErrorBody = z.object({ code: z.string(), message: z.string() });
export type WidgetErrorBody = z.infer<typeof widgetErrorBody>;

/** Error codes of the public API (JSON { code, message }, message in the request's language). */
export const WIDGET_ERROR_CODES = {
  originNotAllowed: 'origin_not_allowed',
  widgetNotFound: 'widget_not_found',
  widgetDisabled: 'widget_disabled',
  visitorTokenInvalid: 'visitor_token_invalid',
  rateLimited: 'rate_limited',
  widgetLimitReached: 'widget_limit_reached',
  /** The owner lost access (no subscription): the widget is unavailable too. */
  widgetUnavailable: 'widget_unavailable',
  validationError: 'validation_error',
  /** The AI failed mid-answer (sent as an `error` event). */
  answerFailed: 'widget_answer_failed',
} as const;
export type WidgetErrorCode = (typeof WIDGET_ERROR_CODES)[keyof typeof WIDGET_ERROR_CODES];

/** Static files of the widget (built by the web build into web/dist/widget/). */
export const WIDGET_SCRIPT_PATH = '/widget/pluma-widget.js';
export const WIDGET_STYLESHEET_PATH = '/widget/pluma-widget.css';
export const WIDGET_CONTAINER_ID = 'pluma-chat-widget';
export const CHAT_EMBEDDED_PATH = '/chat-embedded';
