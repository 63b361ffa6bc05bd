// Session state shared with every screen (spec part 1 §4: unknown, signed out, signed in).
import type { AuthResponse, CurrentUser } from '@pluma/common/users';
import { createContext, useContext } from 'react';

export const CURRENT_USER_QUERY_KEY = ['currentUser'] as const;

export type SessionState =
  | { status: 'unknown'; user: null }
  | { status: 'signedOut'; user: null }
  | { status: 'signedIn'; user: CurrentUser }
  /** The user could not be loaded (server unreachable); the token is kept. */
  | { status: 'error'; user: null; error: unknown };

export interface SessionApi {
  /** Stores a new session (login, signup, password reset, one-time token). */
  signIn(response: AuthResponse): void;
  /** Ends the session here and on the server, then goes to /. */
  signOut(): Promise<void>;
  /** Replaces the cached current user (after a profile save). */
  setUser(user: CurrentUser): void;
  /** Loads the current user again. */
  reloadUser(): Promise<void>;
}

export type SessionValue = SessionState & SessionApi;

export const SessionContext = createContext<SessionValue | null>(null);

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}

/** The signed-in user (for screens that only render when signed in). */
export function useCurrentUser(): CurrentUser {
  const session = useSession();
  if (session.status !== 'signedIn') throw new Error('useCurrentUser needs a signed-in session');
  return session.user;
}
