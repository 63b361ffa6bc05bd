// Keys this app keeps in localStorage (spec part 1 §4 and §9).
export const STORAGE_KEYS = {
  /** Opaque session token (Authorization: Bearer). */
  token: 'token',
  /** Epoch ms of the last token refresh (spec part 1 §4: refresh when 15 minutes old or more). */
  lastRefresh: 'lastRefresh',
  /** When present, the next load signs the user out (spec part 1 §4). */
  forceRefresh: 'forceRefresh',
  /** Interface language, 'en' or 'es' (spec part 1 §9). */
  lang: 'lang',
  /** Pending sign-in uid from the URL, kept 5 minutes: JSON { uid, expiresAt }. */
  pendingUid: 'pendingUid',
  /** Last chosen organization (spec part 2 §4 selection order: URL, then this, then the default). */
  organizationId: 'organization_id',
} as const;

/**
 * A tab a staff admin opened with "log in as the user" (`?view_as=1`, features/admin-users) keeps its
 * session in sessionStorage: that tab only, so the admin's own session in localStorage (their other tabs)
 * is left alone. The mark itself lives in that tab's sessionStorage, so a reload stays in the same session.
 */
export const VIEW_AS_FLAG = 'pluma.viewAs';

function isViewAsTab(): boolean {
  try {
    if (new URLSearchParams(window.location.search).get('view_as') === '1') window.sessionStorage.setItem(VIEW_AS_FLAG, '1');
    return window.sessionStorage.getItem(VIEW_AS_FLAG) === '1';
  } catch {
    return false;
  }
}

/** Leaves "view as" mode: this tab goes back to the shared localStorage (the admin's session). */
export function endViewAsTab() {
  try {
    window.sessionStorage.clear();
  } catch {
    // Nothing was kept.
  }
}

/** localStorage (sessionStorage in a "view as" tab) that never throws (private mode, disabled storage, quota). */
export function safeStorage(): Storage | null {
  try {
    if (typeof window === 'undefined') return null;
    return isViewAsTab() ? window.sessionStorage : window.localStorage;
  } catch {
    return null;
  }
}
