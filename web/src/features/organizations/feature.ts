// Organizations (issue 12; spec part 2 §2 "Routes of the signed-in shell", "Organizations, groups,
// campaigns"): the user's organizations, every organization (staff), the settings form, and the active
// organization's admin panel. The picker is a sidebar widget; the choice of organization at start wraps
// the shell (organization-context.tsx). Groups are their own feature (features/groups).
import { lazy } from 'react';
import type { FeatureDefinition } from '../../platform/registry';

export const organizationsFeature: FeatureDefinition = {
  id: 'organizations',
  routes: [
    { path: '/organizations', component: lazy(() => import('./OrganizationsPage')) },
    { path: '/admin/organizations', component: lazy(() => import('./AllOrganizationsPage')), staffRole: 'manager' },
    // spec part 2 §6: staff create organizations (a manager too); the server refuses everyone else.
    { path: '/organizations/organization-settings', component: lazy(() => import('./OrganizationSettingsPage')), staffRole: 'manager' },
    { path: '/organizations/organization-settings/:id', component: lazy(() => import('./OrganizationSettingsPage')) },
    { path: '/organization/admin-panel', component: lazy(() => import('./MembersPage')) },
    // spec part 2 §2: 'new' or a numeric id (the save rule of §4).
    { path: '/organization/admin-panel/:userId', component: lazy(() => import('./MemberFormPage')) },
    { path: '/organization/admin-panel/users/:userId', component: lazy(() => import('./MemberPage')) },
    // A group's user (from a group's page, features/groups): the same user detail (its Admins and Managers).
    { path: '/organization/groups/:groupId/users/:userId', component: lazy(() => import('./MemberPage')) },
    { path: '/organization/analytics', component: lazy(() => import('./OrganizationAnalyticsPage')) },
    // spec part 2 §2: the organization's products, for its Admin ('new' or a product's id, the save rule of §4).
    { path: '/organization/admin/products', component: lazy(() => import('./OrganizationProductsPage')) },
    { path: '/organization/admin/products/:id', component: lazy(() => import('./OrganizationProductFormPage')) },
  ],
  // Prefixes of the paths above that are no page (issue 30 item 16).
  crumbLinks: [
    { path: '/organization/admin', to: '/organization/admin-panel' },
    { path: '/organization/admin-panel/users', to: '/organization/admin-panel' },
    { path: '/organization/groups/:groupId/users', to: '/organization/groups/:groupId' },
  ],
  // 'breadcrumbs.organizations' is the shell's own label (the menu renders before this namespace loads).
  staffMenus: [{ id: 'admin', items: [{ labelKey: 'breadcrumbs.organizations', to: '/admin/organizations' }] }],
  widgets: [{ id: 'organization-picker', slot: 'sidebarTop', component: lazy(() => import('./OrganizationPicker')), order: 0 }],
};
