// The privacy policy: for everyone, signed in (in the shell) or not (public layout).
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const legalFeature: FeatureDefinition = {
  id: 'legal',
  routes: [{ path: '/privacidad', component: lazy(() => import('./PrivacyPage')), audience: 'public' }],
};
