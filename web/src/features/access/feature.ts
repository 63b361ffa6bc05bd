// Access pages: /sorry (premium or limit error) and /upgrade (spec part 1 §2), for users without access too.
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const accessFeature: FeatureDefinition = {
  id: 'access',
  routes: [
    { path: '/sorry', component: lazy(() => import('./SorryPage')), audience: 'signedIn' },
    { path: '/upgrade', component: lazy(() => import('./UpgradePage')), audience: 'signedIn' },
  ],
};
