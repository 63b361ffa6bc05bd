// The documents calls (spec part 2 §7 "Documents"): the list (query, sortBy, page), one document, save
// (POST when the id is not numeric, else PUT — spec part 2 §4 "Save rule"), delete, and the Word file.
// Every call acts in the active organization (the API client appends its organization_id).
import type { CreateDocumentRequest, DocumentList, DocumentRecord, DocumentSortKey, UpdateDocumentRequest } from '@pluma/common/documents';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/instance';
import { previousPageCursor } from '../../api/page-cursor';

export const DOCUMENTS_KEY = ['documents'] as const;
export const documentKey = (documentId: number) => [...DOCUMENTS_KEY, 'one', documentId] as const;

export interface DocumentFilters {
  query: string;
  sortBy: DocumentSortKey;
  page: number;
}

const documentsListKey = (filters: DocumentFilters) => [...DOCUMENTS_KEY, 'list', filters];

export function useDocuments(filters: DocumentFilters) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: documentsListKey(filters),
    queryFn: ({ signal }) => {
      const cursor = previousPageCursor(queryClient, filters.page, (page) => documentsListKey({ ...filters, page }));
      return api.get<DocumentList>('/documents', { query: { query: filters.query || undefined, sortBy: filters.sortBy, page: filters.page, cursor }, signal });
    },
    placeholderData: keepPreviousData,
  });
}

export function useDocument(documentId: number | null) {
  return useQuery({
    queryKey: documentKey(documentId ?? 0),
    queryFn: ({ signal }) => api.get<DocumentRecord>(`/documents/${documentId}`, { signal }),
    enabled: documentId !== null,
    // The editor owns the text once loaded: a refetch must not replace what is being typed.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

export const campaignDocumentKey = (campaignId: number, documentId: number) => [...DOCUMENTS_KEY, 'campaign', campaignId, documentId] as const;

/** A document a campaign links (GET /documents/{id}/campaigns/{campaignId}), for the campaign document page. */
export function useCampaignDocument(campaignId: number | null, documentId: number | null) {
  return useQuery({
    queryKey: campaignDocumentKey(campaignId ?? 0, documentId ?? 0),
    queryFn: ({ signal }) => api.get<DocumentRecord>(`/documents/${documentId}/campaigns/${campaignId}`, { signal }),
    enabled: campaignId !== null && documentId !== null,
  });
}

export const createDocument = (body: CreateDocumentRequest) => api.post<DocumentRecord>('/documents', body);
export const updateDocument = (body: UpdateDocumentRequest) => api.put<DocumentRecord>('/documents', body);
export const deleteDocument = (documentId: number) => api.delete<{ deleted: true }>(`/documents/${documentId}`);
export const downloadDocx = (documentId: number) => api.get<Blob>(`/documents/doc-converted/${documentId}`, { responseType: 'blob' });
