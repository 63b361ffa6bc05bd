// Access pages: /sorry (premium or limit error) and /upgrade (spec part 1 §2).
import { lazy } from 'react';
import type { FeatureDefinition } from '../../app/registry';

export const accessFeature: FeatureDefinition = {
  id: 'access',
  routes: [
    { path: '/sorry', component: lazy(() => import('./SorryPage')) },
    { path: '/upgrade', component: lazy(() => import('./UpgradePage')) },
  ],
};
