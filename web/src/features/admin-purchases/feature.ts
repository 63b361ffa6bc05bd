// Back-office purchases and invoices (issue 11 item 1; spec part 1 §2 /admin, the admin area's default
// tab). Staff open it (managers read, admins also edit: Pluma's staff rights); first in the Admin menu,
// which the shell shows only in the Personal organization (spec part 2 §2).
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const adminPurchasesFeature: FeatureDefinition = {
  id: 'admin-purchases',
  routes: [{ path: '/admin', component: lazy(() => import('./AdminPurchasesPage')), staffRole: 'manager' }],
  // 'breadcrumbs.purchases' is the shell's own label (the menu renders before this namespace loads).
  staffMenus: [{ id: 'admin', items: [{ labelKey: 'breadcrumbs.purchases', to: '/admin' }] }],
};
