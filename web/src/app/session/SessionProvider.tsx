// Holds the session: token (shared by tabs), current user (TanStack Query), and the effects that follow
// the user — language, colour scheme, socket, configuration reload on a role change.
import { useMantineColorScheme } from '@mantine/core';
import type { AuthResponse, CurrentUser } from '@pluma/common/users';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { api, listenToSession, tokenStore } from '../../api/instance';
import { organizationStore } from '../../api/organization';
import { connectSocket, disconnectSocket } from '../../api/socket';
import { safeStorage } from '../../api/storage-keys';
import { clearLocalDocumentData } from '../../features/documents/local-data';
import { applyLanguage, currentLanguage } from '../../i18n';
import { showError } from '../../ui/alerts';
import { describeError } from '../../ui/error-handler';
import { APP_CONFIG_QUERY_KEY } from '../../platform/config/app-config';
import { bootstrapSession, type BootstrapResult } from './bootstrap';
import { CURRENT_USER_QUERY_KEY, SessionContext, type SessionState, type SessionValue } from '../../platform/session/session-context';

// Once per page load (the app's one query client), shared by StrictMode's double effects. Keyed by the
// client, not a module variable: each app a test renders starts as a page load does.
const bootstraps = new WeakMap<QueryClient, Promise<BootstrapResult>>();
function runBootstrap(queryClient: QueryClient): Promise<BootstrapResult> {
  let bootstrap = bootstraps.get(queryClient);
  if (!bootstrap) {
    bootstrap = bootstrapSession(api, tokenStore, safeStorage());
    bootstraps.set(queryClient, bootstrap);
  }
  return bootstrap;
}

const fetchCurrentUser = ({ signal }: { signal: AbortSignal }) => api.get<CurrentUser>('/users', { signal });

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const token = useSyncExternalStore(tokenStore.subscribe, tokenStore.getToken, tokenStore.getToken);
  const [booted, setBooted] = useState(false);

  useEffect(() => {
    let alive = true;
    void runBootstrap(queryClient).then((result) => {
      if (!alive) return;
      if (result.user) queryClient.setQueryData(CURRENT_USER_QUERY_KEY, result.user);
      if (result.error) {
        const outcome = describeError(result.error, t, { showValidation: true });
        if (outcome.kind === 'alert') showError(outcome.message);
      }
      setBooted(true);
    });
    return () => {
      alive = false;
    };
  }, [queryClient, t]);

  const userQuery = useQuery({
    queryKey: CURRENT_USER_QUERY_KEY,
    queryFn: fetchCurrentUser,
    enabled: booted && token !== null,
    staleTime: 10_000,
  });

  // Session renewed or ended by the API client (refresh, revoked token).
  useEffect(
    () =>
      listenToSession({
        onRefreshed: (response) => queryClient.setQueryData(CURRENT_USER_QUERY_KEY, response.user),
        onSignedOut: () => showError(t('session.expired')),
      }),
    [queryClient, t],
  );

  // Another tab signed in (possibly as someone else): load the user again.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === 'token' && event.newValue) void queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY });
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [queryClient]);

  // Signed out (here, in another tab, or by the server): forget everything but the public configuration.
  useEffect(() => {
    if (token !== null) return;
    disconnectSocket();
    organizationStore.clearActive();
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== APP_CONFIG_QUERY_KEY[0] });
  }, [token, queryClient]);

  const state: SessionState = useMemo(() => {
    if (!booted) return { status: 'unknown', user: null };
    if (token === null) return { status: 'signedOut', user: null };
    if (userQuery.data) return { status: 'signedIn', user: userQuery.data };
    if (userQuery.isError) return { status: 'error', user: null, error: userQuery.error };
    return { status: 'unknown', user: null };
  }, [booted, token, userQuery.data, userQuery.isError, userQuery.error]);

  const user = state.user;
  const userId = user?.user_id ?? null;
  const userLang = user?.lang ?? null;
  const darkMode = user?.dark_mode ?? null;
  const staffRole = user ? (user.staff?.role ?? 'none') : null;

  // spec part 1 §9: the profile's language wins once signed in; it is also kept in localStorage.
  useEffect(() => {
    if (userLang && userLang !== currentLanguage()) applyLanguage(userLang);
  }, [userLang]);

  // Dark mode: the user's setting when signed in, the system's otherwise.
  useEffect(() => {
    if (state.status === 'signedIn') setColorScheme(darkMode ? 'dark' : 'light');
    else if (state.status === 'signedOut') setColorScheme('auto');
  }, [state.status, darkMode, setColorScheme]);

  // Socket: connected while signed in (spec part 2 §7), room user-{id} is joined by the server.
  useEffect(() => {
    if (userId === null) return;
    void connectSocket(tokenStore.getToken);
    return () => disconnectSocket();
  }, [userId]);

  // spec part 2 §4: the configuration is reloaded when the admin/non-admin role changes.
  const lastRole = useRef<string | null>(null);
  useEffect(() => {
    if (staffRole === null) return;
    if (lastRole.current !== null && lastRole.current !== staffRole) {
      void queryClient.invalidateQueries({ queryKey: APP_CONFIG_QUERY_KEY });
    }
    lastRole.current = staffRole;
  }, [staffRole, queryClient]);

  const signIn = useCallback(
    (response: AuthResponse) => {
      queryClient.setQueryData(CURRENT_USER_QUERY_KEY, response.user);
      tokenStore.setSession(response.token, Date.now());
    },
    [queryClient],
  );

  // Sign-out first leaves the page, then drops the token once / is shown: router navigations are
  // transitions, so clearing first would render the signed-out app page (and its login redirect) first.
  const pendingSignOut = useRef<{ token: string; done: () => void } | null>(null);
  const finishSignOut = useCallback(async () => {
    const pending = pendingSignOut.current;
    if (!pending) return;
    pendingSignOut.current = null;
    tokenStore.clear();
    // Unsaved document text is not left behind for the next person on this browser.
    clearLocalDocumentData();
    await api.post('/auth/logout', undefined, { auth: false, headers: { Authorization: `Bearer ${pending.token}` } }).catch(() => undefined);
    pending.done();
  }, []);
  useEffect(() => {
    if (location.pathname === '/') void finishSignOut();
  }, [location.pathname, finishSignOut]);

  const signOut = useCallback(() => {
    const token = tokenStore.getToken();
    if (!token) {
      navigate('/', { replace: true });
      return Promise.resolve();
    }
    const finished = new Promise<void>((done) => {
      pendingSignOut.current = { token, done };
    });
    if (location.pathname === '/') void finishSignOut();
    else navigate('/', { replace: true });
    return finished;
  }, [navigate, location.pathname, finishSignOut]);

  const setUser = useCallback((next: CurrentUser) => queryClient.setQueryData(CURRENT_USER_QUERY_KEY, next), [queryClient]);
  const reloadUser = useCallback(() => queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY }), [queryClient]);

  const value: SessionValue = useMemo(() => ({ ...state, signIn, signOut, setUser, reloadUser }), [state, signIn, signOut, setUser, reloadUser]);
  return <SessionContext value={value}>{children}</SessionContext>;
}
