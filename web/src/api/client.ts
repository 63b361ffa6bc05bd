// HTTP client for the API (spec part 1 §7, DESIGN.md §4): base /api, bearer token, organization_id on
// every request while an organization is active, retries for network failures on idempotent calls, and
// the session refresh rules of spec part 1 §4. Framework-free so its policies are unit-tested.
import { REQUEST_RETRIES, REQUEST_RETRY_DELAY_MS, TOKEN_REFRESH_THRESHOLD_MS } from '@pluma/common/constants';
import { ErrorIds, type ApiErrorBody } from '@pluma/common/errors';
import type { AuthResponse } from '@pluma/common/users';
import { ApiError } from './api-error';
import type { TokenStore } from './token-store';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | QueryValue[]>;

export interface RequestOptions {
  query?: Query;
  /** A plain value is sent as JSON; FormData, Blob and URLSearchParams are sent as they are. */
  body?: unknown;
  signal?: AbortSignal;
  responseType?: 'json' | 'blob' | 'text';
  /** Send the session token (default true). */
  auth?: boolean;
  /** Extra headers (e.g. the token of a session being closed). */
  headers?: Record<string, string>;
}

export interface ApiClientOptions {
  tokens: TokenStore;
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Current interface language, sent as Accept-Language so server messages come translated. */
  language?: () => string;
  /** Active organization id, or null in the Personal context. */
  organizationId?: () => number | null;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Serializes refreshes across tabs (Web Locks): a rotated token refreshed twice ends the session. */
  withRefreshLock?: <T>(task: () => Promise<T>) => Promise<T>;
  /** A refresh returned a new token and the current user. */
  onSessionRefreshed?: (response: AuthResponse) => void;
  /** The server no longer accepts the session; the token has been cleared. */
  onSignedOut?: () => void;
}

// spec part 1 §7: retries are for calls that can safely run twice; a POST is never repeated.
const IDEMPOTENT = new Set<HttpMethod>(['GET', 'PUT', 'DELETE']);

export class ApiClient {
  private readonly tokens: TokenStore;
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly options: ApiClientOptions;
  private refreshing: Promise<boolean> | null = null;

