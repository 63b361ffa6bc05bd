// Indexing a file's text for retrieval (issue 13 item 3), in a background job — never in the upload
// request. Each file has one honest status: queued → indexing (progress) → ready, or failed with the reason
// ('no_text' for a scanned PDF without a text layer, instead of "ready"). A run replaces the file's chunks
// in one transaction ((file, ordinal) is unique), so a retry never duplicates them; every request to index
// bumps the file's generation, and a job of an older one stops instead of writing over the newer.
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Readable } from 'node:stream';
import type { AppContext, JobProgress } from '../../context';
import { files, knowledgeChunks, knowledgeFiles } from '../../db/schema';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { every } from '../../platform/jobs/every';
import { StorageNotFoundError } from '../../platform/storage';
import { isIngestionFailure, type IngestionFailure } from '@pluma/common/ingestion';
import { FileReadFailure, isKnowledgeFileType, readFileChunks, type KnowledgeLanguage, type ReadChunks } from '../ingestion';
import { embeddingConfig, embedTexts, vectorLiteral } from './embeddings';

export const KNOWLEDGE_QUEUE = 'knowledge-index';

export type IndexStatus = 'queued' | 'indexing' | 'ready' | 'failed';
/** Why a file is not (fully) indexed: the reading pipeline's reasons (common/ingestion.ts), and indexing's own. */
export type IndexFailure = IngestionFailure | 'no_text' | 'unreadable' | 'file_missing' | 'embedding_failed' | 'index_error' | 'interrupted';
export type KnowledgeFileRow = typeof knowledgeFiles.$inferSelect;

/** A document with fewer letters than this has no usable text (a scan, or only page numbers). */
const MIN_LETTERS = 20;
const INSERT_BATCH = 100;

/** The reader's language as the app stores it ('en' | 'es'), or a configuration name. */
export function languageOf(value: unknown): KnowledgeLanguage | undefined {
  if (value === 'es' || value === 'spanish') return 'spanish';
  if (value === 'en' || value === 'english') return 'english';
  return undefined;
}

/**
 * Queues (or re-queues) a file for indexing and returns its status row. `language` ('en' | 'es', e.g. the
 * uploader's) is used when the text itself does not tell English from Spanish.
 */
export async function queueFileIndexing(options: { ctx: AppContext; fileId: number; language?: string }): Promise<KnowledgeFileRow> {
  const { ctx, fileId } = options;
  const jobs = ctx.services.jobs;
  if (!jobs) throw new Error('job service is not running');
  const now = new Date();
  const [row] = await ctx.db
    .insert(knowledgeFiles)
    .values({ fileId, status: 'queued', progress: 0, queuedAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: knowledgeFiles.fileId,
      set: { status: 'queued', progress: 0, failureReason: null, generation: sql`${knowledgeFiles.generation} + 1`, queuedAt: now, updatedAt: now },
    })
    .returning();
  await jobs.send(KNOWLEDGE_QUEUE, { fileId, generation: row.generation, language: languageOf(options.language) ?? null });
  return row;
}

/** Re-indexes the files (avatar sync, a changed embedding model). */
export async function reindex(options: { ctx: AppContext; fileIds: number[]; language?: string }): Promise<KnowledgeFileRow[]> {
  const rows: KnowledgeFileRow[] = [];
  for (const fileId of new Set(options.fileIds)) rows.push(await queueFileIndexing({ ctx: options.ctx, fileId, language: options.language }));
  return rows;
}

/** The status rows of the files that were ever queued (others are absent). */
export async function fileIndexStatuses(options: { ctx: AppContext; fileIds: number[] }): Promise<KnowledgeFileRow[]> {
  const ids = [...new Set(options.fileIds)];
  if (ids.length === 0) return [];
  return options.ctx.db.select().from(knowledgeFiles).where(inArray(knowledgeFiles.fileId, ids));
}

async function readAll(body: Readable): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

class Superseded extends Error {}

/** Writes status fields while this job's request is the latest; throws Superseded otherwise. */
async function setProgress(ctx: AppContext, fileId: number, generation: number, fields: Partial<KnowledgeFileRow>): Promise<void> {
  const updated = await ctx.db
    .update(knowledgeFiles)
    .set({ ...fields, updatedAt: new Date() })
    .where(and(eq(knowledgeFiles.fileId, fileId), eq(knowledgeFiles.generation, generation)))
    .returning({ fileId: knowledgeFiles.fileId });
  if (updated.length === 0) throw new Superseded();
}

interface IndexOutcome {
  chunks: ReadChunks['chunks'];
  vectors: number[][] | null;
  embeddingModel: string | null;
  /** The file's language; each chunk is detected on its own with it as the fallback (mixed files). */
  language: KnowledgeLanguage;
  pages: number | null;
  characters: number;
  sourceKey: string;
  failureReason: IndexFailure | null;
}

