// The document generation calls (contract A of issue 15: POST /documents/avatar-output, GET
// /documents/generations/{id}, GET /documents/{id}/generations?unapplied=true, POST
// /documents/generations/{id}/applied, POST /documents/generations/{id}/stop), and what this browser remembers of a generation being written: the
// ids of the blocks it inserted, so a reload mid-stream replaces them instead of writing the text twice.
import type { DocumentGenerateRequest, DocumentGeneration, DocumentGenerationList } from '@pluma/common/documents-generate';
import { api } from '../../api/instance';
import { GENERATION_PREFIX } from './local-data';

export type GenerateInput = Omit<DocumentGenerateRequest, 'document_id'>;

/** JSON, or multipart (a `data` JSON part and the `file`) when a file goes with it (Super Fetch). */
export function startGeneration(body: DocumentGenerateRequest, file?: File | null) {
  if (!file) return api.post<{ generation: DocumentGeneration }>('/documents/avatar-output', body);
  const form = new FormData();
  form.append('data', JSON.stringify(body));
  form.append('file', file);
  return api.post<{ generation: DocumentGeneration }>('/documents/avatar-output', form);
}

export const getGeneration = (generationId: number) => api.get<DocumentGeneration>(`/documents/generations/${generationId}`);
export const unappliedGenerations = (documentId: number) => api.get<DocumentGenerationList>(`/documents/${documentId}/generations`, { query: { unapplied: 'true' } });
export const markApplied = (generationId: number) => api.post<DocumentGeneration>(`/documents/generations/${generationId}/applied`);
/** The user's Stop (issue 30 item 1): the generation ends 'stopped' with what it wrote; idempotent. */
export const stopGeneration = (generationId: number) => api.post<DocumentGeneration>(`/documents/generations/${generationId}/stop`);

export function rememberBlocks(generationId: number, ids: string[]) {
  try {
    window.localStorage.setItem(`${GENERATION_PREFIX}${generationId}`, JSON.stringify(ids));
  } catch {
    // Storage full or disabled: a reload mid-stream may then show the text twice, nothing is lost.
  }
}

export function rememberedBlocks(generationId: number): string[] {
  try {
    const ids: unknown = JSON.parse(window.localStorage.getItem(`${GENERATION_PREFIX}${generationId}`) ?? '[]');
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function forgetBlocks(generationId: number) {
  try {
    window.localStorage.removeItem(`${GENERATION_PREFIX}${generationId}`);
  } catch {
    // Nothing was kept.
  }
}
