// The breadcrumb bar is built from the path (spec part 2 §2), with a Back link on shallow paths. A crumb
// links only to a page the user may open (issue 30 item 16): a prefix such as '/organization' is no page.
import type { StaffRole } from '@pluma/common/constants';
import { generatePath, matchPath } from 'react-router';
import { routeOpenTo, type CrumbLink, type ShellRoute } from '../../platform/registry';

export interface Crumb {
  /** i18n key for known segments, else null and `text` is shown. */
  labelKey: string | null;
  text: string;
  /** The path prefix the crumb stands for (screens label crumbs by it, breadcrumb-labels.ts). */
  path: string;
  /** The page it links to; null when the prefix is no page (shown as text). */
  to: string | null;
}

export interface BreadcrumbModel {
  crumbs: Crumb[];
  /** Nearest ancestor page for the Back link, on paths one or two levels deep. */
  back: string | null;
}

/** The page a crumb of `path` links to, or null. */
export type PageOf = (path: string) => string | null;

/** Number of levels at or below which the bar offers a Back link. */
export const SHALLOW_DEPTH = 2;

/** Links each crumb to the page at its path, or to a feature's crumb link, among the user's routes. */
export function pageFinder(routes: readonly ShellRoute[], crumbLinks: readonly CrumbLink[], staffRole: StaffRole | null): PageOf {
  const open = routes.filter((route) => routeOpenTo(route, staffRole));
  return (path) => {
    // Crumb links first: '/organization/admin-panel/users' would otherwise match ':userId'.
    for (const link of crumbLinks) {
      const match = matchPath(link.path, path);
      if (match) return generatePath(link.to, match.params);
    }
    return open.some((route) => matchPath(route.path, path)) ? path : null;
  };
}

export function buildBreadcrumbs(pathname: string, knownSegment: (segment: string) => boolean, pageOf: PageOf = (path) => path): BreadcrumbModel {
  const segments = pathname.split('/').filter(Boolean);
  if (segments.length === 0) return { crumbs: [], back: null };
  const crumbs: Crumb[] = [{ labelKey: 'breadcrumbs.home', text: '', path: '/', to: '/' }];
  segments.forEach((raw, index) => {
    let segment = raw;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      // Keep the raw text of a malformed escape.
    }
    const path = `/${segments.slice(0, index + 1).join('/')}`;
    const to = pageOf(path);
    const key = segment.toLowerCase();
    if (knownSegment(key)) crumbs.push({ labelKey: `breadcrumbs.${key}`, text: '', path, to });
    else crumbs.push({ labelKey: null, text: /^\d+$/.test(segment) ? `#${segment}` : segment.replace(/[-_]+/g, ' '), path, to });
  });
  const parent = crumbs.slice(0, -1).reverse().find((crumb) => crumb.to !== null);
  return { crumbs, back: segments.length <= SHALLOW_DEPTH ? (parent?.to ?? '/') : null };
}