/** Locks the file's row while it is still at this generation; false when a newer upload superseded it. */
async function lockGeneration(tx: Tx, fileId: number, generation: number): Promise<boolean> {
  const [current] = await tx
    .select({ fileId: knowledgeFiles.fileId })
    .from(knowledgeFiles)
    .where(and(eq(knowledgeFiles.fileId, fileId), eq(knowledgeFiles.generation, generation)))
    .for('update');
  return Boolean(current);
}

/**
 * One batch of chunks as one JSON parameter, unpacked by the database: building a 100-row insert value by
 * value (drizzle maps and types each of 700 parameters) held the main thread 40–60 ms a batch while five
 * large files indexed at once (docs/decisions.md "Ingestion and the event loop"); JSON.stringify is native.
 */
async function insertChunks(tx: Tx, fileId: number, chunks: ReadChunks['chunks']): Promise<{ chunkId: number; ordinal: number }[]> {
  const rows = JSON.stringify(chunks.map((c) => ({ o: c.ordinal, p: c.page, h: c.heading, t: c.text, s: c.startOffset, l: c.language })));
  const result = await tx.execute(sql`
    INSERT INTO knowledge_chunks (file_id, ordinal, page, heading, text, start_offset, language)
    SELECT ${fileId}, r.o, r.p, r.h, r.t, r.s, r.l FROM jsonb_to_recordset(${rows}::jsonb) AS r(o int, p int, h text, t text, s int, l text)
    RETURNING chunk_id, ordinal`);
  return rowsOf(result).map((row) => ({ chunkId: Number(row.chunk_id), ordinal: Number(row.ordinal) }));
}

/** Replaces the file's chunks (and vectors) and sets its final status, all or nothing. */
async function writeIndex(ctx: AppContext, fileId: number, generation: number, outcome: IndexOutcome): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (!(await lockGeneration(tx, fileId, generation))) throw new Superseded();
    await tx.delete(knowledgeChunks).where(eq(knowledgeChunks.fileId, fileId));
    const ids = new Map<number, number>();
    for (let i = 0; i < outcome.chunks.length; i += INSERT_BATCH) {
      for (const row of await insertChunks(tx, fileId, outcome.chunks.slice(i, i + INSERT_BATCH))) ids.set(row.ordinal, row.chunkId);
    }
    const { vectors, embeddingModel } = outcome;
    if (vectors && embeddingModel) {
      for (let i = 0; i < vectors.length; i += INSERT_BATCH) {
        const rows = vectors.slice(i, i + INSERT_BATCH).map(
          (vector, j) => sql`(${ids.get(outcome.chunks[i + j].ordinal)}, ${fileId}, ${embeddingModel}, ${vector.length}, ${vectorLiteral(vector)}::vector)`,
        );
        await tx.execute(sql`INSERT INTO knowledge_chunk_embeddings (chunk_id, file_id, model, dimensions, embedding) VALUES ${sql.join(rows, sql`, `)}`);
      }
    }
    await tx
      .update(knowledgeFiles)
      .set({
        status: outcome.failureReason ? 'failed' : 'ready',
        progress: 100,
        failureReason: outcome.failureReason,
        language: outcome.language,
        pages: outcome.pages,
        characters: outcome.characters,
        chunks: outcome.chunks.length,
        sourceKey: outcome.sourceKey,
        embeddingModel: vectors ? embeddingModel : null,
        embeddingDimensions: vectors?.[0]?.length ?? null,
        updatedAt: new Date(),
      })
      .where(eq(knowledgeFiles.fileId, fileId));
  });
}

/** A failure that indexing more times would not fix: the file's status says why, and its old chunks go. */
async function failFile(ctx: AppContext, fileId: number, generation: number, reason: IndexFailure, sourceKey: string | null): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (!(await lockGeneration(tx, fileId, generation))) return;
    // The content changed into something without text: its old passages must not be retrieved any more.
    await tx.delete(knowledgeChunks).where(eq(knowledgeChunks.fileId, fileId));
    await tx
      .update(knowledgeFiles)
      .set({ status: 'failed', progress: 100, failureReason: reason, chunks: 0, sourceKey, embeddingModel: null, embeddingDimensions: null, updatedAt: new Date() })
      .where(eq(knowledgeFiles.fileId, fileId));
  });
}

