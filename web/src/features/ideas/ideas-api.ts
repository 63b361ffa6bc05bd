// The topics and hashtags calls (spec part 2 §2 "Topics and hashtags"), in the active organization (the API
// client appends its organization_id).
import type { AvatarList } from '@pluma/common/avatars';
import type { Idea, IdeaKind, IdeaList } from '@pluma/common/ideas';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';

export const IDEAS_KEY = ['ideas'] as const;
export const ideasKey = (kind: IdeaKind) => [...IDEAS_KEY, kind] as const;

export function useIdeaHistory(kind: IdeaKind, page: number) {
  return useQuery({
    queryKey: [...ideasKey(kind), page],
    queryFn: () => api.get<IdeaList>(`/ideas/${kind}`, { query: { page } }),
    placeholderData: keepPreviousData,
  });
}

/** The avatars the user may pick as the ideas' voice: their own in this context. */
export function useOwnAvatars() {
  return useQuery({ queryKey: ['ideas-avatars'], queryFn: () => api.get<AvatarList>('/avatars', { query: { limit: 100 } }) });
}

/** One generation; aborting `signal` is the user's Stop (the server ends the provider call with the request). */
export const generateIdeas = (kind: IdeaKind, body: { subject: string; count: number; avatar_id: number | null }, signal?: AbortSignal) =>
  api.post<Idea>(`/ideas/${kind}`, body, { signal });
export const deleteIdea = (ideaId: number) => api.delete<{ deleted: true }>(`/ideas/${ideaId}`);
