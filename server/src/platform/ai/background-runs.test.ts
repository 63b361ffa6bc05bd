import { describe, expect, it } from 'vitest';
import { BackgroundRuns, generationErrorCode } from './background-runs';
import { ProviderError } from './types';

/** Work that runs until stopped, then records how it ended. */
const untilStopped = (ended: string[], name: string) => (signal: AbortSignal) =>
  new Promise<void>((resolve) => signal.addEventListener('abort', () => (ended.push(name), resolve())));

describe('BackgroundRuns', () => {
  it('stops only the matching runs, per app context, and waits for them to end', async () => {
    const runs = new BackgroundRuns<number>();
    const ctxA = {};
    const ctxB = {};
    const ended: string[] = [];
    const errors: unknown[] = [];
    void runs.start(ctxA, 1, untilStopped(ended, 'a1'), (e) => errors.push(e));
    void runs.start(ctxA, 2, untilStopped(ended, 'a2'), (e) => errors.push(e));
    void runs.start(ctxB, 1, untilStopped(ended, 'b1'), (e) => errors.push(e));
    await runs.stop(ctxA, (id) => id === 2);
    expect(ended).toEqual(['a2']);
    await runs.stop(ctxA);
    expect(ended).toEqual(['a2', 'a1']);
    await runs.stop(ctxB);
    expect(ended).toEqual(['a2', 'a1', 'b1']);
    expect(errors).toEqual([]);
  });

  it('hands a failure to onError and forgets the run', async () => {
    const runs = new BackgroundRuns();
    const ctx = {};
    const errors: unknown[] = [];
    await runs.start(ctx, null, async () => Promise.reject(new Error('boom')), (e) => errors.push(e));
    expect(errors).toHaveLength(1);
    await runs.stop(ctx); // nothing left to stop
  });

  it('names the error saved on a failed generation', () => {
    const stopped = new AbortController();
    stopped.abort();
    expect(generationErrorCode(new ProviderError('openai', 429, 'rate_limit_exceeded', 'slow down'), new AbortController().signal)).toBe('rate_limit_exceeded');
    expect(generationErrorCode(new Error('x'), stopped.signal)).toBe('interrupted');
    expect(generationErrorCode(new Error('x'), new AbortController().signal)).toBe('generation_failed');
  });
});
