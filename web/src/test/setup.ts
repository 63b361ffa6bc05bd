// jsdom gaps that Mantine relies on, jest-dom matchers, and a clean slate between tests.
// Test files share one module graph and one jsdom page per worker (isolate: false, web/vitest.config.ts):
// after each test, the page and every piece of module state go back to what a new page load has.
import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { DEFAULT_LANG } from '@pluma/common/constants';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { resetOrganizationStoreForTests } from '../api/organization';
import { resetSocketForTests } from '../api/socket';
import { FIRST_PAINT_COOKIE } from '../api/token-store';
import { resetFirstConfigForTests } from '../platform/config/app-config';
import { resetFirstPaint } from '../platform/first-paint';
import { resetBreadcrumbLabelsForTests } from '../platform/shell/breadcrumb-labels';
import { resetFirstPromptsForTests } from '../features/chat/first-prompt';
import { resetCodeHighlighterForTests } from '../features/chat/use-code-highlighter';
import { resetStripeLoaderForTests } from '../features/checkout/stripe-loader';
import { resetOrganizationSelection } from '../features/organizations/organization-context';
import { resetPayPalDemoScriptForTests } from '../features/paypal/demo-script';
import { i18n } from '../i18n';
import { resetScreenTitleForTests } from '../ui/use-page-title';

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
// jsdom has no object URLs. A test that checks a download stubs URL with its own; these only keep a
// download's deferred revokeObjectURL (ui/download.ts) from failing once that stub is gone.
URL.createObjectURL ??= () => 'blob:jsdom';
URL.revokeObjectURL ??= () => undefined;

// findBy*/waitFor give up after 5 s rather than Testing Library's 1 s: a screen's first render imports its
// lazy chunks through Vite's transform, which on a loaded 2-core machine (CI runs the suites side by side)
// took over a second. A screen that never appears still fails.
configure({ asyncUtilTimeout: 5000 });

/**
 * Module state of the app, back to a new page's. Every module-level variable, cache or subscriber list in
 * web/src that a test can change belongs here (docs/testing.md). State keyed by the app's query client
 * needs no reset (each render has its own client): the session bootstrap (SessionProvider.tsx) and the
 * prefetched chat pages (features/chat/chat-api.ts). Pure caches of constant data need none either
 * (ui/server-text.ts, DocumentHtml.tsx's DOMPurify hook).
 */
function resetModuleState() {
  // The real-time connection (api/socket.ts): no connection, status, or event subscriptions.
  resetSocketForTests();
  // The active organization (api/organization.ts), read by the API client for every request.
  resetOrganizationStoreForTests();
  // Which user's organization was chosen in this page load (organizations/organization-context.tsx).
  resetOrganizationSelection();
  // The configuration fetched before the first render (platform/config/app-config.ts, main.tsx).
  resetFirstConfigForTests();
  // The first contentful paint, awaited before the notifications load (platform/first-paint.ts).
  resetFirstPaint();
  // Crumb labels screens give their own path (platform/shell/breadcrumb-labels.ts).
  resetBreadcrumbLabelsForTests();
  // The tab title a screen asked for (ui/use-page-title.ts).
  resetScreenTitleForTests();
  // A prompt typed on the list, waiting for its new conversation's screen (chat/first-prompt.ts).
  resetFirstPromptsForTests();
  // The code highlighter's chunk, loaded once per page (chat/use-code-highlighter.ts).
  resetCodeHighlighterForTests();
  // Stripe.js and PayPal's demo script, loaded once per URL (checkout/stripe-loader.ts, paypal/demo-script.ts).
  resetStripeLoaderForTests();
  resetPayPalDemoScriptForTests();
  // App-wide alerts live in Mantine's notifications store, which outlives the rendered tree.
  notifications.clean();
}

/** The jsdom page, back to a new one's: head, body, attributes, title, URL, storage, cookies, globals. */
function resetPage() {
  document.head.replaceChildren();
  document.body.replaceChildren();
  for (const element of [document.documentElement, document.head, document.body]) {
    for (const name of element.getAttributeNames()) element.removeAttribute(name);
  }
  document.title = '';
  window.history.replaceState(null, '', '/');
  localStorage.clear();
  sessionStorage.clear();
  // The first-paint cookie lives under /conversations (api/token-store.ts); others under /.
  document.cookie = `${FIRST_PAINT_COOKIE}=; Path=/conversations; Max-Age=0`;
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0].trim();
    if (name) document.cookie = `${name}=; Path=/; Max-Age=0`;
  }
  // Set by the page or by loaded scripts: early requests (index.html), Stripe.js, PayPal's SDK, and the
  // clipboard tests (and user-event) put on navigator.
  const globals = window as unknown as Record<string, unknown>;
  for (const name of ['__plumaEarly', 'Stripe', 'paypal']) delete globals[name];
  delete (navigator as unknown as Record<string, unknown>).clipboard;
}

afterEach(async () => {
  cleanup();
  resetModuleState();
  resetPage();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  // The language a new page starts in (i18n/index.ts): no saved choice, jsdom's browser says en-US.
  await i18n.changeLanguage(DEFAULT_LANG);
  document.documentElement.lang = DEFAULT_LANG;
});
