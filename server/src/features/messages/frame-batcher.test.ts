import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FrameBatcher, frameIntervalFor, FULL_RATE_STREAMS, MAX_FRAME_INTERVAL_MS } from './frame-batcher';

describe('FrameBatcher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the first delta at once, then at most one frame per interval with only the new text', () => {
    const frames: string[] = [];
    const batcher = new FrameBatcher((d) => frames.push(d), 16, () => Date.now());
    batcher.push('Hel');
    expect(frames).toEqual(['Hel']);
    batcher.push('lo');
    batcher.push(', ');
    batcher.push('world');
    expect(frames).toEqual(['Hel']);
    vi.advanceTimersByTime(16);
    expect(frames).toEqual(['Hel', 'lo, world']);
    batcher.push('!');
    batcher.flush();
    expect(frames).toEqual(['Hel', 'lo, world', '!']);
    vi.advanceTimersByTime(100);
    expect(frames).toHaveLength(3);
  });

  it('never sends two frames less than an interval apart, even when the timer fires early', () => {
    // The batcher's clock and the timers' clock differ (as Node's cached loop clock lags the real one).
    let clock = 1000;
    const sentAt: number[] = [];
    const batcher = new FrameBatcher(() => sentAt.push(clock), 16, () => clock);
    batcher.push('a');
    batcher.push('b');
    clock += 12;
    vi.advanceTimersByTime(16);
    expect(sentAt).toEqual([1000]);
    clock += 4;
    vi.advanceTimersByTime(4);
    expect(sentAt).toEqual([1000, 1016]);
  });

  it('sends nothing for empty deltas', () => {
    const frames: string[] = [];
    const batcher = new FrameBatcher((d) => frames.push(d), 16, () => Date.now());
    batcher.push('');
    batcher.flush();
    expect(frames).toEqual([]);
  });

  it('1000 deltas within 160 ms become at most about 11 frames', () => {
    const frames: string[] = [];
    const batcher = new FrameBatcher((d) => frames.push(d), 16, () => Date.now());
    for (let i = 0; i < 1000; i++) {
      batcher.push(`w${i} `);
      if (i % 100 === 99) vi.advanceTimersByTime(16);
    }
    batcher.flush();
    expect(frames.length).toBeLessThanOrEqual(12);
    expect(frames.join('')).toBe(Array.from({ length: 1000 }, (_, i) => `w${i} `).join(''));
  });

  it('spaces frames out when many answers stream at once, never beyond the widest spacing', () => {
    expect(frameIntervalFor(1)).toBe(16);
    expect(frameIntervalFor(FULL_RATE_STREAMS)).toBe(16);
    expect(frameIntervalFor(FULL_RATE_STREAMS * 4)).toBe(64);
    expect(frameIntervalFor(10_000)).toBe(MAX_FRAME_INTERVAL_MS);
  });

  it('asks a load-dependent interval at each frame, and still sends the first delta at once', () => {
    const frames: string[] = [];
    let interval = 16;
    const batcher = new FrameBatcher((d) => frames.push(d), () => interval, () => Date.now());
    interval = 64;
    batcher.push('a');
    batcher.push('b');
    vi.advanceTimersByTime(16);
    expect(frames).toEqual(['a']);
    vi.advanceTimersByTime(48);
    expect(frames).toEqual(['a', 'b']);
  });
});
