// Pricing: for everyone, signed in (in the shell, with or without access) or not (public layout).
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const pricingFeature: FeatureDefinition = {
  id: 'pricing',
  routes: [{ path: '/pricing', component: lazy(() => import('./PricingPage')), audience: 'public' }],
};
