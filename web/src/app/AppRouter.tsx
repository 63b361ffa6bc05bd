// Renders what the session routing decision says for the current URL (session/routing.ts).
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { tokenStore } from '../api/instance';
import { applyLanguage, savedLanguage } from '../i18n';
import { FirstPaintDone } from '../prerender/remove-first-paint';
import { registry } from './app-registry';
import { RouteErrorBoundary } from '../ui/RouteErrorBoundary';
import { useAppConfig, useAppConfigQuery } from '../platform/config/app-config';
import { LoadingScreen } from '../ui/LoadingScreen';
import { decideRoute } from './session/routing';
import { CURRENT_USER_QUERY_KEY, useSession } from '../platform/session/session-context';
import { StartupError } from './StartupError';

const LandingPage = lazy(() => import('../features/landing/LandingPage'));
const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const SignupPage = lazy(() => import('../features/auth/SignupPage'));
const RecoveryPage = lazy(() => import('../features/auth/RecoveryPage'));
// Everything behind a decision loads on demand, so the sign-in screens carry only what they render.
const ShellApp = lazy(() => import('./shell/ShellApp'));
const StandaloneRoutes = lazy(() => import('./StandaloneRoutes'));
const PublicRoutes = lazy(() => import('./PublicRoutes'));

const AUTH_SCREENS = { login: LoginPage, signup: SignupPage, recovery: RecoveryPage };

export function AppRouter() {
  const configQuery = useAppConfigQuery();
  const session = useSession();
  const location = useLocation();
  const queryClient = useQueryClient();
  // Re-render on language changes (the landing language follows it).
  useTranslation();

  // spec part 2 §2: the current user is refreshed on every navigation.
  const firstPath = useRef(true);
  useEffect(() => {
    if (firstPath.current) {
      firstPath.current = false;
      return;
    }
    if (tokenStore.getToken()) void queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY });
  }, [location.pathname, queryClient]);

  if (configQuery.isError && !configQuery.data) return <StartupError onRetry={() => void configQuery.refetch()} />;
  if (!configQuery.data) return <LoadingScreen />;
  if (session.status === 'error') return <StartupError onRetry={() => void session.reloadUser()} onSignOut={() => void session.signOut()} />;
  return <SessionRoutes />;
}

function SessionRoutes() {
  const config = useAppConfig();
  const session = useSession();
  const location = useLocation();
  const user = session.user;
  const decision = decideRoute({
    pathname: location.pathname,
    search: location.search,
    status: session.status === 'error' ? 'unknown' : session.status,
    hasAccess: user?.has_access ?? false,
    isStaff: Boolean(user?.staff),
    landingEnabled: config.on('landing_enabled'),
    spanishEnabled: config.on('spanish_enabled'),
    signupEnabled: config.on('signup_enabled'),
    browserLanguage: typeof navigator === 'undefined' ? '' : navigator.language,
    savedLanguage: savedLanguage(),
    access: registry.access,
  });

  switch (decision.kind) {
    case 'redirect':
      return <Navigate to={decision.to} replace />;
    case 'loading':
      return <LoadingScreen />;
    case 'standalone':
      return (
        <Screens>
          <StandaloneRoutes />
        </Screens>
      );
    case 'public':
      return (
        <Screens>
          <PublicRoutes />
        </Screens>
      );
    case 'landing':
      return <LandingRoute lang={decision.lang} />;
    case 'auth': {
      const Screen = AUTH_SCREENS[decision.screen];
      return (
        <Screens>
          <Screen />
        </Screens>
      );
    }
    case 'noAccess':
    case 'app':
      return (
        <Screens>
          <ShellApp noAccess={decision.kind === 'noAccess'} />
        </Screens>
      );
  }
}

/** Lazy screens outside the shell, with the loading screen while their code arrives. */
function Screens({ children }: { children: React.ReactNode }) {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary resetKey={pathname}>
      <Suspense fallback={<LoadingScreen />}>
        {children}
        <FirstPaintDone />
      </Suspense>
    </RouteErrorBoundary>
  );
}

function LandingRoute({ lang }: { lang: 'en' | 'es' }) {
  // spec part 2 §2: the Spanish landing sets the language to es.
  useEffect(() => {
    if (lang === 'es') applyLanguage('es');
  }, [lang]);
  return (
    <Screens>
      <LandingPage lang={lang} />
    </Screens>
  );
}
