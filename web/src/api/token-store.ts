// The session token and the time of its last refresh, in localStorage so every tab shares one session.
// Other tabs learn about sign-in/sign-out through the 'storage' event.
import { STORAGE_KEYS } from './storage-keys';

type Listener = () => void;

export interface TokenStore {
  getToken(): string | null;
  /** Epoch ms of the last refresh (or sign-in); null when unknown. */
  getLastRefresh(): number | null;
  setSession(token: string, refreshedAt: number): void;
  clear(): void;
  subscribe(listener: Listener): () => void;
}

/**
 * The first-paint cookie: a copy of the token the server reads for one thing only, drawing an open
 * conversation into the page before the scripts run (server/src/platform/http/web-app.ts FIRST_PAINT_COOKIE;
 * no API route accepts it). Sent only with page loads under /conversations of this site (Path, SameSite=Strict);
 * readable by the page's scripts as the token in localStorage is, so it exposes nothing more.
 */
export const FIRST_PAINT_COOKIE = 'pluma_fp';
const FIRST_PAINT_COOKIE_PATH = '/conversations';
const SESSION_MAX_AGE_S = 30 * 24 * 3600;

function writeFirstPaintCookie(token: string | null) {
  try {
    const secure = window.location.protocol === 'https:' ? '; Secure' : '';
    const value = token ?? '';
    const maxAge = token ? SESSION_MAX_AGE_S : 0;
    document.cookie = `${FIRST_PAINT_COOKIE}=${value}; Path=${FIRST_PAINT_COOKIE_PATH}; Max-Age=${maxAge}; SameSite=Strict${secure}`;
  } catch {
    // No cookies: the conversation is drawn by the app alone, as before.
  }
}

/**
 * `firstPaintCookie`: keep the first-paint cookie in step with the token (the browser's shared session only;
 * a "view as" tab's session stays in that tab).
 */
export function createTokenStore(storage: Storage | null, options: { firstPaintCookie?: boolean } = {}): TokenStore {
  const cookie = options.firstPaintCookie ? writeFirstPaintCookie : () => undefined;
  const listeners = new Set<Listener>();
  // Fallback when storage is unavailable: the session lives as long as the page.
  let memoryToken: string | null = null;
  let memoryRefresh: number | null = null;
  const notify = () => listeners.forEach((listener) => listener());

  const read = (key: string): string | null => {
    try {
      return storage ? storage.getItem(key) : null;
    } catch {
      return null;
    }
  };
  const write = (key: string, value: string | null) => {
    try {
      if (!storage) return;
      if (value === null) storage.removeItem(key);
      else storage.setItem(key, value);
    } catch {
      // Quota or privacy mode: the in-memory copy still works for this page.
    }
  };

  // A session from before the cookie existed, or one ended in another way, gets it in step now.
  if (options.firstPaintCookie) cookie(read(STORAGE_KEYS.token));

  if (storage && typeof window !== 'undefined') {
    window.addEventListener('storage', (event) => {
      if (event.key === null || event.key === STORAGE_KEYS.token) notify();
    });
  }

  return {
    getToken: () => (storage ? read(STORAGE_KEYS.token) : memoryToken),
    getLastRefresh() {
      const raw = storage ? read(STORAGE_KEYS.lastRefresh) : memoryRefresh;
      const value = raw === null ? null : Number(raw);
      return value !== null && Number.isFinite(value) ? value : null;
    },
    setSession(token, refreshedAt) {
      memoryToken = token;
      memoryRefresh = refreshedAt;
      write(STORAGE_KEYS.token, token);
      write(STORAGE_KEYS.lastRefresh, String(refreshedAt));
      cookie(token);
      notify();
    },
    clear() {
      memoryToken = null;
      memoryRefresh = null;
      write(STORAGE_KEYS.token, null);
      write(STORAGE_KEYS.lastRefresh, null);
      cookie(null);
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
