// Route paths of the session layer (spec part 1 §2, part 2 §2).
export type AuthScreen = 'login' | 'signup' | 'recovery';

/** Where the auth screens live: under /auth when the landing page is on, at the root otherwise. */
export function authPath(screen: AuthScreen, landingEnabled: boolean): string {
  return landingEnabled ? `/auth/${screen}` : `/${screen}`;
}

/** Screens a user without access may still open (everything else shows the no-access panel). */
export const OPEN_WITHOUT_ACCESS = ['/settings', '/profile', '/billing', '/pricing', '/sorry', '/upgrade', '/privacidad'];

/** Pages that render the same for everyone, outside the session switch (no sign-in needed, no shell). */
export const STANDALONE_PREFIXES = ['/checkout', '/thankyou', '/reset-password', '/chat-embedded', '/shared'];

/** Public pages that sit in the app shell once signed in. */
export const PUBLIC_IN_SHELL = ['/pricing', '/privacidad'];

/** The embedded chat keeps its own query parameters (spec part 1 §2: exempt from the pending-uid redirect). */
export const EMBEDDED_CHAT_PATH = '/chat-embedded';

/** True when `pathname` is `prefix` or below it. */
export function isUnder(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

export function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** A same-site path that is safe to navigate to after sign-in (no scheme, no protocol-relative URL). */
export function safeNextPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}
