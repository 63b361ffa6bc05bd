// The search providers of web search in chat (issue 32), chosen in admin settings (`web_search_provider`,
// `web_search_url`, `web_search_api_key`): SearXNG (self-hosted, its JSON API: the natural default for
// self-hosters), Brave Search API and Tavily. Every call goes through the outbound guard (safeFetch): a
// SearXNG on the operator's own network must be listed in OUTBOUND_ALLOW_HOSTS.
import type { AppContext } from '../../context';
import { getConfig } from '../../platform/appconfig/read';
import { safeFetch } from '../../platform/outbound/safe-fetch';
import { readOrganizationWebSearch } from '../organizations';

export const WEB_SEARCH_PROVIDERS = ['searxng', 'brave', 'tavily'] as const;
export type WebSearchProviderName = (typeof WEB_SEARCH_PROVIDERS)[number];

export interface SearchResult {
  url: string;
  title: string;
  snippet: string;
}

export interface WebSearchSettings {
  provider: WebSearchProviderName;
  /** SearXNG's base URL; for Brave and Tavily an API base other than their public one (a proxy, the tests' emulator). */
  baseUrl: string;
  apiKey: string;
  /** Whose settings these are: the operator's, or the organization's own (issue 32). */
  scope: 'app' | 'organization';
}

const DEFAULT_BASE: Record<WebSearchProviderName, string> = {
  searxng: '',
  brave: 'https://api.search.brave.com',
  tavily: 'https://api.tavily.com',
};

/** A provider's answer was not what its API documents (or it refused): the search failed. */
export class SearchFailed extends Error {}

const isProvider = (name: string): name is WebSearchProviderName => (WEB_SEARCH_PROVIDERS as readonly string[]).includes(name);

function settingsOf(provider: string, url: string, apiKey: string, scope: WebSearchSettings['scope']): WebSearchSettings | null {
  const name = provider.trim().toLowerCase();
  if (!isProvider(name)) return null;
  const baseUrl = (url.trim() || DEFAULT_BASE[name]).replace(/\/+$/, '');
  if (!baseUrl) return null;
  if (name !== 'searxng' && !apiKey) return null;
  return { provider: name, baseUrl, apiKey, scope };
}

/**
 * The provider a search in `organizationId` uses: the organization's own when it has set one (its key and
 * URL), else the operator's; null when web search is off (no provider, or one without what it needs).
 */
export async function webSearchSettings(ctx: AppContext, organizationId: number | null = null): Promise<WebSearchSettings | null> {
  const own = organizationId === null ? null : await readOrganizationWebSearch(ctx, organizationId);
  if (own) return settingsOf(own.provider, own.url, own.apiKey, 'organization');
  const [provider, url, apiKey] = await Promise.all([getConfig(ctx, 'web_search_provider'), getConfig(ctx, 'web_search_url'), getConfig(ctx, 'web_search_api_key')]);
  return settingsOf(provider, url, apiKey, 'app');
}

const SEARCH_TIMEOUT_MS = 8_000;
const SEARCH_MAX_BYTES = 2 * 1024 * 1024;

async function json(response: Response): Promise<Record<string, unknown>> {
  if (!response.ok) throw new SearchFailed(`status ${response.status}`);
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object') return body as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new SearchFailed('invalid json');
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object') : []);

/** The top `count` results for `query`, in the provider's order. Throws SearchFailed (or the guard's AppError). */
export async function searchProvider(ctx: AppContext, settings: WebSearchSettings, query: string, count: number, signal?: AbortSignal): Promise<SearchResult[]> {
  const limits = { timeoutMs: SEARCH_TIMEOUT_MS, maxResponseBytes: SEARCH_MAX_BYTES, signal };
  let rows: SearchResult[];
  if (settings.provider === 'searxng') {
    const url = `${settings.baseUrl}/search?${new URLSearchParams({ q: query, format: 'json' })}`;
    const body = await json(await safeFetch(ctx, url, { ...limits, headers: { accept: 'application/json' } }));
    rows = list(body.results).map((r) => ({ url: str(r.url), title: str(r.title), snippet: str(r.content) }));
  } else if (settings.provider === 'brave') {
    const url = `${settings.baseUrl}/res/v1/web/search?${new URLSearchParams({ q: query, count: String(count) })}`;
    const body = await json(await safeFetch(ctx, url, { ...limits, headers: { accept: 'application/json', 'x-subscription-token': settings.apiKey } }));
    const web = body.web && typeof body.web === 'object' ? (body.web as Record<string, unknown>) : {};
    rows = list(web.results).map((r) => ({ url: str(r.url), title: str(r.title), snippet: str(r.description) }));
  } else {
    const body = await json(
      await safeFetch(ctx, `${settings.baseUrl}/search`, {
        ...limits,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ api_key: settings.apiKey, query, max_results: count }),
      }),
    );
    rows = list(body.results).map((r) => ({ url: str(r.url), title: str(r.title), snippet: str(r.content) }));
  }
  return rows.filter((r) => /^https?:\/\//i.test(r.url)).slice(0, count);
}
