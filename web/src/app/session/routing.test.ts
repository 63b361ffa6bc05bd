import { describe, expect, it } from 'vitest';
import type { RouteAccess } from '../../platform/registry';
import { decideRoute, isAuthPath, pendingUidRedirect, type RoutingInput } from './routing';

// What features declare (platform/registry.ts), including areas still to come (checkout, embedded chat, back-office).
const access: RouteAccess = {
  standalone: ['/checkout', '/thankyou', '/reset-password', '/chat-embedded', '/shared'],
  keepSignInUid: ['/chat-embedded'],
  public: ['/pricing', '/privacidad'],
  withoutAccess: ['/settings', '/profile', '/billing', '/pricing', '/sorry', '/upgrade', '/privacidad'],
  staff: ['/admin'],
};

const base: RoutingInput = {
  pathname: '/',
  status: 'signedOut',
  landingEnabled: true,
  spanishEnabled: true,
  signupEnabled: true,
  browserLanguage: 'en-US',
  savedLanguage: null,
  access,
};
const decide = (overrides: Partial<RoutingInput>) => decideRoute({ ...base, ...overrides });
const signedIn = (pathname: string, extra: Partial<RoutingInput> = {}) => decide({ pathname, status: 'signedIn', hasAccess: true, ...extra });

describe('session routing: unknown session', () => {
  it('shows the loading screen until the session is known', () => {
    expect(decide({ status: 'unknown', pathname: '/' })).toEqual({ kind: 'loading' });
    expect(decide({ status: 'unknown', pathname: '/settings' })).toEqual({ kind: 'loading' });
  });

  it('renders standalone pages whatever the session', () => {
    for (const pathname of ['/checkout/3', '/thankyou/9', '/reset-password', '/chat-embedded']) {
      expect(decide({ status: 'unknown', pathname })).toEqual({ kind: 'standalone' });
      expect(signedIn(pathname)).toEqual({ kind: 'standalone' });
    }
  });
});

describe('session routing: signed out with the landing page on', () => {
  it('shows the landing at / in the saved language (English by default)', () => {
    expect(decide({ pathname: '/' })).toEqual({ kind: 'landing', lang: 'en' });
    expect(decide({ pathname: '/', savedLanguage: 'es', browserLanguage: 'es-MX' })).toEqual({ kind: 'landing', lang: 'es' });
  });

  it('sends a Spanish browser with no saved language to /latam', () => {
    expect(decide({ pathname: '/', browserLanguage: 'es-MX' })).toEqual({ kind: 'redirect', to: '/latam' });
    expect(decide({ pathname: '/', browserLanguage: 'es' })).toEqual({ kind: 'redirect', to: '/latam' });
  });

  it('does not redirect a Spanish browser that saved a language, or when Spanish is off', () => {
    expect(decide({ pathname: '/', browserLanguage: 'es-MX', savedLanguage: 'en' })).toEqual({ kind: 'landing', lang: 'en' });
    expect(decide({ pathname: '/', browserLanguage: 'es-MX', spanishEnabled: false })).toEqual({ kind: 'landing', lang: 'en' });
  });

  it('shows the Spanish landing at /latam only when spanish_enabled', () => {
    expect(decide({ pathname: '/latam' })).toEqual({ kind: 'landing', lang: 'es' });
    expect(decide({ pathname: '/latam', spanishEnabled: false })).toEqual({ kind: 'redirect', to: '/' });
  });

  it('serves the auth screens under /auth, login by default', () => {
    expect(decide({ pathname: '/auth' })).toEqual({ kind: 'auth', screen: 'login' });
    expect(decide({ pathname: '/auth/' })).toEqual({ kind: 'auth', screen: 'login' });
    expect(decide({ pathname: '/auth/login' })).toEqual({ kind: 'auth', screen: 'login' });
    expect(decide({ pathname: '/auth/signup' })).toEqual({ kind: 'auth', screen: 'signup' });
    expect(decide({ pathname: '/auth/recovery' })).toEqual({ kind: 'auth', screen: 'recovery' });
    expect(decide({ pathname: '/auth/unknown' })).toEqual({ kind: 'redirect', to: '/auth/login' });
  });

  it('moves root auth paths under /auth', () => {
    expect(decide({ pathname: '/login' })).toEqual({ kind: 'redirect', to: '/auth/login' });
    expect(decide({ pathname: '/signup' })).toEqual({ kind: 'redirect', to: '/auth/signup' });
    expect(decide({ pathname: '/recovery' })).toEqual({ kind: 'redirect', to: '/auth/recovery' });
  });

  it('sends signup to login when signup is disabled', () => {
    expect(decide({ pathname: '/auth/signup', signupEnabled: false })).toEqual({ kind: 'redirect', to: '/auth/login' });
  });

  it('asks for sign-in before an app page, remembering where to return', () => {
    expect(decide({ pathname: '/settings' })).toEqual({ kind: 'redirect', to: '/auth/login?next=%2Fsettings' });
    expect(decide({ pathname: '/templates', search: '?tag=ads' })).toEqual({ kind: 'redirect', to: '/auth/login?next=%2Ftemplates%3Ftag%3Dads' });
  });

  it('shows pricing and the privacy policy without an account', () => {
    expect(decide({ pathname: '/pricing' })).toEqual({ kind: 'public' });
    expect(decide({ pathname: '/privacidad' })).toEqual({ kind: 'public' });
  });
});

