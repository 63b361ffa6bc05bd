import { afterEach, describe, expect, it, vi } from 'vitest';
import { STREAM_POLL_MS } from '@pluma/common/events';
import { BackgroundRuns, FULL_RATE_SAVES, generationErrorCode, SAVE_INTERVAL_MS, saveIntervalFor, streamWithinBudget } from './background-runs';
import { ProviderError, type AiService, type ChatStreamEvent } from './types';

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

  it('counts the runs of every area for one app context', async () => {
    const chats = new BackgroundRuns();
    const documents = new BackgroundRuns();
    const [ctxA, ctxB] = [{}, {}];
    const ended: string[] = [];
    void chats.start(ctxA, null, untilStopped(ended, 'a1'), () => undefined);
    void documents.start(ctxA, null, untilStopped(ended, 'a2'), () => undefined);
    void documents.start(ctxB, null, untilStopped(ended, 'b1'), () => undefined);
    expect([BackgroundRuns.runningIn(ctxA), BackgroundRuns.runningIn(ctxB), BackgroundRuns.runningIn({})]).toEqual([2, 1, 0]);
    await BackgroundRuns.stopAll(ctxA);
    expect(BackgroundRuns.runningIn(ctxA)).toBe(0);
    await BackgroundRuns.stopAll(ctxB);
  });

  it('names the error saved on a failed generation', () => {
    const stopped = new AbortController();
    stopped.abort();
    expect(generationErrorCode(new ProviderError('openai', 429, 'rate_limit_exceeded', 'slow down'), new AbortController().signal)).toBe('rate_limit_exceeded');
    expect(generationErrorCode(new Error('x'), stopped.signal)).toBe('interrupted');
    expect(generationErrorCode(new Error('x'), new AbortController().signal)).toBe('generation_failed');
  });
});

/** An AI service whose answer is `pieces`, failing after them when `failWith` is given. */
function fakeAi(pieces: string[], failWith?: Error): AiService {
  return {
    listModels: async () => [],
    providerOf: async () => 'openai',
    async *stream(): AsyncGenerator<ChatStreamEvent> {
      for (const text of pieces) yield { type: 'delta', text };
      if (failWith) throw failWith;
      yield { type: 'done', finishReason: 'stop', usage: null };
    },
  };
}

describe('streamWithinBudget', () => {
  const base = { turns: () => [{ role: 'user' as const, content: 'hi' }], maxTokens: 100, saveProgress: async () => undefined, running: () => 1 };

  it('passes every piece on and ends done', async () => {
    const seen: string[] = [];
    const out = await streamWithinBudget({ ...base, ai: fakeAi(['one ', 'two ', 'three']), stopSignal: new AbortController().signal, wordLimit: null, onText: (t) => seen.push(t) });
    expect(out).toMatchObject({ text: 'one two three', status: 'done', errorCode: null });
    expect(seen.join('')).toBe('one two three');
  });

  it('stops when the words held are written', async () => {
    const out = await streamWithinBudget({ ...base, ai: fakeAi(['one two ', 'three four ', 'five six']), stopSignal: new AbortController().signal, wordLimit: 3, onText: () => undefined });
    expect(out.status).toBe('done');
    expect(out.text.trim().split(/\s+/)).toHaveLength(3);
  });

  it('keeps the text written before a provider failure, with its code', async () => {
    const failure = new ProviderError('openai', 500, 'server_error', 'down');
    const out = await streamWithinBudget({ ...base, ai: fakeAi(['partial '], failure), stopSignal: new AbortController().signal, wordLimit: null, onText: () => undefined });
    expect(out).toMatchObject({ text: 'partial ', status: 'failed', errorCode: 'server_error', error: failure });
  });

  it('fails without an AI service or when its turns cannot be built, and when stopped says interrupted', async () => {
    const none = await streamWithinBudget({ ...base, ai: undefined, stopSignal: new AbortController().signal, wordLimit: null, onText: () => undefined });
    expect(none).toMatchObject({ status: 'failed', errorCode: 'ai_unavailable' });
    const badTurns = await streamWithinBudget({ ...base, turns: () => Promise.reject(new Error('no avatar')), ai: fakeAi(['x']), stopSignal: new AbortController().signal, wordLimit: null, onText: () => undefined });
    expect(badTurns).toMatchObject({ text: '', status: 'failed', errorCode: 'generation_failed' });
    const stop = new AbortController();
    stop.abort();
    const stopped = await streamWithinBudget({ ...base, ai: fakeAi(['x']), stopSignal: stop.signal, wordLimit: null, onText: () => undefined });
    expect(stopped).toMatchObject({ status: 'failed', errorCode: 'interrupted' });
  });
});

describe('saveIntervalFor', () => {
  afterEach(() => vi.useRealTimers());

  it("spaces a streamed generation's saves out when many run", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // Each piece comes 600 ms after the one before.
    const slowAi: AiService = {
      ...fakeAi([]),
      async *stream(): AsyncGenerator<ChatStreamEvent> {
        for (let i = 0; i < 9; i++) {
          vi.setSystemTime(Date.now() + 600);
          yield { type: 'delta', text: `w${i} ` };
        }
      },
    };
    const savesWith = async (running: number) => {
      const saved: string[] = [];
      const options = { turns: () => [], maxTokens: 100, ai: slowAi, stopSignal: new AbortController().signal, wordLimit: null, onText: () => undefined };
      await streamWithinBudget({ ...options, running: () => running, saveProgress: async (text) => void saved.push(text) });
      return saved.length;
    };
    expect(await savesWith(1)).toBe(9); // every 500 ms: each piece
    expect(await savesWith(FULL_RATE_SAVES * 10)).toBe(3); // every 1.5 s: each third piece
  });

  it('saves every SAVE_INTERVAL_MS while few generations run, then less often, never further apart than a reloaded screen reads', () => {
    expect(saveIntervalFor(0)).toBe(SAVE_INTERVAL_MS);
    expect(saveIntervalFor(FULL_RATE_SAVES)).toBe(SAVE_INTERVAL_MS);
    expect(saveIntervalFor(FULL_RATE_SAVES * 2)).toBe(SAVE_INTERVAL_MS * 2);
    expect(saveIntervalFor(10_000)).toBe(STREAM_POLL_MS);
  });
});
