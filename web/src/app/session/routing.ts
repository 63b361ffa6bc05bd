// Session routing as a pure decision (spec part 1 §2 and §4, part 2 §2): what the current URL shows for
// the current session state. Which pages are public, standalone or open without access comes from the
// features (RouteAccess, platform/registry.ts). The router component renders the decision; tests cover every rule.
import type { Lang } from '@pluma/common/constants';
import type { RouteAccess } from '../../platform/registry';
import { authPath, isUnder, normalizePath, type AuthScreen } from '../../platform/session/paths';

export type SessionStatus = 'unknown' | 'signedOut' | 'signedIn';

export interface RoutingInput {
  pathname: string;
  search?: string;
  status: SessionStatus;
  /** Signed-in user's has_access. */
  hasAccess?: boolean;
  /** Signed-in user is staff (back-office routes are not a paid feature). */
  isStaff?: boolean;
  landingEnabled: boolean;
  spanishEnabled: boolean;
  signupEnabled: boolean;
  /** navigator.language */
  browserLanguage?: string;
  /** Language saved in localStorage, if any. */
  savedLanguage?: Lang | null;
  /** Who may open what: the registry's (app-registry.ts). */
  access: RouteAccess;
}

export type RouteDecision =
  | { kind: 'redirect'; to: string }
  | { kind: 'loading' }
  /** A standalone page (checkout, thank-you, reset password, embedded chat), whatever the session. */
  | { kind: 'standalone' }
  /** A public page for a signed-out visitor (pricing, privacy), outside the shell. */
  | { kind: 'public' }
  | { kind: 'landing'; lang: Lang }
  | { kind: 'auth'; screen: AuthScreen }
  /** The signed-in shell with its routes. */
  | { kind: 'app' }
  /** The signed-in shell showing the no-access panel. */
  | { kind: 'noAccess' };

const ROOT_AUTH: Record<string, AuthScreen> = { '/login': 'login', '/signup': 'signup', '/recovery': 'recovery' };
const NESTED_AUTH: Record<string, AuthScreen> = {
  '/auth': 'login',
  '/auth/login': 'login',
  '/auth/signup': 'signup',
  '/auth/recovery': 'recovery',
};

export function isAuthPath(pathname: string): boolean {
  const path = normalizePath(pathname);
  return path in ROOT_AUTH || isUnder(path, '/auth');
}

/**
 * spec part 1 §2: a pending sign-in uid in the URL sends non-embedded pages to / (after it is stored).
 * Returns the redirect target, or null when the URL carries no uid or is a page that keeps it (the embedded chat).
 */
export function pendingUidRedirect(pathname: string, search: string, keepSignInUid: readonly string[]): string | null {
  const uid = new URLSearchParams(search).get('uid');
  const path = normalizePath(pathname);
  if (!uid || keepSignInUid.some((prefix) => isUnder(path, prefix))) return null;
  return '/';
}

const under = (path: string, prefixes: readonly string[]) => prefixes.some((prefix) => isUnder(path, prefix));

export function decideRoute(input: RoutingInput): RouteDecision {
  const path = normalizePath(input.pathname);
  const uidRedirect = pendingUidRedirect(path, input.search ?? '', input.access.keepSignInUid);
  if (uidRedirect) return { kind: 'redirect', to: uidRedirect };

  if (under(path, input.access.standalone)) return { kind: 'standalone' };
  if (input.status === 'unknown') return { kind: 'loading' };
  if (input.status === 'signedIn') return decideSignedIn(path, input);
  return decideSignedOut(path, input);
}

function decideSignedIn(path: string, input: RoutingInput): RouteDecision {
  // spec part 1 §2: a signed-in user on a login or auth path goes to / (checkout is not an auth path).
  if (isAuthPath(path) || path === '/latam') return { kind: 'redirect', to: '/' };
  if (input.hasAccess) return { kind: 'app' };
  if (under(path, input.access.withoutAccess)) return { kind: 'app' };
  // Back-office pages are not a paid feature.
  if (input.isStaff && under(path, input.access.staff)) return { kind: 'app' };
  // spec part 2 §2: signed in with has_access false → the no-access panel at /*.
  return { kind: 'noAccess' };
}

function decideSignedOut(path: string, input: RoutingInput): RouteDecision {
  const { landingEnabled, spanishEnabled, signupEnabled } = input;
  if (under(path, input.access.public)) return { kind: 'public' };

  if (path === '/latam') return spanishEnabled ? { kind: 'landing', lang: 'es' } : { kind: 'redirect', to: '/' };

  const screen = landingEnabled ? NESTED_AUTH[path] : ROOT_AUTH[path];
  if (screen) {
    if (screen === 'signup' && !signupEnabled) return { kind: 'redirect', to: authPath('login', landingEnabled) };
    return { kind: 'auth', screen };
  }
  // The other layout's auth paths move to this layout's equivalents.
  const other = landingEnabled ? ROOT_AUTH[path] : NESTED_AUTH[path];
  if (other) return { kind: 'redirect', to: authPath(other, landingEnabled) };
  if (isUnder(path, '/auth')) return { kind: 'redirect', to: authPath('login', landingEnabled) };

  if (!landingEnabled) {
    // spec part 2 §2: without the landing page the auth screens answer at /*; the login shows in place
    // so the requested page opens right after signing in.
    return { kind: 'auth', screen: 'login' };
  }
  if (path === '/') {
    const browserSpanish = (input.browserLanguage ?? '').toLowerCase().startsWith('es');
    // spec part 1 §2: a Spanish browser with no user and no saved language goes to the Spanish landing.
    if (spanishEnabled && browserSpanish && !input.savedLanguage) return { kind: 'redirect', to: '/latam' };
    return { kind: 'landing', lang: input.savedLanguage ?? 'en' };
  }
  // Any other page needs an account: sign in first, then come back.
  const next = encodeURIComponent(path + (input.search ?? ''));
  return { kind: 'redirect', to: `${authPath('login', true)}?next=${next}` };
}