describe('session routing: signed out with the landing page off', () => {
  const off = (pathname: string, extra: Partial<RoutingInput> = {}) => decide({ pathname, landingEnabled: false, ...extra });

  it('serves the auth screens at the root, login at / and at any other path', () => {
    expect(off('/')).toEqual({ kind: 'auth', screen: 'login' });
    expect(off('/login')).toEqual({ kind: 'auth', screen: 'login' });
    expect(off('/signup')).toEqual({ kind: 'auth', screen: 'signup' });
    expect(off('/recovery')).toEqual({ kind: 'auth', screen: 'recovery' });
    expect(off('/settings')).toEqual({ kind: 'auth', screen: 'login' });
  });

  it('moves /auth paths to the root ones', () => {
    expect(off('/auth')).toEqual({ kind: 'redirect', to: '/login' });
    expect(off('/auth/signup')).toEqual({ kind: 'redirect', to: '/signup' });
    expect(off('/auth/recovery')).toEqual({ kind: 'redirect', to: '/recovery' });
  });

  it('never sends a Spanish browser to the landing', () => {
    expect(off('/', { browserLanguage: 'es-ES' })).toEqual({ kind: 'auth', screen: 'login' });
  });

  it('sends signup to /login when signup is disabled', () => {
    expect(off('/signup', { signupEnabled: false })).toEqual({ kind: 'redirect', to: '/login' });
  });
});

describe('session routing: signed in', () => {
  it('sends a signed-in user on an auth path to /', () => {
    for (const pathname of ['/auth', '/auth/login', '/auth/signup', '/auth/recovery', '/login', '/signup', '/recovery', '/latam']) {
      expect(signedIn(pathname)).toEqual({ kind: 'redirect', to: '/' });
    }
  });

  it('exempts checkout from the auth redirect', () => {
    expect(isAuthPath('/checkout/4')).toBe(false);
    expect(signedIn('/checkout/4')).toEqual({ kind: 'standalone' });
  });

  it('renders the app for a user with access', () => {
    expect(signedIn('/')).toEqual({ kind: 'app' });
    expect(signedIn('/templates/tags/x')).toEqual({ kind: 'app' });
    expect(signedIn('/pricing')).toEqual({ kind: 'app' });
  });

  it('shows the no-access panel without access, except on the open pages', () => {
    const noAccess = { hasAccess: false };
    expect(signedIn('/', noAccess)).toEqual({ kind: 'noAccess' });
    expect(signedIn('/conversations', noAccess)).toEqual({ kind: 'noAccess' });
    expect(signedIn('/avatars/3', noAccess)).toEqual({ kind: 'noAccess' });
    for (const pathname of ['/settings', '/profile', '/billing', '/pricing', '/sorry', '/upgrade', '/privacidad']) {
      expect(signedIn(pathname, noAccess)).toEqual({ kind: 'app' });
    }
    expect(signedIn('/settingsx', noAccess)).toEqual({ kind: 'noAccess' });
  });

  it('lets staff without a purchase into the back-office only', () => {
    expect(signedIn('/admin/users', { hasAccess: false, isStaff: true })).toEqual({ kind: 'app' });
    expect(signedIn('/admin/users', { hasAccess: false, isStaff: false })).toEqual({ kind: 'noAccess' });
    expect(signedIn('/conversations', { hasAccess: false, isStaff: true })).toEqual({ kind: 'noAccess' });
  });
});

describe('pending uid in the URL (spec part 1 §2)', () => {
  it('sends non-embedded pages to / and leaves the embedded chat alone', () => {
    expect(pendingUidRedirect('/templates', '?uid=abc', access.keepSignInUid)).toBe('/');
    expect(pendingUidRedirect('/', '?uid=abc', access.keepSignInUid)).toBe('/');
    expect(pendingUidRedirect('/chat-embedded', '?uid=abc', access.keepSignInUid)).toBeNull();
    expect(pendingUidRedirect('/templates', '?tag=x', access.keepSignInUid)).toBeNull();
    expect(decide({ pathname: '/settings', search: '?uid=abc', status: 'signedIn', hasAccess: true })).toEqual({ kind: 'redirect', to: '/' });
    expect(decide({ pathname: '/chat-embedded', search: '?uid=abc' })).toEqual({ kind: 'standalone' });
  });
});
