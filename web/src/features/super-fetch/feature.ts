// Super Fetch (spec part 2 §2 "Super Fetch"; issue 14 item 4): /super-fetch, and its tab when `super_fetch`
// is on — never inside an organization (spec part 1 §2 "Main navigation tabs").
import { IconBolt } from '@tabler/icons-react';
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const superFetchFeature: FeatureDefinition = {
  id: 'super-fetch',
  routes: [{ path: '/super-fetch', component: lazy(() => import('./SuperFetchPage')) }],
  tabs: [{ id: 'super-fetch', labelKey: 'breadcrumbs.super-fetch', to: '/super-fetch', icon: IconBolt, configKey: 'super_fetch', hiddenInOrganization: true, order: 20 }],
};
