import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFirstPaint, FIRST_PAINT_FALLBACK_MS, resetFirstPaint } from './first-paint';

type Callback = (list: { getEntriesByName(name: string): unknown[] }) => void;

function stubPaintTiming() {
  const observers: Callback[] = [];
  class FakeObserver {
    static supportedEntryTypes = ['paint'];
    constructor(private readonly callback: Callback) {}
    observe() {
      observers.push(this.callback);
    }
    disconnect() {}
  }
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  return { paint: (name: string) => observers.forEach((callback) => callback({ getEntriesByName: (wanted) => (wanted === name ? [{}] : []) })) };
}

afterEach(() => {
  resetFirstPaint();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('afterFirstPaint', () => {
  it('resolves at once where paint timing is not available', async () => {
    vi.stubGlobal('PerformanceObserver', undefined);
    await expect(afterFirstPaint()).resolves.toBeUndefined();
  });

  it('waits for the first contentful paint, not the first paint', async () => {
    vi.useFakeTimers();
    const timing = stubPaintTiming();
    let resolved = false;
    void afterFirstPaint().then(() => (resolved = true));
    timing.paint('first-paint');
    await vi.advanceTimersByTimeAsync(10);
    expect(resolved).toBe(false);
    timing.paint('first-contentful-paint');
    await vi.advanceTimersByTimeAsync(1);
    expect(resolved).toBe(true);
  });

  it('gives up waiting after a while', async () => {
    vi.useFakeTimers();
    stubPaintTiming();
    let resolved = false;
    void afterFirstPaint().then(() => (resolved = true));
    await vi.advanceTimersByTimeAsync(FIRST_PAINT_FALLBACK_MS);
    expect(resolved).toBe(true);
  });
});
