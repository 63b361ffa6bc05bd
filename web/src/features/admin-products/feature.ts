// Back-office products and discount codes (issue 11 item 4; spec part 1 §2 /admin/products,
// /admin/products/{product_id}/edit). Staff managers read the lists; only admins open the form (Pluma's
// staff rights), and the pages hide what a manager may not do.
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

const ProductFormPage = lazy(() => import('./ProductFormPage'));

export const adminProductsFeature: FeatureDefinition = {
  id: 'admin-products',
  routes: [
    { path: '/admin/products', component: lazy(() => import('./ProductsPage')), staffRole: 'manager' },
    { path: '/admin/products/new', component: ProductFormPage, staffRole: 'admin' },
    { path: '/admin/products/:id/edit', component: ProductFormPage, staffRole: 'admin' },
    { path: '/admin/discounts', component: lazy(() => import('./DiscountsPage')), staffRole: 'manager' },
  ],
  // The shell's own labels (the menu renders before this namespace loads).
  staffMenus: [
    {
      id: 'admin',
      items: [
        { labelKey: 'breadcrumbs.products', to: '/admin/products' },
        { labelKey: 'breadcrumbs.discounts', to: '/admin/discounts' },
      ],
    },
  ],
};
