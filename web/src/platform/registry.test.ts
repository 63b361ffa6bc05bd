import { IconMessages, IconUsers } from '@tabler/icons-react';
import { lazy } from 'react';
import { describe, expect, it } from 'vitest';
import { features as appFeatures } from '../features';
import { buildRegistry, noAccessNotice, routePrefix, visibleStaffMenu, visibleTabs, type FeatureDefinition } from './registry';

const Screen = lazy(async () => ({ default: () => null }));

const features: FeatureDefinition[] = [
  {
    id: 'superfetch',
    tabs: [{ id: 'super-fetch', labelKey: 'x', to: '/super-fetch', icon: IconUsers, configKey: 'super_fetch', hiddenInOrganization: true, order: 20 }],
  },
  {
    id: 'account',
    routes: [
      { path: '/settings', component: Screen, audience: 'signedIn' },
      { path: '/pricing', component: Screen, audience: 'public' },
      { path: '/admin/users/:id', component: Screen, staffRole: 'manager' },
    ],
    standaloneRoutes: [
      { path: '/checkout/:productId', component: Screen },
      { path: '/chat-embedded', component: Screen, keepsSignInUid: true },
    ],
  },
  {
    id: 'chat',
    routes: [{ path: '/conversations/*', component: Screen }],
    tabs: [
      { id: 'chats', labelKey: 'x', to: '/conversations', icon: IconMessages, order: 0 },
      { id: 'avatars', labelKey: 'x', to: '/avatars', icon: IconUsers, configKey: 'avatars_enabled', order: 10 },
    ],
    staffMenus: [{ id: 'admin', items: [{ labelKey: 'a', to: '/admin' }, { labelKey: 'b', to: '/admin/staff', role: 'admin' }] }],
    widgets: [
      { id: 'video', slot: 'overlay', component: Screen, order: 20 },
      { id: 'org-picker', slot: 'sidebarTop', component: Screen, order: 10 },
    ],
  },
];

describe('feature registry', () => {
  const registry = buildRegistry(features);

  it('collects routes and orders tabs', () => {
    expect(registry.routes.map((r) => r.path)).toEqual(['/settings', '/pricing', '/admin/users/:id', '/conversations/*']);
    expect(registry.tabs.map((t) => t.id)).toEqual(['chats', 'avatars', 'super-fetch']);
    expect(registry.widgets.map((w) => w.id)).toEqual(['org-picker', 'video']);
  });

  it("collects who may open what from each feature's routes (the session routing's lists)", () => {
    expect(registry.access).toEqual({
      standalone: ['/checkout', '/chat-embedded'],
      keepSignInUid: ['/chat-embedded'],
      public: ['/pricing'],
      withoutAccess: ['/settings', '/pricing'],
      staff: ['/admin/users'],
    });
  });

  it('matches a route by the fixed part of its path', () => {
    expect(routePrefix('/shared/:token')).toBe('/shared');
    expect(routePrefix('/templates/*')).toBe('/templates');
    expect(routePrefix('/conversation/tags/:tag')).toBe('/conversation/tags');
    expect(routePrefix('/')).toBe('/');
  });

  it('shows a tab only when its switch is on, and hides organization-less tabs in an organization', () => {
    const on = new Set(['avatars_enabled', 'super_fetch']);
    const ids = (inOrganization: boolean, switches: Set<string>) =>
      visibleTabs(registry.tabs, { isOn: (key) => switches.has(key), inOrganization }).map((t) => t.id);
    expect(ids(false, on)).toEqual(['chats', 'avatars', 'super-fetch']);
    expect(ids(true, on)).toEqual(['chats', 'avatars']);
    expect(ids(false, new Set())).toEqual(['chats']);
  });

  it('shows staff menus to staff only, in the Personal organization, admin items to admins', () => {
    const items = registry.staffMenus.admin;
    expect(visibleStaffMenu(items, null, false)).toEqual([]);
    expect(visibleStaffMenu(items, 'admin', true)).toEqual([]);
    expect(visibleStaffMenu(items, 'admin', false).map((i) => i.to)).toEqual(['/admin', '/admin/staff']);
    expect(visibleStaffMenu(items, 'manager', false).map((i) => i.to)).toEqual(['/admin']);
  });
});

describe("the app's features", () => {
  const { access } = buildRegistry(appFeatures);

  it('declare their public, standalone and open-without-access pages', () => {
    expect(access.public.sort()).toEqual(['/pricing', '/privacidad']);
    expect(access.standalone).toEqual(expect.arrayContaining(['/reset-password', '/shared', '/checkout', '/thankyou']));
    // /billing too: a customer whose access ended still sees their purchases and invoices.
    expect(access.withoutAccess.sort()).toEqual(['/billing', '/pricing', '/privacidad', '/profile', '/settings', '/sorry', '/upgrade']);
  });
});

describe('no-access notices (spec part 1 §2, issue 30 item 18)', () => {
  const { routes } = buildRegistry(appFeatures);
  it('speaks of avatars on the avatar pages and of chat on home and the chats, the default elsewhere', () => {
    for (const path of ['/avatars', '/avatars/4', '/avatars/4/trainings']) expect(noAccessNotice(routes, path)).toBe('avatars');
    for (const path of ['/', '/conversations', '/conversations/9', '/conversation/tags/work']) expect(noAccessNotice(routes, path)).toBe('chat');
    for (const path of ['/templates', '/documents/2', '/organization/campaigns']) expect(noAccessNotice(routes, path)).toBeUndefined();
  });
});
