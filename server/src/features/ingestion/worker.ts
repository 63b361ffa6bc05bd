// Entry of an ingestion worker thread (pool.ts): reads one file at a time, off the server's event loop, within
// the content limits; the pool adds wall time and memory. Bundled to dist/ingestion-worker.js (build.mjs);
// run from source through worker-dev.mjs.
import { isIngestionFailure, type IngestionFailure } from '@pluma/common/ingestion';
import { parentPort } from 'node:worker_threads';
import { chunkBlocks, detectLanguage, joinBlocks, type KnowledgeLanguage, type TextChunk } from './chunk';
import { cleanText, extractFileText, type KnowledgeFileType } from './extract';
import { FileReadFailure, type ContentLimits } from './failure';

export interface ReadJob {
  id: number;
  type: KnowledgeFileType;
  bytes: Uint8Array;
  limits: ContentLimits;
  /** 'text': the whole text; 'chunks': passages for the search index, with languages. */
  mode: 'text' | 'chunks';
  /** The language to assume when the text does not tell (chunks only). */
  language: KnowledgeLanguage;
}

export interface ReadText {
  text: string;
  pages: number | null;
  characters: number;
}

export interface ReadChunks extends ReadText {
  chunks: (TextChunk & { language: KnowledgeLanguage })[];
  /** Letters in the text: a scan without a text layer has (almost) none. */
  letters: number;
  language: KnowledgeLanguage;
}

export type ReadReply = { id: number; ok: ReadText | ReadChunks } | { id: number; failure: IngestionFailure; detail: string };

export async function runReadJob(job: ReadJob): Promise<ReadText | ReadChunks> {
  const extracted = await extractFileText(job.bytes, job.type, job.limits);
  if (job.mode === 'text') {
    const text = cleanText(extracted.blocks.map((b) => b.text).join('\n\n'));
    return { text, pages: extracted.pages, characters: text.length };
  }
  const text = joinBlocks(extracted.blocks);
  const language = detectLanguage(text, job.language);
  const letters = text.replace(/[^\p{L}]+/gu, '').length;
  const chunks = chunkBlocks(extracted.blocks).map((c) => ({ ...c, language: detectLanguage(c.text, language) }));
  // The whole text is not sent back: the chunks carry it, and the index needs only them.
  return { text: '', pages: extracted.pages, characters: text.length, chunks, letters, language };
}

const port = parentPort;
if (port) {
  port.on('message', (job: ReadJob) => {
    runReadJob(job).then(
      (ok) => port.postMessage({ id: job.id, ok } satisfies ReadReply),
      (err: unknown) => {
        const failure = err instanceof FileReadFailure && isIngestionFailure(err.reason) ? err.reason : 'damaged';
        port.postMessage({ id: job.id, failure, detail: err instanceof Error ? err.message.slice(0, 500) : String(err) } satisfies ReadReply);
      },
    );
  });
}
