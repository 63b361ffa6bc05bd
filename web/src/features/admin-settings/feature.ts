// Back-office settings (issue 11 item 5; spec part 1 §2 /admin/settings): app configuration, key tests and
// the outbox. Admins only (Pluma's staff rights: managers have no settings), in the Admin staff menu.
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const adminSettingsFeature: FeatureDefinition = {
  id: 'admin-settings',
  routes: [{ path: '/admin/settings', component: lazy(() => import('./SettingsPage')), staffRole: 'admin' }],
  // 'breadcrumbs.settings' is the shell's own label (the menu renders before this namespace loads).
  staffMenus: [{ id: 'admin', items: [{ labelKey: 'breadcrumbs.settings', to: '/admin/settings', role: 'admin' }] }],
};
