// Feature registry: each feature describes its routes (and who may open them), navigation tabs and staff
// menu entries here, so later features plug into the shell and the session routing without editing them.
// The list itself is in features/index.ts.
import type { ConfigKey } from '@pluma/common/config-keys';
import type { StaffRole } from '@pluma/common/constants';
import type { ComponentType, LazyExoticComponent } from 'react';
import { matchPath } from 'react-router';

type Screen = LazyExoticComponent<ComponentType>;
export type NavIcon = ComponentType<{ size?: number | string; stroke?: number; 'aria-hidden'?: boolean }>;

export interface ShellRoute {
  /** React Router path, e.g. '/settings' or '/templates/*'. */
  path: string;
  component: Screen;
  /** Staff only; others get the not-found page (a record the actor may not see is a 404). Staff open it without access. */
  staffRole?: StaffRole;
  /**
   * Who may open it besides a signed-in user with access (spec part 2 §2; without access the others see
   * the no-access panel): 'signedIn' — any signed-in user (settings, profile, /sorry); 'public' — signed-out
   * visitors too, outside the shell (pricing, privacy policy).
   */
  audience?: 'signedIn' | 'public';
  /**
   * The app setting that switches the screen on; off, it shows "This feature is not available" (the API
   * answers 404 feature_disabled). Left out, buildRegistry takes its feature's tab's (routeSwitch).
   */
  configKey?: ConfigKey;
  /** The out-of-credits notice a signed-in user without access sees here (spec part 1 §2), if not the default. */
  noAccess?: NoAccessNotice;
}

export type NoAccessNotice = 'avatars' | 'chat';

/** The no-access notice of the screen at `pathname`. */
export function noAccessNotice(routes: readonly ShellRoute[], pathname: string): NoAccessNotice | undefined {
  return routes.find((route) => route.noAccess && matchPath(route.path, pathname))?.noAccess;
}

export interface StandaloneRoute {
  /** Rendered outside the shell whatever the session (reset password, checkout, thank-you, embedded chat). */
  path: string;
  component: Screen;
  /** Keeps a ?uid= in its URL instead of signing in with it first (spec part 1 §2: the embedded chat). */
  keepsSignInUid?: boolean;
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
   *  floating over the page (e.g. the walkthrough video), or a banner above the page that takes its own
   *  room, below the phone header and beside the sidebar, never over them (e.g. the "Viewing as" bar). */
  slot: 'sidebarTop' | 'sidebarBottom' | 'overlay' | 'banner';
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
  /** Crumbs of its paths that are no page themselves, and the page they lead to instead. */
  crumbLinks?: CrumbLink[];
}

/** The breadcrumb bar builds crumbs from the path; a prefix that is no page (e.g. '/campaign/:campaignId')
 *  links to `to` (the same params), else it shows as plain text. */
export interface CrumbLink {
  path: string;
  to: string;
}

/** Who may open what, as path prefixes, for the session routing (app/session/routing.ts). */
export interface RouteAccess {
  /** Rendered whatever the session, outside the shell. */
  standalone: string[];
  /** Standalone pages that keep a ?uid= in their URL. */
  keepSignInUid: string[];
  /** Shown to signed-out visitors too. */
  public: string[];
  /** Open to a signed-in user without access (the public ones included). */
  withoutAccess: string[];
  /** Staff pages: open to staff without access. */
  staff: string[];
}

export interface Registry {
  routes: ShellRoute[];
  standaloneRoutes: StandaloneRoute[];
  access: RouteAccess;
  tabs: NavTab[];
  staffMenus: Record<StaffMenuGroup['id'], StaffMenuItem[]>;
  userMenu: UserMenuItem[];
  widgets: ShellWidget[];
  crumbLinks: CrumbLink[];
}

/** The fixed part of a route path, which the session routing matches: '/shared/:token' → '/shared'. */
export function routePrefix(path: string): string {
  const fixed: string[] = [];
  for (const segment of path.split('/').filter(Boolean)) {
    if (segment.startsWith(':') || segment === '*') break;
    fixed.push(segment);
  }
  return `/${fixed.join('/')}`;
}

export function routeAccess(routes: readonly ShellRoute[], standaloneRoutes: readonly StandaloneRoute[]): RouteAccess {
  const prefixes = (list: readonly { path: string }[]) => [...new Set(list.map((route) => routePrefix(route.path)))];
  return {
    standalone: prefixes(standaloneRoutes),
    keepSignInUid: prefixes(standaloneRoutes.filter((route) => route.keepsSignInUid)),
    public: prefixes(routes.filter((route) => route.audience === 'public')),
    withoutAccess: prefixes(routes.filter((route) => route.audience)),
    staff: prefixes(routes.filter((route) => route.staffRole)),
  };
}

/**
 * The switch of a feature's route (spec part 1 §2: a tab shows only when its setting is on, and its
 * screens go with it): its own; else that of the feature's tab it lies under (/topics, /hashtags); else
 * the one switch all the feature's tabs share (/user_workflows with Workflows' templates_enabled).
 */
export function routeSwitch(feature: FeatureDefinition, route: ShellRoute): ConfigKey | undefined {
  if (route.configKey) return route.configKey;
  const tabs = feature.tabs ?? [];
  const under = tabs.find((tab) => tab.configKey && (route.path === tab.to || route.path.startsWith(`${tab.to}/`)));
  if (under) return under.configKey;
  const keys = new Set(tabs.map((tab) => tab.configKey));
  return keys.size === 1 ? [...keys][0] : undefined;
}

export function buildRegistry(features: readonly FeatureDefinition[]): Registry {
  const routes = features.flatMap((feature) => (feature.routes ?? []).map((route) => ({ ...route, configKey: routeSwitch(feature, route) })));
  const standaloneRoutes = features.flatMap((feature) => feature.standaloneRoutes ?? []);
  const registry: Registry = {
    routes,
    standaloneRoutes,
    access: routeAccess(routes, standaloneRoutes),
    tabs: [],
    staffMenus: { admin: [], analytics: [] },
    userMenu: [],
    widgets: [],
    crumbLinks: features.flatMap((feature) => feature.crumbLinks ?? []),
  };
  for (const feature of features) {
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

/** Whether a staff route is open to this user (a manager's routes are an admin's too). */
export function routeOpenTo(route: ShellRoute, staffRole: StaffRole | null): boolean {
  return !route.staffRole || staffRole === 'admin' || route.staffRole === staffRole;
}

/** spec part 2 §2: staff see the admin and analytics menus, only in the Personal organization. */
export function visibleStaffMenu(items: readonly StaffMenuItem[], staffRole: StaffRole | null, inOrganization: boolean): StaffMenuItem[] {
  if (!staffRole || inOrganization) return [];
  return items.filter((item) => !item.role || item.role === staffRole || staffRole === 'admin');
}
