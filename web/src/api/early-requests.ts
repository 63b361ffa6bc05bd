// Requests index.html starts before the app's code has arrived: a signed-in visit's first GETs (the
// current user; on a conversation, the conversation, its newest messages and the models), so they are
// not queued behind the scripts, the session check and the screen's code. The API client takes each
// response once instead of asking again (instance.ts), when it asks for the same URL with the same
// token and language, soon enough; otherwise it asks the server as usual.

/** One request started by index.html's first-screen script (window.__plumaEarly, keyed by URL). */
export interface EarlyRequest {
  token: string;
  lang: string;
  /** Epoch ms when it was sent. */
  at: number;
  response: Promise<Response>;
}

declare global {
  interface Window {
    __plumaEarly?: Record<string, EarlyRequest>;
  }
}

/** Older than this, an early response is not used (the app asks again). */
export const EARLY_RESPONSE_MAX_AGE_MS = 15_000;

/**
 * The early response for this request, taken (each is used at most once), or null when there is none
 * that matches: a GET without a body for the same URL, token and language, sent less than
 * EARLY_RESPONSE_MAX_AGE_MS ago.
 */
export function takeEarlyResponse(url: string, init: RequestInit | undefined, early = earlyRequests(), now = Date.now()): Promise<Response> | null {
  const entry = early?.[url];
  if (!early || !entry) return null;
  delete early[url];
  const headers = new Headers(init?.headers);
  const matches =
    (init?.method ?? 'GET') === 'GET' &&
    init?.body == null &&
    headers.get('Authorization') === `Bearer ${entry.token}` &&
    (headers.get('Accept-Language') ?? '') === entry.lang &&
    now - entry.at >= 0 &&
    now - entry.at < EARLY_RESPONSE_MAX_AGE_MS;
  return matches ? entry.response : null;
}

function earlyRequests(): Record<string, EarlyRequest> | undefined {
  return typeof window === 'undefined' ? undefined : window.__plumaEarly;
}

/** fetch that answers from an early response when one matches (a failed one is asked again). */
export function fetchWithEarlyResponses(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const early = typeof input === 'string' ? takeEarlyResponse(input, init) : null;
  return early ? early.catch(() => globalThis.fetch(input, init)) : globalThis.fetch(input, init);
}
