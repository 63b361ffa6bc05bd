// Nothing stays pending forever: answers left pending or streaming by a process that stopped are marked
// interrupted (their text so far is kept, and charged once like any finished answer; finalizing releases
// the rest of their word hold). Holds past their expiry (an enhancement of a stopped process, an answer
// deleted with its conversation) are released here too (credits/holds.ts).
import { and, inArray, lt, notInArray, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { releaseExpiredHolds } from '../credits';
import { messages } from '../../db/schema';
import { ACTIVE_STATUSES, finalizeMessage } from './finalize';
import { runningMessageIds } from '../../platform/ai/generation-registry';
import { every } from '../../platform/jobs/every';

/** A running generation saves at least this often (text while it streams, a heartbeat otherwise). */
export const GENERATION_HEARTBEAT_MS = 15_000;
/** The periodic sweep treats an active message as abandoned after this long without a save. */
export const STALE_MESSAGE_MS = 8 * GENERATION_HEARTBEAT_MS;
export const SWEEP_INTERVAL_MS = 60_000;

export interface MarkInterruptedOptions {
  /**
   * Only messages not saved for this long. 0 (boot of a single node) takes every active message: none
   * can belong to a live process. With several nodes, a node's boot must not cut another node's answers.
   */
  staleAfterMs?: number;
  /** Messages this process is writing. */
  exceptIds?: number[];
}

/** Marks abandoned pending/streaming answers as interrupted; returns how many it marked. */
export async function markInterruptedMessages(ctx: AppContext, options: MarkInterruptedOptions = {}): Promise<number> {
  const { staleAfterMs = 0, exceptIds = [] } = options;
  const conditions: SQL[] = [inArray(messages.status, [...ACTIVE_STATUSES])];
  if (staleAfterMs > 0) conditions.push(lt(messages.updatedAt, new Date(Date.now() - staleAfterMs)));
  if (exceptIds.length > 0) conditions.push(notInArray(messages.messageId, exceptIds));
  const candidates = await ctx.db
    .select({ messageId: messages.messageId })
    .from(messages)
    .where(and(...conditions))
    .limit(10_000);
  let marked = 0;
  for (const { messageId } of candidates) {
    // finalizeMessage re-checks the status inside its transaction: a message finished meanwhile is left alone.
    const row = await finalizeMessage(ctx, { messageId, status: 'interrupted', finishReason: 'interrupted' });
    if (row) marked++;
  }
  await releaseExpiredHolds(ctx.db);
  return marked;
}

/** Every SWEEP_INTERVAL_MS, marks stale answers that no live process is writing. Returns a stop function. */
export function startInterruptedSweep(ctx: AppContext, onError: (err: unknown) => void, intervalMs = SWEEP_INTERVAL_MS): () => void {
  return every(intervalMs, () => markInterruptedMessages(ctx, { staleAfterMs: STALE_MESSAGE_MS, exceptIds: runningMessageIds(ctx) }), onError);
}
