// Generations that outlive their request but not the process (Super Fetch outputs, document generations,
// widget answers): each area keeps its running ones here, one set per app context (tests run several apps
// at once), and its routes' preClose stops them, so each is saved as failed 'interrupted' and charged for
// what it wrote before the process ends.
import { ProviderError } from './types';

interface Run<T> {
  tag: T;
  controller: AbortController;
  done: Promise<void>;
}

export class BackgroundRuns<T = null> {
  private readonly byContext = new WeakMap<object, Set<Run<T>>>();

  private runsOf(ctx: object): Set<Run<T>> {
    let runs = this.byContext.get(ctx);
    if (!runs) this.byContext.set(ctx, (runs = new Set()));
    return runs;
  }

  /** Starts `work` with a stop signal; its error goes to `onError`. The promise settles when it has ended. */
  start(ctx: object, tag: T, work: (signal: AbortSignal) => Promise<unknown>, onError: (err: unknown) => void): Promise<void> {
    const runs = this.runsOf(ctx);
    const controller = new AbortController();
    const run: Run<T> = { tag, controller, done: Promise.resolve() };
    runs.add(run);
    run.done = work(controller.signal)
      .then(() => undefined, onError)
      .finally(() => runs.delete(run));
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
