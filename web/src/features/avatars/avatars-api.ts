// The avatars calls (spec part 2 §7 "Avatars") and the user's own AI key (/users/ai-key). Every call acts
// in the active organization (the API client appends its organization_id).
import type { AiKeyStatus, AiKeyTestResult, Avatar, AvatarFile, AvatarList, AvatarWithFiles, CreateAvatarRequest, UpdateAvatarRequest } from '@pluma/common/avatars';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
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

export function useAvatar(avatarId: number | null) {
  return useQuery({ queryKey: avatarKey(avatarId ?? 0), queryFn: () => api.get<AvatarWithFiles>(`/avatars/${avatarId}`), enabled: avatarId !== null });
}

export const createAvatar = (body: CreateAvatarRequest) => api.post<AvatarWithFiles>('/avatars', body);
export const updateAvatar = (body: UpdateAvatarRequest) => api.put<AvatarWithFiles>('/avatars', body);
export const deleteAvatar = (avatarId: number) => api.delete<{ deleted: true }>(`/avatars/${avatarId}`);
export const cloneAvatar = (avatarId: number, name: string) => api.post<AvatarWithFiles>('/avatars/clone', { avatar_id: avatarId, name });
export const combineAvatars = (targetAvatarId: number, selectedAvatarId: number, name: string) =>
  api.post<AvatarWithFiles>('/avatars/combine', { target_avatar_id: targetAvatarId, selected_avatar_id: selectedAvatarId, name });

export function uploadAvatarFile(avatarId: number, file: File, editable: boolean) {
  const form = new FormData();
  form.append('file', file);
  return api.post<AvatarFile>(`/avatars/${editable ? 'add-editable-file' : 'add-file'}/${avatarId}`, form);
}
export const downloadAvatarFile = (avatarId: number, fileId: number) => api.get<Blob>(`/avatars/${avatarId}/files/${fileId}`, { responseType: 'blob' });
export const editAvatarFileText = (avatarId: number, fileId: number, content: string) =>
  api.put<AvatarFile>(`/avatars/${avatarId}/files/${fileId}/text`, { content });
export const deleteAvatarFile = (avatarId: number, fileId: number) => api.delete<{ deleted: true }>(`/avatars/${avatarId}/files/${fileId}`);

export function useAiKey() {
  return useQuery({ queryKey: AI_KEY_KEY, queryFn: () => api.get<AiKeyStatus>('/users/ai-key') });
}
export const saveAiKey = (apiKey: string) => api.put<AiKeyStatus>('/users/ai-key', { api_key: apiKey });
export const removeAiKey = () => api.delete<AiKeyStatus>('/users/ai-key');
export const testAiKey = (apiKey?: string) => api.post<AiKeyTestResult>('/users/ai-key/test', apiKey ? { api_key: apiKey } : {});

/** The server's refusal for a missing own key (409 ai_key_required): the screens prompt to add it. */
export const isAiKeyRequired = (error: unknown) => error instanceof ApiError && error.errorId === 'ai_key_required';

export type { Avatar };
