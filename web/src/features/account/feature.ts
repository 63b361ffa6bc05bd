// Own account: settings and profile (spec part 1 §2), open to users without access too.
import { IconSettings, IconUser } from '@tabler/icons-react';
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const accountFeature: FeatureDefinition = {
  id: 'account',
  routes: [
    { path: '/settings', component: lazy(() => import('./SettingsPage')), audience: 'signedIn' },
    { path: '/profile', component: lazy(() => import('./ProfilePage')), audience: 'signedIn' },
  ],
  userMenu: [
    { labelKey: 'shell.profile', to: '/profile', icon: IconUser, order: 10 },
    { labelKey: 'shell.settings', to: '/settings', icon: IconSettings, order: 20 },
  ],
};
