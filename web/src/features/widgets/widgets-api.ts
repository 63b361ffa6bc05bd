// The owner's widget calls (contract B): list, create and update (JSON, or multipart with the button image),
// rotate the key, delete, and read the visitors' conversations. Personal only: the page does not call them
// inside an organization (the server answers 404 there).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';
import { AVATARS_MAX_PAGE_SIZE, type AvatarList } from '@pluma/common/avatars';
import type { Widget, WidgetInput, WidgetList, WidgetSessionDetail, WidgetSessionList, WidgetUpdate } from '@pluma/common/widgets';

export const WIDGETS_KEY = ['widgets'] as const;

export function useWidgets(enabled = true) {
  return useQuery({ queryKey: [...WIDGETS_KEY, 'list'], queryFn: ({ signal }) => api.get<WidgetList>('/widgets', { signal }), enabled });
}

/**
 * The user's own avatars for the picker: the largest page, searched on the server as the user types (a long
 * list is not all on its first page).
 */
export function useWidgetAvatars(query: string) {
  return useQuery({
    queryKey: ['avatars', 'list', 'widget-picker', query],
    queryFn: ({ signal }) => api.get<AvatarList>('/avatars', { query: { limit: AVATARS_MAX_PAGE_SIZE, ...(query ? { query } : {}) }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** No id creates (POST), an id updates (PUT). With an image the body is multipart: the `widget` JSON, then the file. */
export function saveWidget(widgetId: number | null, input: WidgetInput & WidgetUpdate, image: File | null) {
  let body: unknown = input;
  if (image) {
    const form = new FormData();
    // The JSON before the file: the server reads the parts as they come.
    form.append('widget', JSON.stringify(input));
    form.append('image', image);
    body = form;
  }
  return widgetId === null ? api.post<Widget>('/widgets', body) : api.put<Widget>(`/widgets/${widgetId}`, body);
}

export const setWidgetEnabled = (widgetId: number, enabled: boolean) => api.put<Widget>(`/widgets/${widgetId}`, { enabled });
export const rotateWidgetKey = (widgetId: number) => api.post<Widget>(`/widgets/${widgetId}/rotate-key`);
export const deleteWidget = (widgetId: number) => api.delete<{ deleted: true }>(`/widgets/${widgetId}`);

export function useWidgetSessions(widgetId: number, page: number, enabled = true) {
  return useQuery({
    queryKey: [...WIDGETS_KEY, widgetId, 'sessions', page],
    queryFn: ({ signal }) => api.get<WidgetSessionList>(`/widgets/${widgetId}/sessions`, { query: { page }, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useWidgetSession(widgetId: number, sessionId: number | null) {
  return useQuery({
    queryKey: [...WIDGETS_KEY, widgetId, 'session', sessionId],
    queryFn: ({ signal }) => api.get<WidgetSessionDetail>(`/widgets/${widgetId}/sessions/${sessionId}`, { signal }),
    enabled: sessionId !== null,
  });
}
