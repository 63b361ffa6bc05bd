// Writing a generation into a document (issue 15 item 1; spec part 2 §2 "Documents and editor"), copied from
// Super Fetch's pattern (super-fetch/generate.ts): in the background after POST /documents/avatar-output
// answered 202, the markdown streams to room user-{id} as `document_output` frames (batched per
// STREAM_FRAME_INTERVAL_MS, DESIGN.md §6), the row is saved as it streams (at most every SAVE_INTERVAL_MS,
// so a reload finds the text), and at the end it is saved whole, charged once for the words it wrote (also
// when it failed part-way: the partial text is kept) and announced with done=true and the whole content.
// A user's Stop (POST /documents/generations/{id}/stop) ends it the same way, as 'stopped' (stops.ts).
import type { DocumentGeneration, DocumentGenerationKind, DocumentGenerationStatus, DocumentOutputPayload } from '@pluma/common/documents-generate';
import { SocketEvents, STREAM_FRAME_INTERVAL_MS } from '@pluma/common/events';
import { countWords } from '@pluma/common/rules/token-estimate';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { documentGenerations } from '../../db/schema';
import { BackgroundRuns, streamWithinBudget } from '../../platform/ai/background-runs';
import { requestStop } from '../../platform/ai/stops';
import type { ChatTurn } from '../../platform/ai/types';
import { chargeWords } from '../credits';

export type GenerationRow = typeof documentGenerations.$inferSelect;

export function presentGeneration(row: GenerationRow): DocumentGeneration {
  return {
    generation_id: row.generationId,
    document_id: row.documentId,
    kind: row.kind as DocumentGenerationKind,
    status: row.status as DocumentGenerationStatus,
    content: row.content,
    error_code: row.errorCode,
    applied: row.appliedAt !== null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export interface GenerationLog {
  error(details: object, message: string): void;
}

export interface GenerationJob {
  userId: number;
  row: GenerationRow;
  turns: ChatTurn[];
  maxTokens: number;
  /** The words held (null: no limit — staff, unlimited balance). The text stops there. */
  wordLimit: number | null;
  log: GenerationLog;
  /**
   * With web search (issue 32): run inside the generation, so a Stop ends the search too; gives the turns
   * with the pages and the list of sources that ends the text.
   */
  ground?: (signal: AbortSignal) => Promise<{ turns: ChatTurn[]; appendix: string }>;
}

// Generations outlive their request but not the process (platform/ai/background-runs.ts).
const generations = new BackgroundRuns();

export const stopAllGenerations = (ctx: AppContext) => generations.stop(ctx);

/** The key a user's Stop ends the generation by (platform/ai/stops.ts), on whichever node runs it. */
const stopKeyOf = (generationId: number) => `document-generation:${generationId}`;

/**
 * A user's Stop (issue 30 item 1): ends generation `generationId` wherever it runs. Resolves true when it
 * ran here and its final state ('stopped', its text kept and charged) is saved; false when another node
 * runs it (that node saves and announces it) or it no longer runs. The caller has authorized it.
 */
export const stopGeneration = (ctx: AppContext, generationId: number) => requestStop(ctx, stopKeyOf(generationId));

/** Starts the generation in the background; returns at once. */
export function startGeneration(ctx: AppContext, job: GenerationJob): void {
  void generations.start(
    ctx,
    null,
    (signal) => write(ctx, job, signal),
    (err) => job.log.error({ err, generationId: job.row.generationId }, 'document generation failed'),
    stopKeyOf(job.row.generationId),
  );
}

async function write(ctx: AppContext, job: GenerationJob, stopSignal: AbortSignal): Promise<void> {
  const { row } = job;
  const where = and(eq(documentGenerations.generationId, row.generationId), eq(documentGenerations.status, 'streaming'));
  const emit = (payload: Omit<DocumentOutputPayload, 'generation_id' | 'document_id'>) =>
    ctx.services.realtime?.emitToUser(job.userId, SocketEvents.documentOutput, {
      generation_id: row.generationId,
      document_id: row.documentId,
      ...payload,
    } satisfies DocumentOutputPayload);

  // Deltas batched: at most one frame per interval.
  let pending = '';
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!pending) return;
    const delta = pending;
    pending = '';
    emit({ delta, done: false, status: 'streaming', error_code: null });
  };

  // The operator's keys and default model, as Super Fetch (docs/decisions.md "Documents").
  let appendix = '';
  const { text: written, status, errorCode, error } = await streamWithinBudget({
    ai: ctx.services.ai,
    turns: async () => {
      if (!job.ground) return job.turns;
      const grounded = await job.ground(stopSignal);
      appendix = grounded.appendix;
      return grounded.turns;
    },
    maxTokens: job.maxTokens,
    stopSignal,
    wordLimit: job.wordLimit,
    onText: (kept) => {
      pending += kept;
      timer ??= setTimeout(flush, STREAM_FRAME_INTERVAL_MS);
    },
    saveProgress: (content) => ctx.db.update(documentGenerations).set({ content, updatedAt: new Date() }).where(where),
    running: () => BackgroundRuns.runningIn(ctx),
  });
  if (errorCode && errorCode !== 'interrupted') job.log.error({ err: error, generationId: row.generationId }, 'document generation failed');
  const outcome = { status, errorCode };
  // The sources it was given end the text (streamed like it); charged are the words the model wrote.
  const ending = written.trim() ? appendix : '';
  pending += ending;
  const text = written + ending;
  flush();
  const [saved] = await ctx.db
    .update(documentGenerations)
    .set({ content: text, status: outcome.status, errorCode: outcome.errorCode, updatedAt: new Date() })
    .where(where)
    .returning();
  // Charged once for what it wrote, whatever the outcome (the charge releases the hold; the ledger's unique
  // source makes a second charge a no-op).
  await chargeWords(ctx.db, { userId: job.userId, sourceType: 'document', sourceId: row.holdId, words: countWords(written) });
  // Gone meanwhile (its document was deleted): nothing to announce.
  if (saved) emit({ delta: '', done: true, status: outcome.status, error_code: outcome.errorCode, content: text });
}
