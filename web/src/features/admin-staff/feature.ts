// Back-office staff (issue 11 item 3; spec part 1 §2 /admin/staff). Admins only (docs/decisions.md "Staff
// rights"): the menu entry is hidden from managers and the server refuses them.
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const adminStaffFeature: FeatureDefinition = {
  id: 'admin-staff',
  routes: [{ path: '/admin/staff', component: lazy(() => import('./StaffPage')), staffRole: 'admin' }],
  // 'breadcrumbs.staff' is the shell's own label (the menu renders before this namespace loads).
  staffMenus: [{ id: 'admin', items: [{ labelKey: 'breadcrumbs.staff', to: '/admin/staff', role: 'admin' }] }],
};
