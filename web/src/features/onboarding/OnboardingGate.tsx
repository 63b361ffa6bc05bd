// Onboarding at start-up (spec part 2 §2 "Shell and session routing"): "User with a default organization:
// a loading screen until organization, avatars and conversations are loaded. If the user has at most one
// conversation and owns no avatar, an onboarding screen is shown ... Otherwise the main panel."
// The check runs once, when the visit starts at / (the organization is already chosen: this sits inside
// OrganizationGate) and only for a user with a default organization; a visit that starts anywhere else —
// an open conversation drawn by the server, a deep link — never waits for it. The onboarding screen takes
// the place of the screen at / inside the shell until the user goes elsewhere or continues.
import { createContext, lazy, use, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { LoadingScreen } from '../../ui/LoadingScreen';
import { useCurrentUser } from '../../platform/session/session-context';
import { useOnboardingStatus } from './onboarding-api';

// Its own chunk: most visits never show it (the shell's Suspense covers the load).
const OnboardingPage = lazy(() => import('./OnboardingPage'));

interface OnboardingState {
  active: boolean;
  dismiss: () => void;
}

const OnboardingContext = createContext<OnboardingState>({ active: false, dismiss: () => {} });

/** Around the shell: the start-up check and its loading screen (with the 30 s way out, LoadingScreen). */
export function OnboardingGate({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const [check] = useState(() => pathname === '/' && user.default_organization !== null);
  const status = useOnboardingStatus(check);
  const [dismissed, setDismissed] = useState(false);
  // Leaving / ends the onboarding for this visit (derived during render, no effect needed).
  if (!dismissed && pathname !== '/') setDismissed(true);
  // A failed check shows the main panel: onboarding is a welcome, never a wall.
  if (check && status.isPending) return <LoadingScreen />;
  const active = check && !dismissed && status.data?.needs_onboarding === true;
  return <OnboardingContext value={{ active, dismiss: () => setDismissed(true) }}>{children}</OnboardingContext>;
}

/** Inside the shell: the onboarding screen in place of the screen at /, while it is active. */
export function OnboardingOutlet({ children }: { children: ReactNode }) {
  const { active, dismiss } = use(OnboardingContext);
  return active ? <OnboardingPage onContinue={dismiss} /> : children;
}
