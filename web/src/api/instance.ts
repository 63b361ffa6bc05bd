// The app's single API client and token store.
import type { AuthResponse } from '@pluma/common/users';
import { currentLanguage } from '../i18n';
import { ApiClient } from './client';
import { fetchWithEarlyResponses } from './early-requests';
import { organizationStore } from './organization';
import { safeStorage } from './storage-keys';
import { createTokenStore } from './token-store';

const storage = safeStorage();
/** The shared session (localStorage), not a "view as" tab's own (sessionStorage). */
const sharedSession = storage !== null && storage === globalThis.localStorage;
export const tokenStore = createTokenStore(storage, { firstPaintCookie: sharedSession });

/** Web Locks keep two tabs from rotating the same token at once (the server revokes a reused token). */
function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? locks.request('pluma-token-refresh', task) : task();
}

interface SessionListener {
  onRefreshed?(response: AuthResponse): void;
  onSignedOut?(): void;
}
const sessionListeners = new Set<SessionListener>();

export const api = new ApiClient({
  tokens: tokenStore,
  language: currentLanguage,
  organizationId: () => organizationStore.get()?.organization_id ?? null,
  withRefreshLock,
  // The first GETs of a signed-in visit may already be on their way (index.html, early-requests.ts).
  fetch: fetchWithEarlyResponses,
  onSessionRefreshed: (response) => sessionListeners.forEach((l) => l.onRefreshed?.(response)),
  onSignedOut: () => sessionListeners.forEach((l) => l.onSignedOut?.()),
});

/** Lets the session layer hear about refreshed and ended sessions. */
export function listenToSession(listener: SessionListener): () => void {
  sessionListeners.add(listener);
  return () => {
    sessionListeners.delete(listener);
  };
}
