// The conversation screen's message state (spec part 2 §4 "Chat"; DESIGN.md §4 real-time): history pages,
// answers streaming in over the socket, and their end or failure. Pure, so every rule is unit-tested;
// use-chat.ts feeds it from HTTP and the socket.
import type { MessageStreamEndPayload, MessageStreamPayload, ProviderErrorPayload, WebSearchPayload } from '@pluma/common/events';
import type { CreateMessageResponse, Message, MessagePage, MessageStatus, STOPPED_FINISH_REASON } from '@pluma/common/messages-api';

/**
 * How an answer being written gets its text.
 * - 'live': this screen saw its generation start, so each `message_stream` delta is appended.
 * - 'snapshot': it was already being written when the screen loaded it (a reload mid-stream). Deltas
 *   carry only the text added since the previous frame, so they cannot be joined to the saved text
 *   without a gap; its text comes from the saved copy (polled) and then the final `message_stream_end`.
 */
export type Tracking = 'live' | 'snapshot';

export interface ChatMessage extends Message {
  tracking: Tracking;
  /** The provider's error text shown under a failed answer (spec part 2 §8). */
  errorText: string | null;
  /** searchOnInternet: the web-search step this answer waits on ('searching', 'reading' N pages), from `web_search`. */
  webStep?: { step: 'searching' | 'reading'; count?: number };
}

export interface ChatState {
  conversationId: number;
  /** Oldest first (message ids grow with time). */
  messages: ChatMessage[];
  /** Cursor for the next older page; null when the first message is loaded. */
  olderCursor: number | null;
  /** The newest page has arrived. */
  loaded: boolean;
}

export type ChatAction =
  /** The newest page (first load, a poll, or a resync after the socket reconnected). */
  | { type: 'latestPage'; page: MessagePage }
  /** An older page, loaded by scrolling to the top. */
  | { type: 'olderPage'; page: MessagePage }
  /** POST /messages answered: the prompt and its (pending) answer. */
  | { type: 'sent'; response: CreateMessageResponse }
  /**
   * Continue was clicked: the answer is written on from where it stopped; with `clear` (Retry of a failed
   * or interrupted answer) it is written again from the start in the same row.
   */
  | { type: 'continueStarted'; messageId: number; clear?: boolean }
  /** A message as the server has it now (continue refused, edit or favorite saved). */
  | { type: 'replaced'; message: Message }
  | { type: 'delta'; payload: MessageStreamPayload }
  | { type: 'streamEnd'; payload: MessageStreamEndPayload }
  /** `message`: an answer generated without streaming. */
  | { type: 'finished'; message: Message }
  | { type: 'providerError'; payload: ProviderErrorPayload; text: string }
  /** A step of an answer's web search (issue 32): shown until it ends with its sources, or failed. */
  | { type: 'webSearch'; payload: WebSearchPayload; early?: boolean }
  /** The socket reconnected: frames may have been lost, so live answers fall back to snapshots. */
  | { type: 'framesLost' };

export const ACTIVE_STATUSES: readonly MessageStatus[] = ['pending', 'streaming'];

type Abilities = Message['abilities'];

// The screen shows exactly a message's abilities (DESIGN.md §7). These are the server's
// (server/src/features/messages/policy.ts stateAllows) for the states the screen enters before the
// server's copy arrives; that copy then replaces them.
/** An answer being written: Favorite and Delete only. */
const WRITING_ABILITIES: Abilities = { edit: false, favorite: true, delete: true, share: false, continue: false, retry: false, regenerate: false };

/** An answer the provider failed: written again in place, edited, shared once it has text. */
const failedAbilities = (content: string | null): Abilities => ({ ...WRITING_ABILITIES, edit: true, share: !!content?.trim(), retry: true });

export function isActive(message: Pick<Message, 'status'>): boolean {
  return ACTIVE_STATUSES.includes(message.status);
}

/** spec part 2 §4: stream chunks with empty content or containing the text "undefined" are ignored. */
export function isUsefulChunk(content: unknown): content is string {
  return typeof content === 'string' && content !== '' && !content.includes('undefined');
}

export function initialChatState(conversationId: number): ChatState {
  return { conversationId, messages: [], olderCursor: null, loaded: false };
}

function toChat(message: Message, tracking: Tracking, errorText: string | null = null): ChatMessage {
  return { ...message, tracking, errorText };
}

