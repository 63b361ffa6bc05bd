// The server's first paint (index.html #first-paint, server/src/platform/http/first-paint.ts) covers the app
// until the app shows a screen of its own: then it goes, in the same frame (a layout effect), so the visitor
// never sees a blank or a spinner between the two. A signed-in screen's picture (an open conversation, marked
// `data-first-paint-screen` on <html>) waits for that screen's own content instead of the shell's first
// render: the screen removes it (features/chat/ConversationPage.tsx), or the wait below runs out.
import { useLayoutEffect } from 'react';

/** How long a signed-in screen's picture may wait for the screen (a redirect, a slow API) before it goes anyway. */
export const SCREEN_WAIT_MS = 8_000;

/** Removes the first paint, if the page has one. */
export function removeFirstPaint(doc: Document = document) {
  doc.getElementById('first-paint')?.remove();
  doc.documentElement.removeAttribute('data-first-paint');
  doc.documentElement.removeAttribute('data-first-paint-screen');
}

/** Removes it after the current render (from a render path, where a layout effect is not at hand). */
export function removeFirstPaintSoon() {
  if (typeof document !== 'undefined' && document.getElementById('first-paint')) queueMicrotask(() => removeFirstPaint());
}

/**
 * Rendered beside a screen (inside its Suspense boundary): once the screen has mounted, the picture goes —
 * at once for a signed-out screen, after SCREEN_WAIT_MS at most for a signed-in one.
 */
export function FirstPaintDone() {
  useLayoutEffect(() => {
    if (!document.documentElement.hasAttribute('data-first-paint-screen')) {
      removeFirstPaint();
      return;
    }
    const timer = setTimeout(() => removeFirstPaint(), SCREEN_WAIT_MS);
    return () => clearTimeout(timer);
  }, []);
  return null;
}
