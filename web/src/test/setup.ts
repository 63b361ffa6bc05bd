// jsdom gaps that Mantine relies on, jest-dom matchers, and a clean slate between tests.
import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= () => undefined;
window.HTMLElement.prototype.scrollTo ??= () => undefined;
// Mantine's autosize textarea listens for web fonts, which jsdom does not have.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { configurable: true, value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
}
// Mantine's ScrollArea and Modal read computed styles jsdom leaves empty; that's fine for behaviour tests.

// findBy*/waitFor give up after 5 s rather than Testing Library's 1 s: a screen's first render imports its
// lazy chunks through Vite's transform, which on a loaded 2-core machine (CI runs the suites side by side)
// took over a second. A screen that never appears still fails.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  // App-wide alerts live in a module store that outlives the rendered tree.
  notifications.clean();
  localStorage.clear();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
