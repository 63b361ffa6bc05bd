import { lazy } from 'react';
import type { FeatureDefinition } from '../../app/registry';

export const PricingPage = lazy(() => import('./PricingPage'));

export const pricingFeature: FeatureDefinition = {
  id: 'pricing',
  routes: [{ path: '/pricing', component: PricingPage }],
};
