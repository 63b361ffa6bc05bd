import { afterEach, describe, expect, it, vi } from 'vitest';
import { every } from './every';

describe('every', () => {
  afterEach(() => vi.useRealTimers());

  it('runs the work each interval, skips a tick while a run is still going, reports errors, and stops', async () => {
    vi.useFakeTimers();
    let finish: () => void = () => {};
    const work = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const errors: unknown[] = [];
    const stop = every(100, work, (err) => errors.push(err));
    await vi.advanceTimersByTimeAsync(100);
    expect(work).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(300);
    expect(work).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(100);
    expect(work).toHaveBeenCalledTimes(2);
    finish();
    work.mockImplementationOnce(() => Promise.reject(new Error('boom')));
    await vi.advanceTimersByTimeAsync(100);
    expect(errors).toEqual([new Error('boom')]);
    stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(work).toHaveBeenCalledTimes(3);
  });
});
