// The JSON of a file's index status (GET /api/files/{id}/index-status; other features present it too).
import { z } from 'zod';
import type { KnowledgeFileRow } from './indexing';

export const indexStatusResponse = z.object({
  file_id: z.number().int(),
  /** 'none' until the file is queued for indexing. */
  status: z.enum(['none', 'queued', 'indexing', 'ready', 'failed']),
  progress: z.number().int(),
  failure_reason: z.string().nullable(),
  language: z.string().nullable(),
  pages: z.number().int().nullable(),
  chunks: z.number().int(),
  embedding_model: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type IndexStatusJson = z.infer<typeof indexStatusResponse>;

export function presentIndexStatus(fileId: number, row: KnowledgeFileRow | undefined): IndexStatusJson {
  if (!row) {
    return { file_id: fileId, status: 'none', progress: 0, failure_reason: null, language: null, pages: null, chunks: 0, embedding_model: null, updatedAt: null };
  }
  return {
    file_id: row.fileId,
    status: row.status as IndexStatusJson['status'],
    progress: row.progress,
    failure_reason: row.failureReason,
    language: row.language,
    pages: row.pages,
    chunks: row.chunks,
    embedding_model: row.embeddingModel,
    updatedAt: row.updatedAt.toISOString(),
  };
}