  constructor(options: ApiClientOptions) {
    this.options = options;
    this.tokens = options.tokens;
    this.baseUrl = (options.baseUrl ?? '/api').replace(/\/$/, '');
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  get<T>(path: string, options?: Omit<RequestOptions, 'body'>) {
    return this.request<T>('GET', path, options);
  }
  post<T>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, { ...options, body });
  }
  put<T>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PUT', path, { ...options, body });
  }
  delete<T>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }

  async request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
    let token = options.auth === false ? null : this.tokens.getToken();
    // spec part 1 §4: the token is refreshed when the last refresh was 15 minutes ago or more.
    if (token && this.isStale()) {
      await this.refreshSession(token, false);
      token = this.tokens.getToken();
    }
    try {
      return await this.send<T>(method, path, options, token);
    } catch (error) {
      if (!token || !(error instanceof ApiError) || error.status !== 401) throw error;
      if (error.errorId === ErrorIds.tokenExpired) {
        // spec part 1 §8: 'auth/id-token-expired' triggers the refresh handler once, then the call is retried.
        if (await this.refreshSession(token, true)) {
          const next = this.tokens.getToken();
          if (next) return this.sendSignedIn<T>(method, path, options, next);
        }
      } else {
        this.signedOutIfStill(token);
      }
      throw error;
    }
  }

  /** Forces a refresh now (used by the session bootstrap); false when the session is gone. */
  refreshNow(): Promise<boolean> {
    const token = this.tokens.getToken();
    return token ? this.refreshSession(token, true) : Promise.resolve(false);
  }

  isStale(): boolean {
    const last = this.tokens.getLastRefresh();
    return last === null || this.now() - last >= TOKEN_REFRESH_THRESHOLD_MS;
  }

  /** The request URL: base path, query, and organization_id while an organization is active. */
  url(path: string, query: Query = {}): string {
    const [pathname, existing = ''] = path.split('?', 2);
    const params = new URLSearchParams(existing);
    for (const [key, value] of Object.entries(query)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item !== null && item !== undefined) params.append(key, String(item));
      }
    }
    const organizationId = this.options.organizationId?.() ?? null;
    if (organizationId !== null && !params.has('organization_id')) params.set('organization_id', String(organizationId));
    const search = params.toString();
    return `${this.baseUrl}${pathname.startsWith('/') ? '' : '/'}${pathname}${search ? `?${search}` : ''}`;
  }

  private now() {
    return this.options.now?.() ?? Date.now();
  }

  private sleep(ms: number) {
    return this.options.sleep?.(ms) ?? new Promise<void>((resolve) => setTimeout(resolve, ms));
  }

  /** A retry after a refresh: a second 401 means the session is over. */
  private async sendSignedIn<T>(method: HttpMethod, path: string, options: RequestOptions, token: string): Promise<T> {
    try {
      return await this.send<T>(method, path, options, token);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) this.signedOutIfStill(token);
      throw error;
    }
  }

  private signedOutIfStill(token: string) {
    // Another tab may have signed in again meanwhile; only end the session this request used.
    if (this.tokens.getToken() !== token) return;
    this.tokens.clear();
    this.options.onSignedOut?.();
  }

  /**
   * Refreshes once for everyone waiting (single flight in this tab, a lock across tabs). Resolves true
   * when a usable token is in place, false when the session could not be renewed.
   */
  private refreshSession(usedToken: string, force: boolean): Promise<boolean> {
    if (this.refreshing) return this.refreshing;
    const lock = this.options.withRefreshLock ?? ((task) => task());
    this.refreshing = lock(async () => {
      const current = this.tokens.getToken();
      if (!current) return false;
      // Another tab or an earlier call already renewed the token this request used.
      if (current !== usedToken) return true;
      if (!force && !this.isStale()) return true;
      try {
        const response = await this.send<AuthResponse>('POST', '/auth/refresh', {}, current);
        this.tokens.setSession(response.token, this.now());
        this.options.onSessionRefreshed?.(response);
        return true;
      } catch (error) {
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
          this.signedOutIfStill(current);
          return false;
        }
        // Server unreachable: keep the session; a stale token is still valid for days.
        return !force;
      }
    }).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async send<T>(method: HttpMethod, path: string, options: RequestOptions, token: string | null): Promise<T> {
    const url = this.url(path, options.query);
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    const language = this.options.language?.();
    if (language) headers['Accept-Language'] = language;
    if (token) headers.Authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (options.body instanceof FormData || options.body instanceof Blob || options.body instanceof URLSearchParams) {
      body = options.body;
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }

    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetchImpl(url, { method, headers, body, signal: options.signal });
      } catch (error) {
        if (options.signal?.aborted || (error instanceof DOMException && error.name === 'AbortError')) throw error;
        // spec part 1 §7: 3 retries, 3 seconds apart, for network failures of idempotent calls.
        if (IDEMPOTENT.has(method) && attempt < REQUEST_RETRIES) {
          await this.sleep(REQUEST_RETRY_DELAY_MS);
          continue;
        }
        throw new ApiError(0, null, 'Network error: the server could not be reached.');
      }
      return readResponse<T>(response, options.responseType ?? 'json');
    }
  }
}

async function readResponse<T>(response: Response, responseType: 'json' | 'blob' | 'text'): Promise<T> {
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw new ApiError(response.status, parseErrorBody(text), `Request failed with status code ${response.status}`);
  }
  if (responseType === 'blob') return (await response.blob()) as T;
  const text = await response.text();
  if (responseType === 'text') return text as T;
  if (response.status === 204 || text === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    return text as T;
  }
}

function parseErrorBody(text: string): ApiErrorBody | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && ('error' in parsed || 'message' in parsed)) {
      const body = parsed as Partial<ApiErrorBody>;
      return { ...body, error: String(body.error ?? ''), message: String(body.message ?? '') } as ApiErrorBody;
    }
  } catch {
    // Not JSON (a proxy's HTML page): the status alone describes it.
  }
  return null;
}
