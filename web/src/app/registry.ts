// Feature registry: each feature describes its routes, navigation tabs and staff menu entries here, so
// later features plug into the shell without editing it. The list itself is in features/index.ts.
import type { ConfigKey } from '@pluma/common/config-keys';
import type { StaffRole } from '@pluma/common/constants';
import type { ComponentType, LazyExoticComponent } from 'react';

type Screen = LazyExoticComponent<ComponentType>;
export type NavIcon = ComponentType<{ size?: number | string; stroke?: number; 'aria-hidden'?: boolean }>;

export interface ShellRoute {
  /** React Router path, e.g. '/settings' or '/templates/*'. */
  path: string;
  component: Screen;
  /** Staff only; others get the not-found page (a record the actor may not see is a 404). */
  staffRole?: StaffRole;
}

export interface StandaloneRoute {
  /** Rendered outside the shell whatever the session (checkout, thank-you, embedded chat). */
  path: string;
  component: Screen;
}

export interface NavTab {
  id: string;
  /** i18n key of the label. */
  labelKey: string;
  to: string;
  icon: NavIcon;
  /** The app setting that switches the tab on (spec part 1 §2 "Main navigation tabs"). */
  configKey?: ConfigKey;
  /** Not offered inside an organization (Super Fetch, Documents, Chat Widget). */
  hiddenInOrganization?: boolean;
  /** Lower first. */
  order: number;
}

export interface StaffMenuItem {
  labelKey: string;
  to: string;
  /** 'admin' items are hidden from managers. */
  role?: StaffRole;
}

export interface StaffMenuGroup {
  id: 'admin' | 'analytics';
  items: StaffMenuItem[];
}

export interface UserMenuItem {
  labelKey: string;
  to: string;
  icon: NavIcon;
  order: number;
}

export interface ShellWidget {
  id: string;
  /** Where the shell renders it: top of the sidebar (e.g. the organization picker), above the user menu,
   *  or floating over the page (e.g. the walkthrough video). */
  slot: 'sidebarTop' | 'sidebarBottom' | 'overlay';
  component: Screen;
  order: number;
}

export interface FeatureDefinition {
  id: string;
  routes?: ShellRoute[];
  standaloneRoutes?: StandaloneRoute[];
  /** Chats, Avatars, Templates... in the sidebar. */
  tabs?: NavTab[];
  /** Entries of the Admin and Analytics staff menus. */
  staffMenus?: StaffMenuGroup[];
  /** Entries of the user menu (Settings, Billing...). */
  userMenu?: UserMenuItem[];
  /** Pieces the shell renders around the screens (organization picker, walkthrough video...). */
  widgets?: ShellWidget[];
}

export interface Registry {
  routes: ShellRoute[];
  standaloneRoutes: StandaloneRoute[];
  tabs: NavTab[];
  staffMenus: Record<StaffMenuGroup['id'], StaffMenuItem[]>;
  userMenu: UserMenuItem[];
  widgets: ShellWidget[];
}

export function buildRegistry(features: readonly FeatureDefinition[]): Registry {
  const registry: Registry = { routes: [], standaloneRoutes: [], tabs: [], staffMenus: { admin: [], analytics: [] }, userMenu: [], widgets: [] };
  for (const feature of features) {
    registry.routes.push(...(feature.routes ?? []));
    registry.standaloneRoutes.push(...(feature.standaloneRoutes ?? []));
    registry.tabs.push(...(feature.tabs ?? []));
    registry.userMenu.push(...(feature.userMenu ?? []));
    registry.widgets.push(...(feature.widgets ?? []));
    for (const group of feature.staffMenus ?? []) registry.staffMenus[group.id].push(...group.items);
  }
  registry.tabs.sort((a, b) => a.order - b.order);
  registry.userMenu.sort((a, b) => a.order - b.order);
  registry.widgets.sort((a, b) => a.order - b.order);
  return registry;
}

export interface TabContext {
  isOn: (key: ConfigKey) => boolean;
  inOrganization: boolean;
}

/** spec part 1 §2: each tab shows only when its app setting is on (some not inside an organization). */
export function visibleTabs(tabs: readonly NavTab[], context: TabContext): NavTab[] {
  return tabs.filter((tab) => (!tab.configKey || context.isOn(tab.configKey)) && !(tab.hiddenInOrganization && context.inOrganization));
}

/** spec part 2 §2: staff see the admin and analytics menus, only in the Personal organization. */
export function visibleStaffMenu(items: readonly StaffMenuItem[], staffRole: StaffRole | null, inOrganization: boolean): StaffMenuItem[] {
  if (!staffRole || inOrganization) return [];
  return items.filter((item) => !item.role || item.role === staffRole || staffRole === 'admin');
}
