import { REQUEST_RETRY_DELAY_MS, TOKEN_REFRESH_THRESHOLD_MS } from '@pluma/common/constants';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error';
import { ApiClient, type ApiClientOptions } from './client';
import { createTokenStore } from './token-store';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const user = { user_id: 1, name: 'Ana' };

function setup(handler: Handler, options: Partial<ApiClientOptions> = {}) {
  let now = 1_000_000_000;
  const tokens = createTokenStore(window.localStorage);
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => handler(String(input), init));
  const sleep = vi.fn(async () => undefined);
  const onSignedOut = vi.fn();
  const onSessionRefreshed = vi.fn();
  const client = new ApiClient({
    tokens,
    fetch: fetchMock as unknown as typeof fetch,
    sleep,
    now: () => now,
    language: () => 'es',
    onSignedOut,
    onSessionRefreshed,
    ...options,
  });
  return {
    client,
    tokens,
    fetchMock,
    sleep,
    onSignedOut,
    onSessionRefreshed,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
    calls: () => fetchMock.mock.calls.map(([url, init]) => `${(init?.method ?? 'GET').toUpperCase()} ${String(url)}`),
    headersOf: (index: number) => (fetchMock.mock.calls[index][1]?.headers ?? {}) as Record<string, string>,
  };
}

