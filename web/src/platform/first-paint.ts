// What the first screen does not need waits until it has been painted: code fetched before then shares
// the network and the main thread with the screen (on a slow phone, the screen appears later).
// Resolves once the page has had its first contentful paint (Paint Timing), on the next task; at
// once where the browser cannot tell (no PerformanceObserver, as in tests), and after FALLBACK_MS at most.

/** The longest wait, for a page that paints nothing (an error before any content). */
export const FIRST_PAINT_FALLBACK_MS = 5000;

let firstPaint: Promise<void> | null = null;

export function afterFirstPaint(): Promise<void> {
  firstPaint ??= new Promise<void>((resolve) => {
    const done = () => setTimeout(resolve, 0);
    const painted = () => performance.getEntriesByName('first-contentful-paint').length > 0;
    if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint') || painted()) {
      resolve();
      return;
    }
    const observer = new PerformanceObserver((list) => {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      done();
    });
    observer.observe({ type: 'paint', buffered: true });
    setTimeout(() => {
      observer.disconnect();
      resolve();
    }, FIRST_PAINT_FALLBACK_MS);
  });
  return firstPaint;
}

/** Forgets the first paint (tests). */
export function resetFirstPaint() {
  firstPaint = null;
}
