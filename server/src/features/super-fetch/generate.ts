// Writing a run's outputs (spec part 2 §4 "Multiple-output requests repeat the prompt N times"; issue 14
// item 4): all of them at once, each a provider call of its own within the words held for it
// (credits/holds.ts). Each output is saved as it streams (at most every SAVE_INTERVAL_MS), its deltas go to
// room user-{id} as `super_fetch_outputs` frames (batched across the run's outputs, DESIGN.md §6), and when
// it ends it is saved whole, charged once for the words it wrote (also when it failed part-way: the partial
// text is kept) and announced as the whole output. A user's Stop (issue 30 item 1) ends an output as
// 'stopped': its text is kept, and charged like any other.
import { SocketEvents, STREAM_FRAME_INTERVAL_MS } from '@pluma/common/events';
import { countWords } from '@pluma/common/rules/token-estimate';
import type { SuperFetchOutputsPayload } from '@pluma/common/super-fetch';
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { superFetchOutputs } from '../../db/schema';
import { BackgroundRuns, streamWithinBudget } from '../../platform/ai/background-runs';
import type { ChatTurn } from '../../platform/ai/types';
import { chargeWords } from '../credits';
import type { OutputRow } from './output-state';
import { presentOutput } from './present';

export interface GenerationLog {
  error(details: object, message: string): void;
}

export interface RunJob {
  userId: number;
  runId: number;
  avatarId: number;
  /** The prompt shown as the event's enhancePrompt. */
  prompt: string;
  turns: ChatTurn[];
  maxTokens: number;
  /** Each output with the words it may write (null: no limit — staff, unlimited balance). */
  outputs: { row: OutputRow; wordLimit: number | null }[];
  log: GenerationLog;
}

// Generations outlive their request but not the process: the routes' preClose stops them (saved as failed
// 'interrupted'; platform/ai/background-runs.ts). Tagged with their run's id.
const runs = new BackgroundRuns<number>();

export const stopAllRuns = (ctx: AppContext) => runs.stop(ctx);
/** The key a user's Stop ends one output by (platform/ai/stops.ts). */
export const outputStopKey = (outputId: number) => `super-fetch-output:${outputId}`;
export const stopRuns = (ctx: AppContext, runIds: number[]) => runs.stop(ctx, (runId) => runIds.includes(runId));

/** Deltas of all the run's outputs, sent together at most once per frame interval. */
class RunFrames {
  private pending = new Map<number, { position: number; delta: string }>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly send: (outputs: SuperFetchOutputsPayload['outputs']) => void) {}

  push(row: OutputRow, text: string): void {
    if (!text) return;
    const entry = this.pending.get(row.outputId);
    if (entry) entry.delta += text;
    else this.pending.set(row.outputId, { position: row.position, delta: text });
    this.timer ??= setTimeout(() => this.flush(), STREAM_FRAME_INTERVAL_MS);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return;
    const outputs = [...this.pending].map(([output_id, { position, delta }]) => ({ output_id, position, delta }));
    this.pending.clear();
    this.send(outputs);
  }
}

/** Starts every output of the run in the background; returns at once. */
export function startRun(ctx: AppContext, job: RunJob): void {
  const emit = (stream: boolean, outputs: SuperFetchOutputsPayload['outputs']) =>
    ctx.services.realtime?.emitToUser(job.userId, SocketEvents.superFetchOutputs, {
      run_id: job.runId,
      assistant_id: job.avatarId,
      stream,
      outputs,
      enhancePrompt: job.prompt,
    } satisfies SuperFetchOutputsPayload);
  const frames = new RunFrames((outputs) => emit(true, outputs));
  // Each output runs on its own, stoppable by the user under its key (stopSuperFetch); all are tagged
  // with their run's id, so cleaning the results stops the whole run.
  for (const { row, wordLimit } of job.outputs) {
    void runs.start(
      ctx,
      job.runId,
      (signal) =>
        writeOutput(ctx, job, row, wordLimit, signal, frames, (saved) => {
          frames.flush();
          emit(false, [presentOutput(saved)]);
        }),
      (err) => job.log.error({ err, outputId: row.outputId }, 'super fetch output failed'),
      outputStopKey(row.outputId),
    );
  }
}

async function writeOutput(
  ctx: AppContext,
  job: RunJob,
  row: OutputRow,
  wordLimit: number | null,
  stopSignal: AbortSignal,
  frames: RunFrames,
  ended: (saved: OutputRow) => void,
): Promise<void> {
  const where = and(eq(superFetchOutputs.outputId, row.outputId), inArray(superFetchOutputs.status, ['pending', 'streaming']));
  // Super Fetch is Personal only (spec part 2 §2), so the operator's keys write it.
  const { text, status, errorCode, error } = await streamWithinBudget({
    ai: ctx.services.ai,
    turns: () => job.turns,
    maxTokens: job.maxTokens,
    stopSignal,
    wordLimit,
    onText: (kept) => frames.push(row, kept),
    saveProgress: (content) => ctx.db.update(superFetchOutputs).set({ content, status: 'streaming', updatedAt: new Date() }).where(where),
    running: () => BackgroundRuns.runningIn(ctx),
  });
  if (errorCode && errorCode !== 'interrupted') job.log.error({ err: error, outputId: row.outputId }, 'super fetch output failed');
  const outcome = { status, errorCode };
  const [saved] = await ctx.db
    .update(superFetchOutputs)
    .set({ content: text, status: outcome.status, errorCode: outcome.errorCode, updatedAt: new Date() })
    .where(where)
    .returning();
  // Charged once for what it wrote, whatever the outcome (the charge releases the hold).
  await chargeWords(ctx.db, { userId: job.userId, sourceType: 'super_fetch', sourceId: row.holdId, words: countWords(text) });
  // Gone meanwhile (the results were cleaned): nothing to announce.
  if (saved) ended(saved);
}
