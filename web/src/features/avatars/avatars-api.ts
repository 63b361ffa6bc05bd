// The avatars calls (spec part 2 §7 "Avatars") and the user's own AI key (/users/ai-key). Every call acts
// in the active organization (the API client appends its organization_id).
import type { AiKeyStatus, AiKeyTestResult, Avatar, AvatarFile, AvatarList, AvatarWithFiles, CreateAvatarRequest, UpdateAvatarRequest } from '@pluma/common/avatars';
import type { Lang } from '@pluma/common/constants';
import type { TemplateList } from '@pluma/common/templates';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/api-error';
import { api } from '../../api/instance';

export const AVATARS_KEY = ['avatars'] as const;
export const avatarKey = (avatarId: number) => [...AVATARS_KEY, 'one', avatarId] as const;
export const AI_KEY_KEY = ['users', 'ai-key'] as const;

export type AvatarListKind = 'mine' | 'community';

export function useAvatars(kind: AvatarListKind, query: string) {
  return useQuery({
    queryKey: [...AVATARS_KEY, 'list', kind, query],
    queryFn: () => api.get<AvatarList>(kind === 'mine' ? '/avatars' : '/avatars/public/all', { query: query ? { query } : {} }),
    placeholderData: keepPreviousData,
  });
}

/** While a file is being indexed or a refine runs, the page checks again this often (the truth is on the server). */
export const AVATAR_BUSY_POLL_MS = 2_000;

/** Whether something of the avatar is still in progress: a file's indexing, or a refine. */
export function avatarBusy(avatar: AvatarWithFiles | undefined): boolean {
  if (!avatar) return false;
  const refining = avatar.refine?.status === 'queued' || avatar.refine?.status === 'running';
  return refining || avatar.avatar_files.some((f) => f.index.status === 'queued' || f.index.status === 'indexing');
}

export function useAvatar(avatarId: number | null) {
  return useQuery({
    queryKey: avatarKey(avatarId ?? 0),
    queryFn: () => api.get<AvatarWithFiles>(`/avatars/${avatarId}`),
    enabled: avatarId !== null,
    // Live per-file status (queued → indexing n% → ready | failed) and the refine's end even without the socket.
    refetchInterval: (query) => (avatarBusy(query.state.data) ? AVATAR_BUSY_POLL_MS : false),
  });
}

export const createAvatar = (body: CreateAvatarRequest) => api.post<AvatarWithFiles>('/avatars', body);
export const updateAvatar = (body: UpdateAvatarRequest) => api.put<AvatarWithFiles>('/avatars', body);
export const deleteAvatar = (avatarId: number) => api.delete<{ deleted: true }>(`/avatars/${avatarId}`);
export const cloneAvatar = (avatarId: number, name: string) => api.post<AvatarWithFiles>('/avatars/clone', { avatar_id: avatarId, name });
/** spec part 2 §7 POST /avatars/refine: queued; the avatar's `refine` tells how it goes. */
export const refineAvatar = (avatarId: number) => api.post<AvatarWithFiles>('/avatars/refine', { avatar_id: avatarId });
/** POST /avatars/sync: every file of the avatar is indexed again. */
export const syncAvatar = (avatarId: number) => api.post<AvatarWithFiles>('/avatars/sync', { avatar_id: avatarId });
export const combineAvatars = (targetAvatarId: number, selectedAvatarId: number, name: string) =>
  api.post<AvatarWithFiles>('/avatars/combine', { target_avatar_id: targetAvatarId, selected_avatar_id: selectedAvatarId, name });

export function uploadAvatarFile(avatarId: number, file: File, editable: boolean) {
  const form = new FormData();
  form.append('file', file);
  return api.post<AvatarFile>(`/avatars/${editable ? 'add-editable-file' : 'add-file'}/${avatarId}`, form);
}
/** A new, blank editable .txt file named `name` (issue 30 item 20). */
export const createAvatarTextFile = (avatarId: number, name: string) => api.post<AvatarFile>(`/avatars/${avatarId}/files/text`, { name });
export const downloadAvatarFile = (avatarId: number, fileId: number) => api.get<Blob>(`/avatars/${avatarId}/files/${fileId}`, { responseType: 'blob' });
export const editAvatarFileText = (avatarId: number, fileId: number, content: string) =>
  api.put<AvatarFile>(`/avatars/${avatarId}/files/${fileId}/text`, { content });
export const retryAvatarFile = (avatarId: number, fileId: number) => api.post<AvatarFile>(`/avatars/${avatarId}/files/${fileId}/retry`);
export const deleteAvatarFile = (avatarId: number, fileId: number) => api.delete<{ deleted: true }>(`/avatars/${avatarId}/files/${fileId}`);

export function useAiKey() {
  return useQuery({ queryKey: AI_KEY_KEY, queryFn: () => api.get<AiKeyStatus>('/users/ai-key') });
}
export const saveAiKey = (apiKey: string) => api.put<AiKeyStatus>('/users/ai-key', { api_key: apiKey });
export const removeAiKey = () => api.delete<AiKeyStatus>('/users/ai-key');
export const testAiKey = (apiKey?: string) => api.post<AiKeyTestResult>('/users/ai-key/test', apiKey ? { api_key: apiKey } : {});

/** The server's refusal for a missing own key (409 ai_key_required): the screens prompt to add it. */
export const isAiKeyRequired = (error: unknown) => error instanceof ApiError && error.errorId === 'ai_key_required';

/**
 * The avatar page's templates panel (spec part 2 §2 "Avatar page: … templates panel"): GET /templates, 24 a
 * page (§9), a page more at a time for "Load more". Kept under the templates' ['templates'] key so that what
 * the templates screens change (a star, a new or deleted template) refreshes the panel too.
 */
/** Where the next page of the avatar page's templates comes from: a language and its page. */
interface TemplatesPageParam {
  language: Lang;
  page: number;
}
type TemplatesPage = Pick<TemplateList, 'templates'> & { next: TemplatesPageParam | undefined };

/**
 * The avatar page's templates, the user's language first (issue 30 item 20: an English user saw the Spanish
 * ones first): that language's pages, then the other's. When one page ends the first language, the other's
 * first page joins it, so a short list in the user's language is never alone behind "Load more".
 */
export function useAvatarTemplates(filters: { query: string; favorites: boolean }, language: Lang) {
  const other: Lang = language === 'es' ? 'en' : 'es';
  const fetchPage = (param: TemplatesPageParam, signal: AbortSignal) =>
    api.get<TemplateList>('/templates', {
      query: { query: filters.query || undefined, favorites: filters.favorites ? true : undefined, language: param.language, page: param.page },
      signal,
    });
  const after = (param: TemplatesPageParam, list: TemplateList): TemplatesPageParam | undefined =>
    list.page * list.pageSize < list.total ? { language: param.language, page: param.page + 1 } : undefined;
  return useInfiniteQuery({
    queryKey: ['templates', 'avatar-panel', filters, language],
    queryFn: async ({ pageParam, signal }): Promise<TemplatesPage> => {
      const list = await fetchPage(pageParam, signal);
      const next = after(pageParam, list);
      if (next || pageParam.language !== language) return { templates: list.templates, next };
      const first = { language: other, page: 1 };
      const others = await fetchPage(first, signal);
      return { templates: [...list.templates, ...others.templates], next: after(first, others) };
    },
    initialPageParam: { language, page: 1 } as TemplatesPageParam,
    getNextPageParam: (last) => last.next,
    placeholderData: keepPreviousData,
  });
}

export type { Avatar };
