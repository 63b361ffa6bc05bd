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

export function createTokenStore(storage: Storage | null): TokenStore {
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
      notify();
    },
    clear() {
      memoryToken = null;
      memoryRefresh = null;
      write(STORAGE_KEYS.token, null);
      write(STORAGE_KEYS.lastRefresh, null);
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
