// Receipts render a few at a time with a short queue; beyond it, 503 receipt_busy (nothing waits unbounded).
import { afterEach, describe, expect, it } from 'vitest';
import { bounded, RECEIPT_LIMITS } from './receipt-queue';

const saved = { ...RECEIPT_LIMITS };
afterEach(() => Object.assign(RECEIPT_LIMITS, saved));

describe('bounded receipt rendering', () => {
  it('runs `concurrent` at once, queues `queued` more, refuses the rest with 503, and passes slots on', async () => {
    Object.assign(RECEIPT_LIMITS, { concurrent: 2, queued: 1 });
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const job = (n: number) => () =>
      new Promise<number>((resolve) => {
        started.push(n);
        releases.push(() => resolve(n));
      });
    const runs = [1, 2, 3].map((n) => bounded(job(n)));
    await Promise.resolve();
    expect(started).toEqual([1, 2]);
    await expect(bounded(job(4))).rejects.toMatchObject({ status: 503, errorId: 'receipt_busy' });
    releases[0]();
    await runs[0];
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual([1, 2, 3]);
    releases[1]();
    releases[2]();
    expect(await Promise.all(runs)).toEqual([1, 2, 3]);
    // All slots are free again.
    expect(await Promise.all([bounded(async () => 'a'), bounded(async () => 'b')])).toEqual(['a', 'b']);
  });

  it('frees the slot when a render fails', async () => {
    Object.assign(RECEIPT_LIMITS, { concurrent: 1, queued: 0 });
    await expect(bounded(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await bounded(async () => 'ok')).toBe('ok');
  });
});
