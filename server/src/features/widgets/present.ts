// The JSON of a widget for its owner (contract B `Widget`), with the actor's abilities, of its visitor
// conversations (contract B "Owner API"), and what a visitor's page gets (contract B "Public API").
import type { Widget, WidgetMessage, WidgetSessionSummary, WidgetStartResponse, WidgetVisitorMessage } from '@pluma/common/widgets';
import { fileSrc } from '@pluma/common/files';
import type { Actor } from '../../platform/auth/actor';
import { widgetPolicy } from './policy';
import type { PublicWidget } from './public-gate';
import type { VisitorSessionStart } from './public-service';
import type { WidgetListRow, WidgetMessageRow, WidgetSessionRow } from './service';

/**
 * The button image as an absolute URL: the snippet and the widget run on other websites, so a path of this
 * app would point at theirs.
 */
export function imageUrlOf(baseUrl: string, image: WidgetListRow['image']): string | null {
  return image ? `${baseUrl}${fileSrc(image)}` : null;
}

export function presentWidget(actor: Actor, row: WidgetListRow, baseUrl: string): Widget {
  const w = row.widget;
  return {
    widget_id: w.widgetId,
    avatar_id: w.avatarId,
    avatar_name: row.avatarName,
    name: w.name,
    accent_color: w.accentColor,
    image_url: imageUrlOf(baseUrl, row.image),
    allowed_origins: w.allowedOrigins,
    enabled: w.enabled,
    public_key: w.publicKey,
    words_used: w.wordsUsed,
    sessions_count: row.sessionsCount,
    created_at: w.createdAt.toISOString(),
    updated_at: w.updatedAt.toISOString(),
    abilities: widgetPolicy.abilities(actor, w),
  };
}

export const presentWidgetSession = (s: WidgetSessionRow): WidgetSessionSummary => ({
  session_id: s.sessionId,
  origin: s.origin,
  started_at: s.startedAt.toISOString(),
  last_message_at: s.lastMessageAt?.toISOString() ?? null,
  messages_count: s.messagesCount,
  preview: s.preview ?? '',
});

export const presentWidgetMessage = (m: WidgetMessageRow): WidgetMessage => ({
  message_id: m.messageId,
  role: m.role as WidgetMessage['role'],
  content: m.content,
  status: m.status as WidgetMessage['status'],
  created_at: m.createdAt.toISOString(),
});

/** A message as the visitor sees it: no ids or times. */
export const visitorMessage = (m: { role: string; content: string; status: string }): WidgetVisitorMessage => ({
  role: m.role === 'assistant' ? 'assistant' : 'user',
  content: m.content,
  status: m.status as WidgetVisitorMessage['status'],
});

/** POST /start's answer: the tokens, the session, how the widget looks and the conversation so far. */
export function presentVisitorStart(admitted: PublicWidget, started: VisitorSessionStart, baseUrl: string): WidgetStartResponse {
  return {
    visitor_token: started.visitorToken,
    session_token: started.sessionToken,
    session: { session_id: started.session.sessionId, expires_at: started.session.expiresAt.toISOString() },
    widget: { name: admitted.widget.name, accent_color: admitted.widget.accentColor, image_url: imageUrlOf(baseUrl, admitted.image) },
    messages: started.messages.map(visitorMessage),
  };
}
