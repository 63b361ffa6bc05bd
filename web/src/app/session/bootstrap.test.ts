import { PENDING_UID_LIFETIME_MS } from '@pluma/common/constants';
import { describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../api/client';
import { createTokenStore } from '../../api/token-store';
import { bootstrapSession } from './bootstrap';
import { capturePendingUid, takeValidPendingUid } from './pending-uid';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const NOW = 1_700_000_000_000;

function setup(handler: (url: string, init: RequestInit) => Response) {
  const tokens = createTokenStore(localStorage);
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => handler(String(input), init));
  const client = new ApiClient({ tokens, fetch: fetchMock as unknown as typeof fetch, now: () => NOW, sleep: async () => undefined });
  return { tokens, fetchMock, client };
}

describe('forced refresh flag (spec part 1 §4)', () => {
  it('signs the user out on the next load and clears the flag', async () => {
    const t = setup(() => new Response(null, { status: 204 }));
    t.tokens.setSession('tok-1', NOW);
    localStorage.setItem('forceRefresh', 'true');
    await bootstrapSession(t.client, t.tokens, localStorage, NOW);
    expect(t.tokens.getToken()).toBeNull();
    expect(localStorage.getItem('forceRefresh')).toBeNull();
    // The server session is closed with the old token.
    const [url, init] = t.fetchMock.mock.calls[0];
    expect(url).toBe('/api/auth/logout');
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer tok-1');
  });

  it('keeps the session when the flag is absent', async () => {
    const t = setup(() => json(500, {}));
    t.tokens.setSession('tok-1', NOW);
    await bootstrapSession(t.client, t.tokens, localStorage, NOW);
    expect(t.tokens.getToken()).toBe('tok-1');
    expect(t.fetchMock).not.toHaveBeenCalled();
  });
});

describe('pending sign-in uid (spec part 1 §4)', () => {
  it('stores a ?uid= for 5 minutes and sends the page to /', () => {
    expect(capturePendingUid('/templates', '?uid=one-time-token', localStorage, NOW)).toBe('/');
    expect(JSON.parse(localStorage.getItem('pendingUid') ?? '{}')).toEqual({ uid: 'one-time-token', expiresAt: NOW + PENDING_UID_LIFETIME_MS });
    expect(takeValidPendingUid(localStorage, NOW + PENDING_UID_LIFETIME_MS - 1)).toBe('one-time-token');
  });

  it('ignores pages that keep the uid (the embedded chat) and URLs without uid', () => {
    expect(capturePendingUid('/chat-embedded', '?uid=widget-owner', localStorage, NOW, ['/chat-embedded'])).toBeNull();
    expect(capturePendingUid('/', '?x=1', localStorage, NOW)).toBeNull();
    expect(localStorage.getItem('pendingUid')).toBeNull();
  });

  it('removes an expired or malformed uid', () => {
    capturePendingUid('/', '?uid=abc', localStorage, NOW);
    expect(takeValidPendingUid(localStorage, NOW + PENDING_UID_LIFETIME_MS)).toBeNull();
    expect(localStorage.getItem('pendingUid')).toBeNull();
    localStorage.setItem('pendingUid', '{not json');
    expect(takeValidPendingUid(localStorage, NOW)).toBeNull();
    expect(localStorage.getItem('pendingUid')).toBeNull();
  });

  it('exchanges an unexpired uid for a session at POST /api/auth/token', async () => {
    const user = { user_id: 5, name: 'Ana' };
    const t = setup(() => json(200, { token: 'tok-from-uid', user }));
    capturePendingUid('/', '?uid=one-time-token', localStorage, NOW);
    const result = await bootstrapSession(t.client, t.tokens, localStorage, NOW + 1000);
    expect(result.user).toEqual(user);
    expect(t.tokens.getToken()).toBe('tok-from-uid');
    expect(localStorage.getItem('pendingUid')).toBeNull();
    const [url, init] = t.fetchMock.mock.calls[0];
    expect(url).toBe('/api/auth/token');
    expect(JSON.parse(String(init?.body))).toEqual({ token: 'one-time-token' });
  });

  it('does not use an expired uid', async () => {
    const t = setup(() => json(200, { token: 'x', user: {} }));
    capturePendingUid('/', '?uid=old', localStorage, NOW);
    const result = await bootstrapSession(t.client, t.tokens, localStorage, NOW + PENDING_UID_LIFETIME_MS + 1);
    expect(result).toEqual({});
    expect(t.fetchMock).not.toHaveBeenCalled();
    expect(localStorage.getItem('pendingUid')).toBeNull();
  });

  it('reports a refused uid and forgets it', async () => {
    const t = setup(() => json(400, { error: 'validation_error', message: 'This sign-in link is invalid or has expired.' }));
    capturePendingUid('/', '?uid=used', localStorage, NOW);
    const result = await bootstrapSession(t.client, t.tokens, localStorage, NOW);
    expect(result.error).toMatchObject({ status: 400, message: 'This sign-in link is invalid or has expired.' });
    expect(t.tokens.getToken()).toBeNull();
    expect(localStorage.getItem('pendingUid')).toBeNull();
  });
});
