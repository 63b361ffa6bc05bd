// What happens once per page load before the session is known (spec part 1 §4): the forced-refresh flag
// signs the user out, and a pending sign-in uid (if unexpired) is exchanged for a session.
import type { AuthResponse, CurrentUser } from '@pluma/common/users';
import type { ApiClient } from '../../api/client';
import { STORAGE_KEYS } from '../../api/storage-keys';
import type { TokenStore } from '../../api/token-store';
import { clearPendingUid, takeValidPendingUid } from './pending-uid';

export interface BootstrapResult {
  /** The user signed in through a pending uid. */
  user?: CurrentUser;
  /** Why the pending uid could not be used. */
  error?: unknown;
}

export async function bootstrapSession(client: ApiClient, tokens: TokenStore, storage: Storage | null, now = Date.now()): Promise<BootstrapResult> {
  if (!storage) return {};
  if (storage.getItem(STORAGE_KEYS.forceRefresh) !== null) {
    storage.removeItem(STORAGE_KEYS.forceRefresh);
    const token = tokens.getToken();
    if (token) {
      // Close the session on the server too; the local sign-out does not wait for it.
      void client.post('/auth/logout', undefined, { auth: false, headers: { Authorization: `Bearer ${token}` } }).catch(() => undefined);
      tokens.clear();
    }
  }
  const uid = takeValidPendingUid(storage, now);
  if (!uid) return {};
  try {
    const response = await client.post<AuthResponse>('/auth/token', { token: uid }, { auth: false });
    tokens.setSession(response.token, now);
    return { user: response.user };
  } catch (error) {
    return { error };
  } finally {
    clearPendingUid(storage);
  }
}
