import { describe, expect, it } from 'vitest';
import { startEarly } from './early-answer';

/** A provider stream that records what happened to it: started, aborted, ended by its consumer. */
function recorded(events: string[]) {
  const log: string[] = [];
  let signal: AbortSignal | null = null;
  const open = (s: AbortSignal) => {
    signal = s;
    return (async function* () {
      log.push('request sent');
      try {
        for (const event of events) {
          if (s.aborted) throw new Error('aborted');
          yield event;
        }
      } finally {
        log.push('ended');
      }
    })();
  };
  return { open, log, signal: () => signal };
}

async function all<E>(events: AsyncIterable<E>): Promise<E[]> {
  const out: E[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('startEarly', () => {
  it('sends the request at once and hands every event over in order when taken', async () => {
    const provider = recorded(['a', 'b', 'c']);
    const early = startEarly(provider.open);
    expect(provider.log).toEqual(['request sent']);
    expect(await all(early.take(new AbortController().signal))).toEqual(['a', 'b', 'c']);
    expect(provider.log).toEqual(['request sent', 'ended']);
  });

  it('aborts the request when cancelled, and its failure reaches nobody', async () => {
    const provider = recorded(['a', 'b']);
    const early = startEarly(provider.open);
    early.cancel();
    expect(provider.signal()?.aborted).toBe(true);
    // No unhandled rejection: vitest fails the run on one.
    await new Promise((resolve) => setImmediate(resolve));
  });

  it("aborts the request with the generation's signal and its reason", async () => {
    const provider = recorded(['a', 'b']);
    const generation = new AbortController();
    const events = startEarly(provider.open).take(generation.signal)[Symbol.asyncIterator]();
    expect(await events.next()).toEqual({ done: false, value: 'a' });
    const reason = new Error('stopped by the user');
    generation.abort(reason);
    expect(provider.signal()?.reason).toBe(reason);
    await expect(events.next()).rejects.toThrow('aborted');
  });

  it('ends the request when the consumer stops after the first event', async () => {
    const provider = recorded(['a', 'b', 'c']);
    for await (const event of startEarly(provider.open).take(new AbortController().signal)) {
      expect(event).toBe('a');
      break;
    }
    expect(provider.log).toEqual(['request sent', 'ended']);
  });

  it('passes a failure of the request to the generation that takes it', async () => {
    const early = startEarly(async function* () {
      yield* [];
      throw new Error('provider down');
    });
    await expect(all(early.take(new AbortController().signal))).rejects.toThrow('provider down');
  });
});
