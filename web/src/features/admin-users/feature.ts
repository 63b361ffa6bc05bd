// Back-office customers (issue 11 item 2; spec part 1 §2 /admin/users, /admin/users/{id}, /admin/users/{id}/edit).
// Managers read and give access; admins also create, edit, delete and log in as a customer (docs/decisions.md
// "Staff rights"). The "Viewing as" bar of an impersonated session is an overlay widget of the shell.
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const adminUsersFeature: FeatureDefinition = {
  id: 'admin-users',
  routes: [
    { path: '/admin/users', component: lazy(() => import('./CustomersPage')), staffRole: 'manager' },
    { path: '/admin/users/:id', component: lazy(() => import('./CustomerPage')), staffRole: 'manager' },
    // The server refuses managers; the page is the admins'.
    { path: '/admin/users/:id/edit', component: lazy(() => import('./CustomerFormPage')), staffRole: 'admin' },
  ],
  // 'breadcrumbs.users' is the shell's own label (the menu renders before this namespace loads).
  staffMenus: [{ id: 'admin', items: [{ labelKey: 'breadcrumbs.users', to: '/admin/users' }] }],
  widgets: [{ id: 'viewing-as', slot: 'banner', component: lazy(() => import('./ViewingAsBar')), order: 0 }],
};
