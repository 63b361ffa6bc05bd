// The active organization. When one is active, the API client appends organization_id to every request
// (spec part 1 §7, DESIGN.md §4). Choosing which organization is active belongs to the organizations
// feature; this store only holds the choice and remembers it for the next visit.
import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS, safeStorage } from './storage-keys';

export interface ActiveOrganization {
  organization_id: number;
  name: string;
}

type Listener = () => void;
/** What the storage keeps when the user chose Personal: that choice then wins over their default organization. */
const PERSONAL_CHOICE = 'personal';
let active: ActiveOrganization | null = null;
const listeners = new Set<Listener>();

export const organizationStore = {
  get: (): ActiveOrganization | null => active,
  /** null = the Personal context (no organization). */
  set(next: ActiveOrganization | null) {
    active = next;
    const storage = safeStorage();
    try {
      storage?.setItem(STORAGE_KEYS.organizationId, next ? String(next.organization_id) : PERSONAL_CHOICE);
    } catch {
      // Not remembering the choice is harmless.
    }
    listeners.forEach((listener) => listener());
  },
  /** Leaves the organization without forgetting the saved choice (sign-out). */
  clearActive() {
    active = null;
    listeners.forEach((listener) => listener());
  },
  /** The id saved by an earlier visit (second step of the spec's selection order), if any. */
  savedId(): number | null {
    const raw = safeStorage()?.getItem(STORAGE_KEYS.organizationId);
    const id = raw ? Number(raw) : NaN;
    return Number.isInteger(id) && id > 0 ? id : null;
  },
  /** True when the last choice on this browser was Personal (spec part 2 §4: the saved choice comes before the default). */
  savedPersonal(): boolean {
    return safeStorage()?.getItem(STORAGE_KEYS.organizationId) === PERSONAL_CHOICE;
  },
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};

/** Tests only (test/setup.ts): no organization active and no subscribers, as on a new page. */
export function resetOrganizationStoreForTests() {
  active = null;
  listeners.clear();
}

/** The active organization, or null in the Personal context. */
export function useActiveOrganization(): ActiveOrganization | null {
  return useSyncExternalStore(organizationStore.subscribe, organizationStore.get, organizationStore.get);
}
