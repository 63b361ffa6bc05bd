// The server's first paint of a signed-out screen (index.html #first-paint, server/src/platform/http/first-paint.ts)
// covers the app until the app shows a screen of its own: then it goes, in the same frame (a layout
// effect), so the visitor never sees a blank or a spinner between the two.
import { useLayoutEffect } from 'react';

/** Removes the first paint, if the page has one. */
export function removeFirstPaint(doc: Document = document) {
  doc.getElementById('first-paint')?.remove();
  doc.documentElement.removeAttribute('data-first-paint');
}

/** Rendered beside a screen (inside its Suspense boundary): once the screen has mounted, the picture goes. */
export function FirstPaintDone() {
  useLayoutEffect(() => removeFirstPaint(), []);
  return null;
}
