import { afterEach, describe, expect, it, vi } from 'vitest';
import { EARLY_RESPONSE_MAX_AGE_MS, fetchWithEarlyResponses, takeEarlyResponse, type EarlyRequest } from './early-requests';

const NOW = 1_000_000;
const init = (headers: Record<string, string>, extra: RequestInit = {}): RequestInit => ({ method: 'GET', headers: { Accept: 'application/json', ...headers }, ...extra });
const signedIn = { Authorization: 'Bearer tok', 'Accept-Language': 'en' };

function early(overrides: Partial<EarlyRequest> = {}): Record<string, EarlyRequest> {
  return { '/api/users': { token: 'tok', lang: 'en', at: NOW - 100, response: Promise.resolve(new Response('{"user_id":1}')), ...overrides } };
}

afterEach(() => {
  delete window.__plumaEarly;
  vi.unstubAllGlobals();
});

describe('early responses', () => {
  it('answers the same GET with the same token and language once', async () => {
    const requests = early();
    const response = takeEarlyResponse('/api/users', init(signedIn), requests, NOW);
    expect(await (await response)?.json()).toEqual({ user_id: 1 });
    expect(takeEarlyResponse('/api/users', init(signedIn), requests, NOW)).toBeNull();
  });

  it('does not answer another token, language, method, body or a stale request', () => {
    expect(takeEarlyResponse('/api/users', init({ ...signedIn, Authorization: 'Bearer other' }), early(), NOW)).toBeNull();
    expect(takeEarlyResponse('/api/users', init({ ...signedIn, 'Accept-Language': 'es' }), early(), NOW)).toBeNull();
    expect(takeEarlyResponse('/api/users', init(signedIn, { method: 'PUT' }), early(), NOW)).toBeNull();
    expect(takeEarlyResponse('/api/users', init(signedIn, { body: '{}' }), early(), NOW)).toBeNull();
    expect(takeEarlyResponse('/api/users', init(signedIn), early({ at: NOW - EARLY_RESPONSE_MAX_AGE_MS }), NOW)).toBeNull();
    expect(takeEarlyResponse('/api/users?x=1', init(signedIn), early(), NOW)).toBeNull();
  });

  it('asks the server when there is no match, or when the early request failed', async () => {
    const server = vi.fn(async () => new Response('"server"'));
    vi.stubGlobal('fetch', server);
    expect(await (await fetchWithEarlyResponses('/api/users', init(signedIn))).json()).toBe('server');
    window.__plumaEarly = early({ at: Date.now(), response: Promise.reject(new TypeError('offline')) });
    expect(await (await fetchWithEarlyResponses('/api/users', init(signedIn))).json()).toBe('server');
    expect(server).toHaveBeenCalledTimes(2);
    window.__plumaEarly = early({ at: Date.now() });
    expect(await (await fetchWithEarlyResponses('/api/users', init(signedIn))).json()).toEqual({ user_id: 1 });
    expect(server).toHaveBeenCalledTimes(2);
  });
});
