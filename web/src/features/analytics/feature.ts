// Back-office analytics (issue 11 item 6; spec part 1 §2 /admin/analytics/income, customers, products).
// Staff open them (managers too); the Analytics menu shows only in the Personal organization (spec part 2 §2).
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const analyticsFeature: FeatureDefinition = {
  id: 'analytics',
  routes: [
    { path: '/admin/analytics/income', component: lazy(() => import('./IncomePage')), staffRole: 'manager' },
    { path: '/admin/analytics/customers', component: lazy(() => import('./CustomersPage')), staffRole: 'manager' },
    { path: '/admin/analytics/products', component: lazy(() => import('./ProductsPage')), staffRole: 'manager' },
  ],
  // The shell's own labels (the menu renders before this namespace loads).
  staffMenus: [
    {
      id: 'analytics',
      items: [
        { labelKey: 'breadcrumbs.customers', to: '/admin/analytics/customers' },
        { labelKey: 'breadcrumbs.income', to: '/admin/analytics/income' },
        { labelKey: 'breadcrumbs.products', to: '/admin/analytics/products' },
      ],
    },
  ],
};
