// Route paths of the session layer (spec part 1 §2, part 2 §2). Which pages are public, standalone or open
// without access is each feature's to say (platform/registry.ts, RouteAccess).
export type AuthScreen = 'login' | 'signup' | 'recovery';

/** Where the auth screens live: under /auth when the landing page is on, at the root otherwise. */
export function authPath(screen: AuthScreen, landingEnabled: boolean): string {
  return landingEnabled ? `/auth/${screen}` : `/${screen}`;
}

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
