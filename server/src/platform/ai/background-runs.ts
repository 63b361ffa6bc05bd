// Generations that outlive their request but not the process (Super Fetch outputs, document generations,
// widget answers): each area keeps its running ones here, one set per app context (tests run several apps
// at once), and its routes' preClose stops them, so each is saved as failed 'interrupted' and charged for
// what it wrote before the process ends.
import { STREAM_POLL_MS } from '@pluma/common/events';
import { WordBudget } from '@pluma/common/rules/answer-words';
import { isStoppedByUser, registerStoppable } from './stops';
import { ProviderError, type AiService, type ChatTurn } from './types';

interface Run<T> {
  tag: T;
  controller: AbortController;
  done: Promise<void>;
}

export class BackgroundRuns<T = null> {
  /** Every area's registry, for stopAll. */
  private static readonly registries = new Set<BackgroundRuns<unknown>>();
  private readonly byContext = new WeakMap<object, Set<Run<T>>>();

  constructor() {
    BackgroundRuns.registries.add(this as BackgroundRuns<unknown>);
  }

  /**
   * Stops every area's runs of this context and waits until each has ended (saved as 'interrupted'). The
   * fuzz test calls it after an accepted request, so a generation it started cannot write during the next one.
   */
  static async stopAll(ctx: object): Promise<void> {
    await Promise.all([...BackgroundRuns.registries].map((registry) => registry.stop(ctx)));
  }

  /** How many generations every area runs for this context (the save cadence's load: saveIntervalFor). */
  static runningIn(ctx: object): number {
    let count = 0;
    for (const registry of BackgroundRuns.registries) count += registry.byContext.get(ctx)?.size ?? 0;
    return count;
  }

  private runsOf(ctx: object): Set<Run<T>> {
    let runs = this.byContext.get(ctx);
    if (!runs) this.byContext.set(ctx, (runs = new Set()));
    return runs;
  }

  /**
   * Starts `work` with a stop signal; its error goes to `onError`. The promise settles when it has ended.
   * With a `stopKey` ('super-fetch-output:{id}'...), a user's Stop can end it (stops.ts).
   */
  start(ctx: object, tag: T, work: (signal: AbortSignal) => Promise<unknown>, onError: (err: unknown) => void, stopKey?: string): Promise<void> {
    const runs = this.runsOf(ctx);
    const controller = new AbortController();
    const run: Run<T> = { tag, controller, done: Promise.resolve() };
    runs.add(run);
    run.done = work(controller.signal)
      .then(() => undefined, onError)
      .finally(() => runs.delete(run));
    if (stopKey) registerStoppable(ctx, stopKey, controller, run.done);
    return run.done;
  }

  /** Stops the runs whose tag matches (all by default) and waits until each has ended. */
  async stop(ctx: object, match: (tag: T) => boolean = () => true): Promise<void> {
    const matching = [...this.runsOf(ctx)].filter((run) => match(run.tag));
    for (const run of matching) run.controller.abort();
    await Promise.all(matching.map((run) => run.done));
  }
}

/** The error code saved on a generation that failed: the provider's, 'interrupted' when stopped, else generic. */
export function generationErrorCode(err: unknown, signal: AbortSignal): string {
  if (err instanceof ProviderError) return err.code ?? `provider_${err.status}`;
  return signal.aborted ? 'interrupted' : 'generation_failed';
}

/** A reload mid-stream shows the text saved at most this long ago (while few generations run: saveIntervalFor). */
export const SAVE_INTERVAL_MS = 500;
/** Generations one process saves at the full cadence (every SAVE_INTERVAL_MS). */
export const FULL_RATE_SAVES = 20;

/**
 * How often a generation saves its text when `running` generations run in this process: every SAVE_INTERVAL_MS
 * up to FULL_RATE_SAVES, then spaced out so the database gets about as many saves a second in all, but never
 * further apart than a reloaded screen reads them (STREAM_POLL_MS). Each save is a statement and a socket
 * write to the database: at 100 answers streaming, ten saves per answer were the largest system cost of the
 * server (bench/chat-cpu.mjs, issue 31 item 2). The frames are not affected; the final text is saved whole.
 */
export function saveIntervalFor(running: number): number {
  return Math.min(STREAM_POLL_MS, SAVE_INTERVAL_MS * Math.max(1, running / FULL_RATE_SAVES));
}
/** A generation that has not finished after this long is stopped (and saved as failed). */
export const GENERATION_TIMEOUT_MS = 10 * 60_000;

export interface BudgetedStreamOptions {
  ai: AiService | undefined;
  /** The turns, built inside: a failure to build them fails the generation like a provider error. */
  turns: () => ChatTurn[] | Promise<ChatTurn[]>;
  maxTokens: number;
  /** Stops it (the process is closing, the results were removed); it also ends after GENERATION_TIMEOUT_MS. */
  stopSignal: AbortSignal;
  /** The words held for it (null: no limit — staff, unlimited balance). It ends when they are written. */
  wordLimit: number | null;
  /** Each piece of text kept, as it comes (for the frames). */
  onText: (text: string) => void;
  /** Saves the text so far: at most every saveIntervalFor(running()), one save at a time. */
  saveProgress: (text: string) => Promise<unknown>;
  /** How many generations run in the process now (BackgroundRuns.runningIn): many space their saves out. */
  running: () => number;
}

export interface StreamOutcome {
  text: string;
  /** 'stopped': the user stopped it (stops.ts); the text written is kept and charged. */
  status: 'done' | 'failed' | 'stopped';
  errorCode: string | null;
  /** The failure, to log unless it was 'interrupted'. */
  error?: unknown;
}

/**
 * Streams one answer on the operator's default model within its word hold (credits/holds.ts), saving the
 * text as it goes. Never throws: a failure part-way keeps the text written. When it returns, the progress
 * saves have settled, so the caller's final save comes last.
 */
export async function streamWithinBudget(options: BudgetedStreamOptions): Promise<StreamOutcome> {
  const signal = AbortSignal.any([options.stopSignal, AbortSignal.timeout(GENERATION_TIMEOUT_MS)]);
  const budget = options.wordLimit === null ? null : new WordBudget(options.wordLimit);
  let text = '';
  let savedAt = Date.now();
  let saving: Promise<unknown> = Promise.resolve();
  let outcome: Omit<StreamOutcome, 'text'> = { status: 'done', errorCode: null };
  try {
    if (!options.ai) throw new ProviderError('demo', 503, 'ai_unavailable', 'The AI service is not configured.');
    const messages = await options.turns();
    for await (const event of options.ai.stream({ model: null, messages, maxTokens: options.maxTokens, signal })) {
      if (signal.aborted) throw signal.reason;
      if (event.type !== 'delta' || !event.text) continue;
      const kept = budget ? budget.take(event.text) : event.text;
      text += kept;
      options.onText(kept);
      // The count is read only once the shortest interval has passed (not for every piece).
      if (Date.now() - savedAt >= SAVE_INTERVAL_MS && Date.now() - savedAt >= saveIntervalFor(options.running())) {
        savedAt = Date.now();
        const content = text;
        saving = saving.then(() => options.saveProgress(content));
      }
      // The hold is written: the answer ends here.
      if (budget?.exhausted) break;
    }
  } catch (err) {
    outcome = isStoppedByUser(options.stopSignal)
      ? { status: 'stopped', errorCode: null }
      : { status: 'failed', errorCode: generationErrorCode(err, signal), error: err };
  }
  await saving.catch(() => undefined);
  return { text, ...outcome };
}