describe('ApiClient: requests', () => {
  it('prefixes /api, sends JSON, the language and the bearer token, and parses JSON', async () => {
    const t = setup(() => json(200, { ok: true }));
    t.tokens.setSession('tok-1', t.now());
    await expect(t.client.put('/users', { name: 'Ana' })).resolves.toEqual({ ok: true });
    const [url, init] = t.fetchMock.mock.calls[0];
    expect(url).toBe('/api/users');
    expect(init?.body).toBe('{"name":"Ana"}');
    expect(t.headersOf(0)).toMatchObject({ Authorization: 'Bearer tok-1', 'Accept-Language': 'es', 'Content-Type': 'application/json' });
  });

  it('omits the token when auth is false and resolves 204 to undefined', async () => {
    const t = setup(() => new Response(null, { status: 204 }));
    t.tokens.setSession('tok-1', t.now());
    await expect(t.client.post('/auth/logout', undefined, { auth: false })).resolves.toBeUndefined();
    expect(t.headersOf(0).Authorization).toBeUndefined();
  });

  it('rejects with ApiError carrying the status and the server body', async () => {
    const t = setup(() => json(400, { error: 'validation_error', message: 'Email is invalid.', details: { email: 'Email is invalid.' } }));
    const error = await t.client.post('/auth/signup', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toBe('Email is invalid.');
    expect((error as ApiError).details).toEqual({ email: 'Email is invalid.' });
  });

  it('describes a non-JSON error by its status', async () => {
    const t = setup(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    const error = (await t.client.get('/users').catch((e: unknown) => e)) as ApiError;
    expect(error.body).toBeNull();
    expect(error.message).toBe('Request failed with status code 502');
  });
});

describe('ApiClient: organization_id', () => {
  it('appends organization_id to every request while an organization is active', async () => {
    let org: number | null = 42;
    const t = setup(() => json(200, {}), { organizationId: () => org });
    await t.client.get('/templates', { query: { page: 2, tag: ['a', 'b'], empty: null } });
    await t.client.post('/messages', { content: 'hi' });
    await t.client.get('/campaigns/organization/3query?query=x');
    org = null;
    await t.client.get('/templates');
    expect(t.calls()).toEqual([
      'GET /api/templates?page=2&tag=a&tag=b&organization_id=42',
      'POST /api/messages?organization_id=42',
      'GET /api/campaigns/organization/3query?query=x&organization_id=42',
      'GET /api/templates',
    ]);
  });

  it('keeps an organization_id the caller set explicitly', async () => {
    const t = setup(() => json(200, {}), { organizationId: () => 42 });
    await t.client.get('/products', { query: { organization_id: 9 } });
    expect(t.calls()).toEqual(['GET /api/products?organization_id=9']);
  });
});

describe('ApiClient: retries (spec part 1 §7: 3 retries, 3 s apart)', () => {
  const networkDown = () => {
    throw new TypeError('Failed to fetch');
  };

  it.each(['GET', 'PUT', 'DELETE'] as const)('retries a %s three times, 3 seconds apart, then fails as a network error', async (method) => {
    const t = setup(networkDown);
    const error = (await t.client.request(method, '/users').catch((e: unknown) => e)) as ApiError;
    expect(t.fetchMock).toHaveBeenCalledTimes(4);
    expect(t.sleep).toHaveBeenCalledTimes(3);
    expect(t.sleep).toHaveBeenCalledWith(REQUEST_RETRY_DELAY_MS);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.isNetworkError).toBe(true);
  });

  it('never repeats a POST', async () => {
    const t = setup(networkDown);
    await expect(t.client.post('/messages', { content: 'x' })).rejects.toBeInstanceOf(ApiError);
    expect(t.fetchMock).toHaveBeenCalledTimes(1);
    expect(t.sleep).not.toHaveBeenCalled();
  });

  it('succeeds when the network comes back before the retries run out', async () => {
    let attempts = 0;
    const t = setup(() => {
      attempts += 1;
      if (attempts < 3) throw new TypeError('Failed to fetch');
      return json(200, { ok: 1 });
    });
    await expect(t.client.get('/users')).resolves.toEqual({ ok: 1 });
    expect(attempts).toBe(3);
  });

  it('does not retry HTTP errors or aborted requests', async () => {
    const t = setup(() => json(500, { error: 'internal_error', message: 'Boom' }));
    await expect(t.client.get('/users')).rejects.toMatchObject({ status: 500 });
    expect(t.fetchMock).toHaveBeenCalledTimes(1);

    const aborted = setup(() => {
      throw new DOMException('aborted', 'AbortError');
    });
    await expect(aborted.client.get('/users')).rejects.toMatchObject({ name: 'AbortError' });
    expect(aborted.fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('ApiClient: token refresh (spec part 1 §4)', () => {
  function refreshingServer(calls: string[] = []) {
    return (url: string, init: RequestInit): Response => {
      const auth = (init.headers as Record<string, string>).Authorization;
      calls.push(`${init.method} ${url} ${auth ?? ''}`);
      if (url === '/api/auth/refresh') return json(200, { token: 'tok-new', user });
      return json(200, { auth });
    };
  }

  it('does not refresh a token refreshed less than 15 minutes ago', async () => {
    const t = setup(refreshingServer());
    t.tokens.setSession('tok-old', t.now());
    t.advance(TOKEN_REFRESH_THRESHOLD_MS - 1);
    await expect(t.client.get('/users')).resolves.toEqual({ auth: 'Bearer tok-old' });
    expect(t.calls()).toEqual(['GET /api/users']);
  });

  it('refreshes first when the last refresh is 15 minutes old, then uses the new token', async () => {
    const t = setup(refreshingServer());
    t.tokens.setSession('tok-old', t.now());
    t.advance(TOKEN_REFRESH_THRESHOLD_MS);
    await expect(t.client.get('/users')).resolves.toEqual({ auth: 'Bearer tok-new' });
    expect(t.calls()).toEqual(['POST /api/auth/refresh', 'GET /api/users']);
    expect(t.headersOf(0).Authorization).toBe('Bearer tok-old');
    expect(t.tokens.getToken()).toBe('tok-new');
    expect(t.tokens.getLastRefresh()).toBe(t.now());
    expect(localStorage.getItem('lastRefresh')).toBe(String(t.now()));
    expect(t.onSessionRefreshed).toHaveBeenCalledWith({ token: 'tok-new', user });
  });

  it('treats a token with no recorded refresh time as stale', async () => {
    const t = setup(refreshingServer());
    localStorage.setItem('token', 'tok-old');
    await t.client.get('/users');
    expect(t.calls()[0]).toBe('POST /api/auth/refresh');
  });

  it('refreshes once for concurrent requests', async () => {
    const t = setup(refreshingServer());
    t.tokens.setSession('tok-old', t.now() - TOKEN_REFRESH_THRESHOLD_MS);
    await Promise.all([t.client.get('/a'), t.client.get('/b'), t.client.get('/c')]);
    expect(t.calls().filter((c) => c === 'POST /api/auth/refresh')).toHaveLength(1);
  });

  it('skips its own refresh when another tab already rotated the token', async () => {
    const t = setup(refreshingServer(), {
      // The lock is granted after the other tab finished its refresh.
      withRefreshLock: async (task) => {
        localStorage.setItem('token', 'tok-other-tab');
        localStorage.setItem('lastRefresh', String(t.now()));
        return task();
      },
    });
    t.tokens.setSession('tok-old', t.now() - TOKEN_REFRESH_THRESHOLD_MS);
    await expect(t.client.get('/users')).resolves.toEqual({ auth: 'Bearer tok-other-tab' });
    expect(t.calls()).toEqual(['GET /api/users']);
  });

  it('signs out when the server refuses the refresh', async () => {
    const t = setup((url) => (url === '/api/auth/refresh' ? json(401, { error: 'unauthenticated', message: 'Please sign in.' }) : json(401, { error: 'unauthenticated', message: 'Please sign in.' })));
    t.tokens.setSession('tok-old', t.now() - TOKEN_REFRESH_THRESHOLD_MS);
    await expect(t.client.get('/users')).rejects.toMatchObject({ status: 401 });
    expect(t.tokens.getToken()).toBeNull();
    expect(t.onSignedOut).toHaveBeenCalled();
  });

  it('keeps the session when the refresh fails for lack of network', async () => {
    const t = setup((url) => {
      if (url === '/api/auth/refresh') throw new TypeError('Failed to fetch');
      return json(200, { ok: true });
    });
    t.tokens.setSession('tok-old', t.now() - TOKEN_REFRESH_THRESHOLD_MS);
    await expect(t.client.get('/users')).resolves.toEqual({ ok: true });
    expect(t.tokens.getToken()).toBe('tok-old');
    expect(t.onSignedOut).not.toHaveBeenCalled();
  });
});

describe("ApiClient: 'auth/id-token-expired' (spec part 1 §8)", () => {
  it('calls the refresh handler once, then retries the request with the new token', async () => {
    const seen: string[] = [];
    const t = setup((url, init) => {
      const auth = (init.headers as Record<string, string>).Authorization;
      seen.push(`${url} ${auth}`);
      if (url === '/api/auth/refresh') return json(200, { token: 'tok-new', user });
      if (auth === 'Bearer tok-old') return json(401, { error: 'auth/id-token-expired', message: 'Your session has expired.' });
      return json(200, { done: true });
    });
    t.tokens.setSession('tok-old', t.now());
    await expect(t.client.post('/messages', { content: 'hi' })).resolves.toEqual({ done: true });
    expect(seen).toEqual(['/api/messages Bearer tok-old', '/api/auth/refresh Bearer tok-old', '/api/messages Bearer tok-new']);
  });

  it('does not loop: a second expired answer is returned to the caller and ends the session', async () => {
    const t = setup((url) =>
      url === '/api/auth/refresh' ? json(200, { token: 'tok-new', user }) : json(401, { error: 'auth/id-token-expired', message: 'Expired' }),
    );
    t.tokens.setSession('tok-old', t.now());
    await expect(t.client.get('/users')).rejects.toMatchObject({ status: 401 });
    expect(t.calls()).toEqual(['GET /api/users', 'POST /api/auth/refresh', 'GET /api/users']);
    expect(t.tokens.getToken()).toBeNull();
  });

  it('signs out when the expired session cannot be refreshed', async () => {
    const t = setup(() => json(401, { error: 'auth/id-token-expired', message: 'Expired' }));
    t.tokens.setSession('tok-old', t.now());
    await expect(t.client.get('/users')).rejects.toMatchObject({ status: 401 });
    expect(t.calls()).toEqual(['GET /api/users', 'POST /api/auth/refresh']);
    expect(t.tokens.getToken()).toBeNull();
    expect(t.onSignedOut).toHaveBeenCalledTimes(1);
  });

  it('signs out on any other 401 for a request that carried a token', async () => {
    const t = setup(() => json(401, { error: 'unauthenticated', message: 'Please sign in.' }));
    t.tokens.setSession('tok-revoked', t.now());
    await expect(t.client.get('/users')).rejects.toMatchObject({ status: 401 });
    expect(t.tokens.getToken()).toBeNull();
    expect(t.onSignedOut).toHaveBeenCalledTimes(1);
  });

  it('leaves the session alone for a 401 of a call made without a token (wrong password)', async () => {
    const t = setup(() => json(401, { error: 'invalid_credentials', message: 'Email or password is incorrect, please try again.' }));
    t.tokens.setSession('tok-live', t.now());
    await expect(t.client.post('/auth/login', {}, { auth: false })).rejects.toMatchObject({ status: 401 });
    expect(t.onSignedOut).not.toHaveBeenCalled();
    expect(t.tokens.getToken()).toBe('tok-live');
  });
});
