// spec part 1 §4: a pending sign-in uid from the URL query is kept locally for 5 minutes; if unexpired it
// is exchanged for a session (POST /api/auth/token) and the current user is fetched; if expired it is removed.
import { PENDING_UID_LIFETIME_MS } from '@pluma/common/constants';
import { STORAGE_KEYS } from '../../api/storage-keys';
import { registry } from '../app-registry';
import { pendingUidRedirect } from './routing';

interface StoredUid {
  uid: string;
  expiresAt: number;
}

export function storePendingUid(storage: Storage, uid: string, now: number) {
  const value: StoredUid = { uid, expiresAt: now + PENDING_UID_LIFETIME_MS };
  storage.setItem(STORAGE_KEYS.pendingUid, JSON.stringify(value));
}

/** The stored uid if it has not expired; an expired or malformed entry is removed. */
export function takeValidPendingUid(storage: Storage, now: number): string | null {
  const raw = storage.getItem(STORAGE_KEYS.pendingUid);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<StoredUid>;
    if (typeof parsed.uid === 'string' && parsed.uid && typeof parsed.expiresAt === 'number' && parsed.expiresAt > now) {
      return parsed.uid;
    }
  } catch {
    // Malformed: fall through and remove it.
  }
  storage.removeItem(STORAGE_KEYS.pendingUid);
  return null;
}

export function clearPendingUid(storage: Storage) {
  storage.removeItem(STORAGE_KEYS.pendingUid);
}

/**
 * Saves a `?uid=` from the URL and says where the page should go instead (/ for non-embedded pages),
 * or null when there is nothing to do. `keepSignInUid`: the pages that keep it (the registry's).
 */
export function capturePendingUid(
  pathname: string,
  search: string,
  storage: Storage,
  now: number,
  keepSignInUid: readonly string[] = registry.access.keepSignInUid,
): string | null {
  const target = pendingUidRedirect(pathname, search, keepSignInUid);
  if (!target) return null;
  const uid = new URLSearchParams(search).get('uid');
  if (uid) storePendingUid(storage, uid, now);
  return target;
}
