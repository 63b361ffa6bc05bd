// The templates calls (spec part 2 §7 "Templates"): the list with its filters (tag, type, favorites, query,
// page, sortBy, admin), the admin-managed tags and types, one template, save, star, mark as used, delete.
// Every call acts in the active organization (the API client appends its organization_id).
import type {
  CreateTemplateRequest,
  FavoriteResponse,
  ImportTemplatesResponse,
  Template,
  TemplateTag,
  TemplateLanguage,
  TemplateList,
  TemplateSortKey,
  TemplateTagList,
  TemplateType,
  TemplateTypeList,
  UpdateTemplateRequest,
} from '@pluma/common/templates';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/instance';
import { previousPageCursor } from '../../api/page-cursor';

export const TEMPLATES_KEY = ['templates'] as const;
export const templateKey = (templateId: number) => [...TEMPLATES_KEY, 'one', templateId] as const;

export interface TemplateFilters {
  query: string;
  page: number;
  sortBy: TemplateSortKey;
  tag: string | null;
  type: string | null;
  favorites: boolean;
  /** Staff admins: every user's templates. */
  admin: boolean;
  /** null: both languages. */
  language: TemplateLanguage | null;
}

/** Only the filters in use go in the URL (the server's defaults for the rest). */
export function listQuery(filters: TemplateFilters) {
  return {
    query: filters.query || undefined,
    page: filters.page,
    sortBy: filters.sortBy,
    tag: filters.tag ?? undefined,
    type: filters.type ?? undefined,
    favorites: filters.favorites ? true : undefined,
    admin: filters.admin ? true : undefined,
    language: filters.language ?? undefined,
  };
}

export function useTemplates(filters: TemplateFilters, enabled = true) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...TEMPLATES_KEY, 'list', filters],
    queryFn: ({ signal }) => {
      const cursor = previousPageCursor(queryClient, filters.page, (page) => [...TEMPLATES_KEY, 'list', { ...filters, page }]);
      return api.get<TemplateList>('/templates', { query: { ...listQuery(filters), cursor }, signal });
    },
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useTemplateTags(enabled = true) {
  return useQuery({ queryKey: [...TEMPLATES_KEY, 'tags'], queryFn: ({ signal }) => api.get<TemplateTagList>('/templates/tags', { signal }), enabled });
}

export function useTemplateTypes(enabled = true) {
  return useQuery({ queryKey: [...TEMPLATES_KEY, 'types'], queryFn: ({ signal }) => api.get<TemplateTypeList>('/templates/types', { signal }), enabled });
}

export function useTemplate(templateId: number | null) {
  return useQuery({
    queryKey: templateKey(templateId ?? 0),
    queryFn: ({ signal }) => api.get<Template>(`/templates/${templateId}`, { signal }),
    enabled: templateId !== null,
    retry: false,
  });
}

export const createTemplate = (body: CreateTemplateRequest) => api.post<Template>('/templates', body);
export const updateTemplate = (body: UpdateTemplateRequest) => api.put<Template>('/templates', body);
export const deleteTemplate = (templateId: number) => api.delete<{ deleted: true }>(`/templates/${templateId}`);
export const toggleFavorite = (templateId: number) => api.post<FavoriteResponse>('/templates/favorite', { template_id: templateId });
/** GET /templates/export?ids=…: the JSON file of those templates (their prompts must be readable). */
export const exportTemplates = (templateIds: number[]) => api.get<Blob>('/templates/export', { query: { ids: templateIds.join(',') }, responseType: 'blob' });
/** POST /templates/import: an export file's JSON; copies for the importer in the current context. */
export const importTemplates = (file: unknown) => api.post<ImportTemplatesResponse>('/templates/import', file);

/** Staff admins manage the tags and types lists (spec part 2 §6). */
export const addTemplateTag = (name: string) => api.post<TemplateTag>('/templates/tags', { name });
export const addTemplateType = (name: string) => api.post<TemplateType>('/templates/types', { name });
export const deleteTemplateTag = (tagId: number) => api.delete<{ deleted: true }>(`/templates/tags/${tagId}`);
export const deleteTemplateType = (typeId: number) => api.delete<{ deleted: true }>(`/templates/types/${typeId}`);