/** The job: read the stored file, extract, chunk, embed when configured, write. */
export async function runIndexJob(ctx: AppContext, data: Record<string, unknown>, progress: JobProgress): Promise<{ status: string }> {
  const fileId = Number(data.fileId);
  const generation = Number(data.generation);
  const [file] = await ctx.db
    .select({ type: files.type, storageKey: files.storageKey, generation: knowledgeFiles.generation })
    .from(knowledgeFiles)
    .innerJoin(files, eq(files.fileId, knowledgeFiles.fileId))
    .where(eq(knowledgeFiles.fileId, fileId))
    .limit(1);
  // Deleted meanwhile, or queued again: that newer job does the work.
  if (!file || file.generation !== generation) return { status: 'superseded' };
  const report = async (percent: number) => {
    await setProgress(ctx, fileId, generation, { status: 'indexing', progress: percent });
    await progress(percent);
  };
  try {
    await report(5);
    if (!isKnowledgeFileType(file.type)) {
      await failFile(ctx, fileId, generation, 'unsupported_type', file.storageKey);
      return { status: 'failed' };
    }
    let bytes: Uint8Array;
    try {
      const storage = ctx.services.storage;
      if (!storage) throw new Error('storage service is not configured');
      bytes = await readAll(await storage.get(file.storageKey));
    } catch (err) {
      if (!(err instanceof StorageNotFoundError)) throw err;
      await failFile(ctx, fileId, generation, 'file_missing', file.storageKey);
      return { status: 'failed' };
    }
    await report(15);
    // Read in a worker thread within the pipeline's limits (issue 27): a file over one fails with its reason.
    let extracted: ReadChunks;
    try {
      extracted = await readFileChunks({ bytes, type: file.type, language: languageOf(data.language) ?? 'english' });
    } catch (err) {
      if (!(err instanceof FileReadFailure) || !isIngestionFailure(err.reason)) throw err;
      await failFile(ctx, fileId, generation, err.reason, file.storageKey);
      return { status: 'failed' };
    }
    if (extracted.letters < MIN_LETTERS) {
      await failFile(ctx, fileId, generation, 'no_text', file.storageKey);
      return { status: 'failed' };
    }
    const { chunks, language } = extracted;
    await report(35);

    let vectors: number[][] | null = null;
    let failureReason: IndexFailure | null = null;
    const config = await embeddingConfig(ctx);
    if (config) {
      try {
        vectors = await embedTexts(
          config,
          chunks.map((c) => (c.heading && !c.text.startsWith(c.heading) ? `${c.heading}\n${c.text}` : c.text)),
          (done) => report(35 + Math.round(done * 55)),
        );
      } catch (err) {
        if (err instanceof Superseded) throw err;
        // The passages are still found by their words; the status says the vectors are missing.
        failureReason = 'embedding_failed';
      }
    }
    await writeIndex(ctx, fileId, generation, {
      chunks,
      vectors,
      embeddingModel: config?.model ?? null,
      language,
      pages: extracted.pages,
      characters: extracted.characters,
      sourceKey: file.storageKey,
      failureReason,
    });
    return { status: failureReason ? 'failed' : 'ready' };
  } catch (err) {
    if (err instanceof Superseded) return { status: 'superseded' };
    // Unexpected (database, storage): say so now; pg-boss tries again, which sets 'indexing' again.
    await setProgress(ctx, fileId, generation, { status: 'failed', failureReason: 'index_error' }).catch(() => undefined);
    throw err;
  }
}

/** A file queued or indexing without a word for this long has lost its job (a progress write bumps updated_at). */
export const STALLED_INDEXING_MS = 20 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 1000;

/**
 * Files left 'queued' or 'indexing' by a job that no longer exists — the process died mid-file and pg-boss
 * gave up on it, or the job was lost — end 'failed' with reason 'interrupted' (issue 27: never "indexing 15%"
 * forever); the owner can retry or remove them. A file whose job pg-boss still holds (waiting, retrying or
 * active until it expires) is left to that job. Returns how many were marked.
 */
export async function failStalledIndexing(ctx: AppContext, options: { staleAfterMs?: number } = {}): Promise<number> {
  const before = new Date(Date.now() - (options.staleAfterMs ?? STALLED_INDEXING_MS));
  const stale = await ctx.db
    .select({ fileId: knowledgeFiles.fileId, generation: knowledgeFiles.generation })
    .from(knowledgeFiles)
    .where(and(inArray(knowledgeFiles.status, ['queued', 'indexing']), lt(knowledgeFiles.updatedAt, before)))
    .limit(1_000);
  let marked = 0;
  for (const row of stale) {
    const { rows } = await ctx.database.executeSql(
      `SELECT 1 FROM pgboss.job WHERE name = $1 AND state < 'completed' AND (data->>'fileId')::int = $2 AND (data->>'generation')::int = $3 LIMIT 1`,
      [KNOWLEDGE_QUEUE, row.fileId, row.generation],
    );
    if (rows.length > 0) continue;
    const updated = await ctx.db
      .update(knowledgeFiles)
      .set({ status: 'failed', progress: 100, failureReason: 'interrupted', updatedAt: new Date() })
      .where(and(eq(knowledgeFiles.fileId, row.fileId), eq(knowledgeFiles.generation, row.generation), inArray(knowledgeFiles.status, ['queued', 'indexing'])))
      .returning({ fileId: knowledgeFiles.fileId });
    marked += updated.length;
  }
  return marked;
}

/**
 * Registers the indexing worker and the stalled-files sweep (called once when the app's routes load; boot.ts
 * starts jobs first). Returns the function that stops the sweep.
 */
export async function startIndexingWorker(ctx: AppContext, onError: (err: unknown) => void): Promise<() => void> {
  const jobs = ctx.services.jobs;
  if (!jobs) return () => undefined;
  await jobs.work(KNOWLEDGE_QUEUE, (data, progress) => runIndexJob(ctx, data, progress));
  return every(SWEEP_INTERVAL_MS, () => failStalledIndexing(ctx), onError);
}
