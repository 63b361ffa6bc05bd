// The signed-in part of the app, loaded after sign-in: the shell and every registered screen.
// All of Mantine's styles: the entry loads only the first screens' (main.tsx, app/mantine-first.css).
import '@mantine/core/styles.layer.css';
import { Route, Routes, useLocation } from 'react-router';
import NotFoundPage from '../../ui/NotFoundPage';
import { SecondFactorRequiredPage } from '../../features/auth/SecondFactorRequiredPage';
import { OnboardingGate, OnboardingOutlet } from '../../features/onboarding/OnboardingGate';
import { OrganizationGate, PersonalOnlyPages } from '../../features/organizations/organization-context';
import { lazy } from 'react';
import { registry } from '../app-registry';
import { noAccessNotice, routeOpenTo } from '../../platform/registry';
import { useAppConfig } from '../../platform/config/app-config';
import { useCurrentUser } from '../../platform/session/session-context';
import { Shell } from './Shell';

const HomePage = lazy(() => import('../home/HomePage'));
const NoAccessPanel = lazy(() => import('../../features/access/NoAccessPanel'));
const FeatureUnavailablePage = lazy(() => import('./FeatureUnavailablePage'));

export default function ShellApp({ noAccess }: { noAccess: boolean }) {
  const { pathname } = useLocation();
  // spec part 2 §2, §4: the organization is chosen before the first screen; staff pages only in Personal.
  return (
    <OrganizationGate>
      {/* spec part 2 §2: the onboarding check of a visit that starts at / (features/onboarding). */}
      <OnboardingGate>
        <Shell>
          <OnboardingOutlet>
            {noAccess ? (
              <NoAccessPanel variant={noAccessNotice(registry.routes, pathname)} />
            ) : (
              <PersonalOnlyPages>
                <ShellRoutes />
              </PersonalOnlyPages>
            )}
          </OnboardingOutlet>
        </Shell>
      </OnboardingGate>
    </OrganizationGate>
  );
}

function ShellRoutes() {
  const user = useCurrentUser();
  const config = useAppConfig();
  const staffRole = user.staff?.role ?? null;
  const hasHome = registry.routes.some((route) => route.path === '/');
  return (
    <Routes>
      {!hasHome && <Route path="/" element={<HomePage />} />}
      {registry.routes.map((route) => {
        // A staff page is a 404 for everyone else; 'manager' pages admit admins too.
        const allowed = routeOpenTo(route, staffRole);
        // A switched-off feature is not available to anyone, staff included (platform/registry.ts routeSwitch).
        const off = route.configKey !== undefined && !config.on(route.configKey);
        // A staff admin whose sign-in has not passed a second factor is sent to set one up (issue 33).
        const needsSecondFactor = route.staffRole !== undefined && user.two_factor.required && !user.two_factor.verified;
        const element = off ? <FeatureUnavailablePage /> : !allowed ? <NotFoundPage /> : needsSecondFactor ? <SecondFactorRequiredPage /> : <route.component />;
        return <Route key={route.path} path={route.path} element={element} />;
      })}
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
