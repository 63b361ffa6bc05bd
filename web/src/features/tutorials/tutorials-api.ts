// The tutorials calls (spec part 2 §7 "Tutorials": GET /tutorials?filters, GET /tutorials/{id}; issue 15
// item 5: staff admins create, edit, order and delete). The list is one language at a time, in the staff's
// order; the web always names the language (the UI's by default).
import type { CreateTutorialRequest, Tutorial, TutorialLanguage, TutorialList, UpdateTutorialRequest } from '@pluma/common/tutorials';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';

export const TUTORIALS_KEY = ['tutorials'] as const;
export const tutorialKey = (tutorialId: number) => [...TUTORIALS_KEY, 'one', tutorialId] as const;

export interface TutorialFilters {
  language: TutorialLanguage;
  query: string;
  page: number;
}

export const fetchTutorials = (filters: TutorialFilters, signal?: AbortSignal) =>
  api.get<TutorialList>('/tutorials', { query: { language: filters.language, query: filters.query || undefined, page: filters.page }, signal });

export function useTutorials(filters: TutorialFilters) {
  return useQuery({
    queryKey: [...TUTORIALS_KEY, 'list', filters],
    queryFn: ({ signal }) => fetchTutorials(filters, signal),
    placeholderData: keepPreviousData,
  });
}

export function useTutorial(tutorialId: number | null) {
  return useQuery({ queryKey: tutorialKey(tutorialId ?? 0), queryFn: () => api.get<Tutorial>(`/tutorials/${tutorialId}`), enabled: tutorialId !== null });
}

/** spec part 2 §4 save rule: no id creates (POST), an id updates (PUT). */
export const saveTutorial = (tutorialId: number | null, body: CreateTutorialRequest) =>
  tutorialId === null ? api.post<Tutorial>('/tutorials', body) : api.put<Tutorial>('/tutorials', { ...body, tutorial_id: tutorialId } satisfies UpdateTutorialRequest);

export const deleteTutorial = (tutorialId: number) => api.delete<{ deleted: true }>(`/tutorials/${tutorialId}`);

/** The given tutorials exchange the places they hold (two neighbours swapped by Up / Down). */
export const reorderTutorials = (ids: number[]) => api.put<{ tutorials: Tutorial[] }>('/tutorials/order', { ids });

/** A thumbnail image, uploaded public (POST /files with public=true) so every user's browser can show it. */
export async function uploadThumbnail(file: File): Promise<{ file_id: number; src: string }> {
  const form = new FormData();
  // The field before the file: the server reads fields as they come.
  form.append('public', 'true');
  form.append('file', file);
  return api.post<{ file_id: number; src: string }>('/files', form);
}
