// Socket.IO events (spec part 2 §7 "Real-time channel"; DESIGN.md §4): names exactly as the spec has them.
// Every event goes to room user-{user_id} only; frames carry deltas, never the text so far.
import type { Message, WebSource } from './messages-api';

export const SocketEvents = {
  output: 'output',
  message: 'message',
  messageStream: 'message_stream',
  messageStreamEnd: 'message_stream_end',
  messageStreamEnhance: 'message_stream_enhance',
  messageStreamEnhanceEnd: 'message_stream_enhance_end',
  threadMessages: 'thread_messages',
  superFetchOutputs: 'super_fetch_outputs',
  documentOutput: 'document_output',
  documentAvatar: 'document_avatar',
  error: 'error',
  openaiError: 'openai-error',
  anthropicError: 'anthropic-error',
  /** Not in the spec's list: the steps of a web search before an answer is written (issue 32). */
  webSearch: 'web_search',
} as const;
export type SocketEventName = (typeof SocketEvents)[keyof typeof SocketEvents];

/** How often the web reads an answer from the server while its frames cannot be used (a reload mid-stream) or have stopped arriving. */
export const STREAM_POLL_MS = 1500;

/** At most ~60 frames per second per generation (frames are batched; a flush every ≥16 ms). */
export const STREAM_FRAME_INTERVAL_MS = 16;

/** `message_stream`: only the text added since the previous frame. */
export interface MessageStreamPayload {
  message_id: number;
  conversation_id: number;
  /** The delta. Clients ignore empty chunks (spec part 2 §4). */
  content: string;
  stream: true;
  isThread: false;
}

/** `message_stream_end`: the final content of the whole message, and the saved row. */
export interface MessageStreamEndPayload {
  message_id: number;
  conversation_id: number;
  content: string;
  finish_reason: string | null;
  stream: true;
  isThread: false;
  message: Message;
}

/** `message`: a finished answer generated with stream false. */
export interface MessagePayload {
  message_id: number;
  conversation_id: number;
  content: string;
  stream: false;
  isThread: false;
  message: Message;
}

/** `message_stream_enhance`: a delta of an enhanced prompt (never saved as a message). */
export interface MessageStreamEnhancePayload {
  enhance_id: string;
  conversation_id: number;
  content: string;
  stream: true;
  isThread: false;
}

/** `message_stream_enhance_end`: the whole enhanced prompt; it replaces the prompt in the UI. */
export interface MessageStreamEnhanceEndPayload {
  enhance_id: string;
  conversation_id: number;
  content: string;
  stream: true;
  isThread: false;
}

/** `openai-error` / `anthropic-error` (spec part 2 §8): the provider's status, message and code. */
export interface ProviderErrorPayload {
  status: number;
  message: string;
  code: string | null;
  provider: string;
  /** The failed answer (its partial text is kept), or null for a prompt enhancement. */
  message_id: number | null;
  conversation_id: number;
  enhance_id?: string;
}

/**
 * `web_search`: a step of the web search an answer waits for (searchOnInternet). 'searching', then
 * 'reading' (`count` pages), then 'done' (`sources`, numbered as the answer cites them) or 'failed' (the
 * answer is written without the web).
 */
export interface WebSearchPayload {
  message_id: number;
  conversation_id: number;
  step: 'searching' | 'reading' | 'done' | 'failed';
  count?: number;
  sources?: WebSource[];
}

export interface ServerToClientEvents {
  web_search: (payload: WebSearchPayload) => void;
  message_stream: (payload: MessageStreamPayload) => void;
  message_stream_end: (payload: MessageStreamEndPayload) => void;
  message: (payload: MessagePayload) => void;
  message_stream_enhance: (payload: MessageStreamEnhancePayload) => void;
  message_stream_enhance_end: (payload: MessageStreamEnhanceEndPayload) => void;
  'openai-error': (payload: ProviderErrorPayload) => void;
  'anthropic-error': (payload: ProviderErrorPayload) => void;
}
