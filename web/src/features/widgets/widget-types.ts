// The widget shapes of contract B, as the web uses them, until common/src/widgets.ts (WIDGET-SERVER) lands;
// then this file re-exports from '@pluma/common/widgets'.

export interface Widget {
  widget_id: number;
  avatar_id: number;
  avatar_name: string;
  name: string;
  accent_color: string;
  image_url: string | null;
  allowed_origins: string[];
  enabled: boolean;
  public_key: string;
  words_used: number;
  sessions_count: number;
  created_at: string;
  updated_at: string;
  abilities: { update: boolean; delete: boolean };
}

export interface WidgetInput {
  avatar_id: number;
  name: string;
  accent_color: string;
  allowed_origins: string[];
  enabled?: boolean;
}

export interface WidgetSession {
  session_id: number;
  origin: string;
  started_at: string;
  last_message_at: string | null;
  messages_count: number;
  preview: string;
}

export interface WidgetSessionList {
  sessions: WidgetSession[];
  total: number;
  page: number;
}

export interface WidgetMessage {
  message_id: number;
  role: 'user' | 'assistant';
  content: string;
  status: string;
  created_at: string;
}

export interface WidgetSessionDetail {
  session: WidgetSession;
  messages: WidgetMessage[];
}

export const WIDGET_NAME_MAX = 100;
export const WIDGET_DEFAULT_ACCENT = '#ff0000';
export const WIDGET_SESSIONS_PAGE = 20;