/** Inserts or replaces by message_id, keeping the list ordered by id; untouched messages keep their identity. */
function upsert(messages: ChatMessage[], next: ChatMessage): ChatMessage[] {
  const index = messages.findIndex((m) => m.message_id === next.message_id);
  if (index >= 0) {
    const copy = messages.slice();
    copy[index] = next;
    return copy;
  }
  let at = messages.length;
  while (at > 0 && messages[at - 1].message_id > next.message_id) at--;
  return [...messages.slice(0, at), next, ...messages.slice(at)];
}

function find(state: ChatState, messageId: number): ChatMessage | undefined {
  return state.messages.find((m) => m.message_id === messageId);
}

/**
 * Merges the server's copy of a message into what the screen has. A live answer keeps its own text
 * (it is ahead of the copy saved every half second) until the server's copy is final.
 */
function mergeServerCopy(current: ChatMessage | undefined, server: Message): ChatMessage {
  if (!current) return toChat(server, 'snapshot');
  if (current.tracking === 'live' && isActive(current) && isActive(server)) return current;
  const errorText = server.status === 'failed' ? current.errorText : null;
  if (sameMessage(current, server) && current.errorText === errorText) return current;
  return toChat(server, current.tracking, errorText);
}

function sameMessage(a: Message, b: Message): boolean {
  return a.content === b.content && a.status === b.status && a.favorite === b.favorite && a.finish_reason === b.finish_reason && a.updatedAt === b.updatedAt;
}

function mergePage(state: ChatState, page: MessagePage): ChatMessage[] {
  let messages = state.messages;
  for (const server of page.messages) {
    if (server.conversation_id !== state.conversationId) continue;
    const current = messages.find((m) => m.message_id === server.message_id);
    const merged = mergeServerCopy(current, server);
    if (merged !== current) messages = upsert(messages, merged);
  }
  return messages;
}

/** A message row the screen has not seen yet, started by its first delta (the POST may answer later). */
function placeholderAnswer(payload: MessageStreamPayload): ChatMessage {
  const now = new Date().toISOString();
  return {
    message_id: payload.message_id,
    conversation_id: payload.conversation_id,
    role: 'assistant',
    content: '',
    prompt: null,
    model: null,
    favorite: false,
    finish_reason: null,
    status: 'streaming',
    abilities: WRITING_ABILITIES,
    error_code: null,
    message_type_id: 1,
    user_message_id: null,
    avatar_id: null,
    organization_id: null,
    isThread: false,
    deleteUserMsg: false,
    saveOnConversation: true,
    words_charged: null,
    citations: [],
    createdAt: now,
    updatedAt: now,
    tracking: 'live',
    errorText: null,
  };
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'latestPage': {
      const messages = mergePage(state, action.page);
      // The first load sets where older pages start; later polls leave the cursor alone.
      const olderCursor = state.loaded ? state.olderCursor : action.page.next_cursor;
      return { ...state, messages, olderCursor, loaded: true };
    }
    case 'olderPage': {
      const messages = mergePage(state, action.page);
      return { ...state, messages, olderCursor: action.page.next_cursor };
    }
    case 'sent': {
      const { user_message: user, assistant_message: answer } = action.response;
      if (answer.conversation_id !== state.conversationId) return state;
      let messages = state.messages;
      if (user && !find(state, user.message_id)) messages = upsert(messages, toChat(user, 'live'));
      const current = messages.find((m) => m.message_id === answer.message_id);
      if (!current) {
        messages = upsert(messages, toChat(answer, 'live'));
      } else if (isActive(current)) {
        // Deltas arrived before the POST answered (or a Continue is under way): they are ahead of its row.
        messages = upsert(messages, { ...toChat(answer, 'live'), content: current.content ?? answer.content, status: current.status });
      }
      // Otherwise the answer already ended before the POST answered: the final copy stays.
      return { ...state, messages };
    }
    case 'continueStarted': {
      const current = find(state, action.messageId);
      if (!current) return state;
      const restarted: ChatMessage = {
        ...current,
        status: 'pending',
        finish_reason: null,
        error_code: null,
        abilities: WRITING_ABILITIES,
        tracking: 'live',
        errorText: null,
      };
      if (action.clear) restarted.content = null;
      return { ...state, messages: upsert(state.messages, restarted) };
    }
    case 'replaced': {
      if (action.message.conversation_id !== state.conversationId) return state;
      const current = find(state, action.message.message_id);
      // A favorite saved while the answer streams: the row's text is behind the frames shown.
      if (current && current.tracking === 'live' && isActive(current) && isActive(action.message)) {
        return { ...state, messages: upsert(state.messages, { ...current, favorite: action.message.favorite }) };
      }
      return { ...state, messages: upsert(state.messages, toChat(action.message, current?.tracking ?? 'live', current?.errorText ?? null)) };
    }
    case 'delta': {
      const { payload } = action;
      if (payload.conversation_id !== state.conversationId || !isUsefulChunk(payload.content)) return state;
      const current = find(state, payload.message_id);
      if (!current) {
        // Its start is this frame: the first delta of an answer created after the screen loaded.
        return { ...state, messages: upsert(state.messages, { ...placeholderAnswer(payload), content: payload.content }) };
      }
      if (!isActive(current)) return state;
      if (current.tracking === 'snapshot') return current.status === 'streaming' ? state : { ...state, messages: upsert(state.messages, { ...current, status: 'streaming' }) };
      return { ...state, messages: upsert(state.messages, { ...current, content: (current.content ?? '') + payload.content, status: 'streaming' }) };
    }
    case 'streamEnd':
      return finish(state, action.payload.message, action.payload.content);
    case 'finished':
      return finish(state, action.message, action.message.content ?? '');
    case 'providerError': {
      const { payload } = action;
      if (payload.message_id === null || payload.conversation_id !== state.conversationId) return state;
      const current = find(state, payload.message_id);
      if (!current) return state;
      // The partial text stays visible (DESIGN.md §6: an error never wipes a half-written answer).
      const failed: ChatMessage = {
        ...current,
        status: 'failed',
        finish_reason: 'error',
        error_code: payload.code ?? `http_${payload.status}`,
        abilities: failedAbilities(current.content),
        errorText: action.text,
      };
      return { ...state, messages: upsert(state.messages, failed) };
    }
    case 'webSearch': {
      const { payload } = action;
      const current = payload.conversation_id === state.conversationId ? find(state, payload.message_id) : undefined;
      // `early`: the step assumed when the prompt was sent; a step or an end already seen stays.
      if (!current || (action.early && (current.webStep || current.sources || !isActive(current)))) return state;
      const next: ChatMessage =
        payload.step === 'done' || payload.step === 'failed'
          ? { ...current, webStep: undefined, sources: payload.sources ?? [], web_search_failed: payload.step === 'failed' || undefined }
          : { ...current, webStep: { step: payload.step, count: payload.count } };
      return { ...state, messages: upsert(state.messages, next) };
    }
    case 'framesLost': {
      const messages = state.messages.map((m) => (m.tracking === 'live' && isActive(m) ? { ...m, tracking: 'snapshot' as const } : m));
      return { ...state, messages };
    }
  }
}

