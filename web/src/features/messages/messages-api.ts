// Calls of the messages area (spec part 2 §7 "Messages"): the user's messages across conversations
// (GET /messages), sharing one as a public link (POST /messages/share/, DELETE /messages/share/{id})
// and the signed-out read of a shared link (GET /shared/{token}).
import type { BrowsedMessagePage, MessageShare, SharedMessage } from '@pluma/common/messages-api';
import { MESSAGE_LIST_PAGE_SIZE } from '@pluma/common/constants';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';

export const BROWSE_MESSAGES_KEY = ['messages', 'browse'] as const;

export interface BrowseFilters {
  /** Favorites only (the default view) or every message. */
  favoritesOnly: boolean;
  query: string;
}

export function fetchBrowsedMessages(filters: BrowseFilters, cursor: number | null, signal?: AbortSignal) {
  return api.get<BrowsedMessagePage>('/messages', {
    query: {
      favorite: filters.favoritesOnly ? true : undefined,
      query: filters.query || undefined,
      cursor: cursor ?? undefined,
      limit: MESSAGE_LIST_PAGE_SIZE,
    },
    signal,
  });
}

/** A page at a time (message_id cursor), for "Load more". */
export function useBrowsedMessages(filters: BrowseFilters) {
  return useInfiniteQuery({
    queryKey: [...BROWSE_MESSAGES_KEY, filters],
    queryFn: ({ pageParam, signal }) => fetchBrowsedMessages(filters, pageParam, signal),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_cursor,
    // Typing a search keeps the previous items on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}

/** Creates the message's link, or returns its active one. */
export const shareMessage = (messageId: number) => api.post<MessageShare>('/messages/share', { message_id: messageId });

export const revokeShare = (shareId: number) => api.delete<{ revoked: true }>(`/messages/share/${shareId}`);

/** The public read: no session needed (none is sent, so a signed-in visitor reads it the same way). */
export const fetchSharedMessage = (token: string, signal?: AbortSignal) =>
  api.get<SharedMessage>(`/shared/${encodeURIComponent(token)}`, { auth: false, signal });

/** The link to give out: the public page on this app's own origin. */
export const shareUrl = (share: MessageShare) => `${window.location.origin}${share.path}`;
