// Onboarding (spec part 2 §2 "Shell and session routing", "Landing and walkthrough", "Reusable pieces"):
// the start-up check and onboarding screen (OnboardingGate, used by the shell) and the floating
// walkthrough video over every signed-in screen.
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const onboardingFeature: FeatureDefinition = {
  id: 'onboarding',
  widgets: [{ id: 'walkthrough-video', slot: 'overlay', component: lazy(() => import('./WalkthroughVideo')), order: 100 }],
};
