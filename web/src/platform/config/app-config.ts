// The public app configuration (GET /api/appconfig → [{ key, value }], spec part 1 §3 and §7).
// Shares the ['appconfig'] query key (and its list shape) with the landing page.
import type { ConfigEntry, ConfigKey } from '@pluma/common/appconfig';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';

export const APP_CONFIG_QUERY_KEY = ['appconfig'] as const;

// Shown only if the server omits a key; the server sends every public key with its default.
const FALLBACKS: Partial<Record<ConfigKey, string>> = {
  app_name: 'Pluma',
  primary_color: '#6d28d9',
  accent_color: '#f59e0b',
};

export interface AppConfig {
  /** The value of a key ('' when unset). */
  get(key: ConfigKey): string;
  /** A boolean switch ('true' / 'false'). */
  on(key: ConfigKey): boolean;
}

export function readConfig(entries: readonly ConfigEntry[]): AppConfig {
  const values = new Map(entries.map((entry) => [entry.key, entry.value]));
  return {
    get: (key) => values.get(key) || FALLBACKS[key] || '',
    on: (key) => values.get(key) === 'true',
  };
}

export function fetchAppConfig(): Promise<ConfigEntry[]> {
  return api.get<ConfigEntry[]>('/appconfig', { auth: false });
}

/** The configuration fetched before the first render (main.tsx), the query's initial data. */
let firstConfig: { entries: ConfigEntry[]; at: number } | null = null;

/**
 * Fetches the configuration ahead of the first render (main.tsx waits for it, briefly): the app then
 * renders its first screen once, with the configured theme, instead of a loading screen and then again.
 * A failure is left to the query, which asks again and shows the startup error.
 */
export function prefetchAppConfig(): Promise<void> {
  return fetchAppConfig().then(
    (entries) => {
      firstConfig = { entries, at: Date.now() };
    },
    () => undefined,
  );
}

/** Tests only (test/setup.ts): no configuration fetched before the first render. */
export function resetFirstConfigForTests() {
  firstConfig = null;
}

export function useAppConfigQuery() {
  return useQuery({
    queryKey: APP_CONFIG_QUERY_KEY,
    queryFn: fetchAppConfig,
    staleTime: 5 * 60_000,
    initialData: firstConfig?.entries,
    initialDataUpdatedAt: firstConfig?.at,
  });
}

/** The configuration; call only under the app's config gate (it is loaded before any screen renders). */
export function useAppConfig(): AppConfig {
  const { data } = useAppConfigQuery();
  return readConfig(data ?? []);
}