/** `message_stream_end` / `message`: the final content replaces whatever was shown. */
function finish(state: ChatState, message: Message, content: string): ChatState {
  if (message.conversation_id !== state.conversationId) return state;
  const current = find(state, message.message_id);
  const final = toChat({ ...message, content }, current?.tracking ?? 'live');
  const messages = upsert(state.messages, final);
  // deleteUserMsg (spec part 2 §3): the server removed the prompt once its answer was done.
  const removed = message.deleteUserMsg && message.status === 'done' ? message.user_message_id : null;
  return { ...state, messages: removed === null ? messages : messages.filter((m) => m.message_id !== removed) };
}

/** The newest answer to a prompt (Regenerate after editing it). */
export function answerTo(state: Pick<ChatState, 'messages'>, promptId: number): ChatMessage | undefined {
  return state.messages.findLast((m) => m.role === 'assistant' && m.user_message_id === promptId);
}

/** An answer is being written: sending is blocked (spec part 2 §4: the generating flag blocks sending). */
export function isGenerating(state: ChatState): boolean {
  return state.messages.some(isActive);
}

/** The answers being written now (those Stop ends), oldest first. */
export function activeAnswers(state: Pick<ChatState, 'messages'>): ChatMessage[] {
  return state.messages.filter((m) => m.role === 'assistant' && isActive(m));
}

/** The finish reason of an answer the user stopped (common/messages-api.ts STOPPED_FINISH_REASON). */
export const STOPPED: typeof STOPPED_FINISH_REASON = 'stopped';

/** An answer the user stopped: its text so far is kept, marked as stopped, and can be continued. */
export function isStopped(message: Pick<Message, 'status' | 'finish_reason'>): boolean {
  return message.status === 'done' && message.finish_reason === STOPPED;
}

/** Answers whose text can only be refreshed from the server (loaded mid-stream, or frames lost). */
export function hasSnapshotInProgress(state: ChatState): boolean {
  return state.messages.some((m) => m.tracking === 'snapshot' && isActive(m));
}
