import { afterEach, describe, expect, it } from 'vitest';
import { createTokenStore, FIRST_PAINT_COOKIE } from './token-store';

// jsdom keeps cookies per path like a browser: the cookie is set for /conversations, so read it from there.
function cookieAt(pathname: string): string | null {
  window.history.replaceState(null, '', pathname);
  const match = new RegExp(`(?:^|;\\s*)${FIRST_PAINT_COOKIE}=([^;]*)`).exec(document.cookie);
  return match ? match[1]! : null;
}

describe('the first-paint cookie follows the session token', () => {
  afterEach(() => {
    window.localStorage.clear();
    createTokenStore(window.localStorage, { firstPaintCookie: true }).clear();
    window.history.replaceState(null, '', '/');
  });

  it('is written on sign-in and refresh, for /conversations only, and removed on sign-out', () => {
    const tokens = createTokenStore(window.localStorage, { firstPaintCookie: true });
    tokens.setSession('token-one-aaaaaaaaaaaaaaaa', Date.now());
    expect(cookieAt('/conversations/7')).toBe('token-one-aaaaaaaaaaaaaaaa');
    expect(cookieAt('/settings')).toBeNull();
    tokens.setSession('token-two-bbbbbbbbbbbbbbbb', Date.now());
    expect(cookieAt('/conversations/7')).toBe('token-two-bbbbbbbbbbbbbbbb');
    tokens.clear();
    expect(cookieAt('/conversations/7')).toBeNull();
  });

  it('catches up with a session stored before it existed, and is never written for a "view as" tab', () => {
    window.localStorage.setItem('token', 'older-session-cccccccccccccc');
    createTokenStore(window.localStorage, { firstPaintCookie: true });
    expect(cookieAt('/conversations/1')).toBe('older-session-cccccccccccccc');
    createTokenStore(window.localStorage, { firstPaintCookie: true }).clear();

    const viewAs = createTokenStore(window.sessionStorage);
    viewAs.setSession('customer-session-dddddddddd', Date.now());
    expect(cookieAt('/conversations/1')).toBeNull();
    window.sessionStorage.clear();
  });
});
