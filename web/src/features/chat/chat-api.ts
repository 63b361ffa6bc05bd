// Chat calls (spec part 2 §7 "Messages"): pages of history, sending, continuing, stopping, editing, favorites and exports.
import type { CreateMessageRequest, CreateMessageResponse, EnhanceResponse, Message, MessagePage, UpdateMessageRequest, ExportMessageRequest } from '@pluma/common/messages-api';
import { MESSAGES_PAGE_SIZE } from '@pluma/common/constants';
import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../api/instance';

/** Newest first; `cursor` (a message_id) asks for the messages before it. */
export const fetchMessagePage = (conversationId: number, cursor?: number | null, signal?: AbortSignal, limit: number = MESSAGES_PAGE_SIZE) =>
  api.get<MessagePage>(`/messages/conversation/${conversationId}`, { query: { cursor: cursor ?? undefined, limit }, signal });

/** spec part 2 §2, §9: an avatar's chat shows its last 10 messages and loads 10 more per scroll. */
export const AVATAR_PAGE_SIZE = 10;

/** The newest `limit` messages of a page (newest first), its cursor moved to the oldest kept. */
export function newestOf(page: MessagePage, limit: number): MessagePage {
  if (page.messages.length <= limit) return page;
  const messages = page.messages.slice(0, limit);
  return { messages, next_cursor: messages[messages.length - 1].message_id };
}

/** How long a prefetched first page may wait for its screen: older, the screen asks again. */
const PREFETCH_FRESH_MS = 10_000;
/** Prefetched pages by conversation, per app (its query client): an app rendered by a test starts with none. */
const prefetchedPages = new WeakMap<QueryClient, Map<number, { page: Promise<MessagePage>; at: number }>>();

function prefetchedOf(queryClient: QueryClient) {
  let pages = prefetchedPages.get(queryClient);
  if (!pages) {
    pages = new Map();
    prefetchedPages.set(queryClient, pages);
  }
  return pages;
}

/**
 * Starts loading a conversation's newest page before its screen asks for it: ConversationPage asks
 * alongside the conversation itself instead of after it (one round trip less before the history shows).
 */
export function prefetchLatestPage(queryClient: QueryClient, conversationId: number): void {
  const page = fetchMessagePage(conversationId);
  // The screen that takes the page sees its error; one never taken must not be reported as unhandled.
  page.catch(() => undefined);
  prefetchedOf(queryClient).set(conversationId, { page, at: Date.now() });
}

/** The newest page: the prefetched one while fresh (taken once; cut to `limit`), else a new request. */
export function fetchLatestPage(
  queryClient: QueryClient,
  conversationId: number,
  signal?: AbortSignal,
  limit: number = MESSAGES_PAGE_SIZE,
): Promise<MessagePage> {
  const prefetched = prefetchedOf(queryClient);
  const entry = prefetched.get(conversationId);
  prefetched.delete(conversationId);
  if (entry && Date.now() - entry.at < PREFETCH_FRESH_MS) return entry.page.then((page) => newestOf(page, limit));
  return fetchMessagePage(conversationId, null, signal, limit);
}

/** A file's reading state (GET /api/files/{id}/index-status): the attachment chips poll it while reading. */
export interface FileIndexStatus {
  status: 'none' | 'queued' | 'indexing' | 'ready' | 'failed';
  failure_reason: string | null;
}
export const fileIndexStatus = (fileId: number) => api.get<FileIndexStatus>(`/files/${fileId}/index-status`);

export const sendMessage = (request: CreateMessageRequest) => api.post<CreateMessageResponse>('/messages', { stream: true, ...request });

/**
 * Continue an answer cut off or interrupted, or (`regenerate`) write it again: a failed or interrupted
 * answer is rewritten in its own row, a finished one gets a new answer to its prompt as it is now.
 */
export const answerAgain = (conversationId: number, messageId: number, options: { regenerate?: boolean } = {}) =>
  api.post<CreateMessageResponse>('/messages', {
    conversation_id: conversationId,
    message_id: messageId,
    stream: true,
    ...(options.regenerate ? { regenerate: true } : {}),
  });

/**
 * Stop generating (issue 30 item 1): the answer ends with the text written so far (finish_reason 'stopped').
 * Returns the answer: final when the server could stop it at once; still active when it runs on another
 * node (its end then arrives over the socket). An answer that had ended comes back as it is.
 */
export const stopAnswer = (messageId: number) => api.post<Message>(`/messages/${messageId}/stop`);

/** spec part 2 §7: prompt enhancement is a message post with enhance true and stream true. */
export const enhancePrompt = (conversationId: number, content: string) =>
  api.post<EnhanceResponse>('/messages', { conversation_id: conversationId, content, enhance: true, stream: true });

export const updateMessage = (changes: UpdateMessageRequest) => api.put<Message>('/messages', changes);

export type ExportFormat = 'pdf' | 'word';

/** POST /messages/pdf | /messages/word {text} → the file. */
/** `sources`: an answer's web sources (issue 32), printed after the text under `sources_heading`. */
export const exportMessage = (format: ExportFormat, text: string, web?: Pick<ExportMessageRequest, 'sources' | 'sources_heading'>) =>
  api.post<Blob>(`/messages/${format}`, { text, ...(web?.sources?.length ? web : {}) }, { responseType: 'blob' });
