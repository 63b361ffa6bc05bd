// An organization's own OpenAI key (spec part 2 §3 Organization `openai_api_key`, §7 Organizations): AI calls
// made in that organization's scope use it instead of the operator's. The key is stored sealed on the
// organization (features/organizations); this reuses the unsealed key for a few seconds per organization,
// like the operator's settings (settings.ts), so an answer's first token waits for no query while the cache
// is warm. Saving the organization drops its entry on this node at once; other nodes keep theirs until the
// TTL passes. Platform code never reads features, so the caller passes the reader.
import type { AppContext } from '../../context';
import { PROVIDER_SETTINGS_TTL_MS } from './settings';
import type { ProviderCredentials } from './types';

/** How long an organization's unsealed key is reused: the same staleness bound as the operator's. */
export const ORGANIZATION_KEY_TTL_MS = PROVIDER_SETTINGS_TTL_MS;
/** Entries kept per app before the cache starts over (a bound on memory with many organizations). */
const MAX_CACHED_ORGANIZATIONS = 1_000;

/** Reads an organization's unsealed OpenAI key; null when it has none. */
export type OrganizationKeyReader = (ctx: AppContext, organizationId: number) => Promise<string | null>;

interface CachedKey {
  credentials: Promise<ProviderCredentials | undefined>;
  until: number;
}

// Per app context (tests run several apps in one process); the entry holds the read in flight, so the
// answers that start together share one query.
const cachedKeys = new WeakMap<AppContext, Map<number, CachedKey>>();

/**
 * The credentials an AI call in this scope uses: the organization's key when it has one, else undefined
 * (the operator's settings). Personal scope (null) answers at once, without a query.
 */
export function organizationCredentials(
  ctx: AppContext,
  organizationId: number | null,
  read: OrganizationKeyReader,
  now: number = Date.now(),
): Promise<ProviderCredentials | undefined> {
  if (organizationId === null) return Promise.resolve(undefined);
  let perOrganization = cachedKeys.get(ctx);
  if (!perOrganization) {
    perOrganization = new Map();
    cachedKeys.set(ctx, perOrganization);
  }
  const hit = perOrganization.get(organizationId);
  if (hit && hit.until > now) return hit.credentials;
  if (perOrganization.size >= MAX_CACHED_ORGANIZATIONS) perOrganization.clear();
  const entries = perOrganization;
  const entry: CachedKey = {
    credentials: read(ctx, organizationId).then((key) => (key ? { openaiApiKey: key } : undefined)),
    until: now + ORGANIZATION_KEY_TTL_MS,
  };
  entries.set(organizationId, entry);
  // A failed read is not reused: the next call tries again.
  entry.credentials.catch(() => {
    if (entries.get(organizationId) === entry) entries.delete(organizationId);
  });
  return entry.credentials;
}

/** The organization's key was changed (or it was deleted): the next call reads it again. */
export function organizationCredentialsChanged(ctx: AppContext, organizationId: number): void {
  cachedKeys.get(ctx)?.delete(organizationId);
}
