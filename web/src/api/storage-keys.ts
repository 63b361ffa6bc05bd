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

/** localStorage that never throws (private mode, disabled storage, quota). */
export function safeStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}
