import { lazy } from 'react';
import type { FeatureDefinition } from '../../app/registry';

export const PrivacyPage = lazy(() => import('./PrivacyPage'));

export const legalFeature: FeatureDefinition = {
  id: 'legal',
  routes: [{ path: '/privacidad', component: PrivacyPage }],
};
