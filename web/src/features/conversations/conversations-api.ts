// Conversation calls and their queries (spec part 2 §7 "Conversations"). Every list is the signed-in
// user's own; the API client adds organization_id while an organization is active.
import type { ConversationSortKey } from '@pluma/common/constants';
import type {
  Conversation,
  ConversationList,
  ConversationTags,
  CreateConversationRequest,
  UpdateConversationRequest,
} from '@pluma/common/conversations';
import { CONVERSATIONS_PAGE_SIZE } from '@pluma/common/constants';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/instance';

export const CONVERSATIONS_KEY = ['conversations'] as const;
/** spec part 2 §2: the recent-conversations preview shows 5. */
export const RECENT_PREVIEW_SIZE = 5;

export interface ConversationFilters {
  query: string;
  sortBy: ConversationSortKey;
  archived: boolean;
  /** Only conversations with this tag (the tag view). */
  tag: string | null;
}

export const conversationKey = (id: number) => [...CONVERSATIONS_KEY, 'detail', id] as const;

export function fetchConversations(filters: ConversationFilters, cursor: string | null, limit = CONVERSATIONS_PAGE_SIZE, signal?: AbortSignal) {
  return api.get<ConversationList>('/conversations', {
    query: {
      query: filters.query || undefined,
      sortBy: filters.sortBy,
      archived: filters.archived,
      tags: filters.tag ?? undefined,
      limit,
      cursor: cursor ?? undefined,
    },
    signal,
  });
}

/** Cards, a page at a time (keyset cursor), for "Load more". */
export function useConversationList(filters: ConversationFilters) {
  return useInfiniteQuery({
    queryKey: [...CONVERSATIONS_KEY, 'list', filters],
    queryFn: ({ pageParam, signal }) => fetchConversations(filters, pageParam, CONVERSATIONS_PAGE_SIZE, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    // Typing a search keeps the previous cards on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}

export function useRecentConversations(enabled: boolean) {
  return useQuery({
    queryKey: [...CONVERSATIONS_KEY, 'recent'],
    queryFn: ({ signal }) =>
      fetchConversations({ query: '', sortBy: 'updatedAt_desc', archived: false, tag: null }, null, RECENT_PREVIEW_SIZE, signal),
    enabled,
  });
}

export function useConversationTags(archived: boolean) {
  return useQuery({
    queryKey: [...CONVERSATIONS_KEY, 'tags', archived],
    queryFn: ({ signal }) => api.get<ConversationTags>('/conversations/tags', { query: { archived }, signal }),
  });
}

export function useConversation(id: number) {
  return useQuery({
    queryKey: conversationKey(id),
    queryFn: ({ signal }) => api.get<Conversation>(`/conversations/conversation/${id}`, { signal }),
    retry: false,
  });
}

/** After any change the lists, tags and the open conversation are read again. */
function useConversationMutation<TInput>(mutationFn: (input: TInput) => Promise<Conversation | void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (result) => {
      if (result) queryClient.setQueryData(conversationKey(result.conversation_id), result);
      return queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
    },
  });
}

export const useCreateConversation = () => useConversationMutation((input: CreateConversationRequest) => api.post<Conversation>('/conversations', input));

export const useUpdateConversation = () => useConversationMutation((input: UpdateConversationRequest) => api.put<Conversation>('/conversations', input));

export function useDeleteConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ deleted: true }>(`/conversations/${id}`),
    // The open conversation's own query is only marked stale: refetching it now would flash "not found"
    // on the screen being left; a later visit refetches it and shows the 404.
    onSuccess: (_result, id) => {
      void queryClient.invalidateQueries({ queryKey: conversationKey(id), refetchType: 'none' });
      return queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY, predicate: (query) => query.queryKey[1] !== 'detail' });
    },
  });
}

/** POST /conversations/file/{id} (multipart 'file'): attaches a file to the conversation. */
export function useUploadConversationFile() {
  return useConversationMutation(({ id, file }: { id: number; file: File }) => {
    const form = new FormData();
    form.append('file', file);
    return api.post<Conversation>(`/conversations/file/${id}`, form);
  });
}
