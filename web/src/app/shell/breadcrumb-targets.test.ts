// Issue 30 item 16: every crumb and Back link of every registered screen leads to a page that user may open.
import type { StaffRole } from '@pluma/common/constants';
import { matchPath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routeOpenTo } from '../../platform/registry';
import { registry } from '../app-registry';
import { buildBreadcrumbs, pageFinder } from './breadcrumbs';

const roles: (StaffRole | null)[] = [null, 'manager', 'admin'];
const anySegment = () => false;
/** A path of the pattern: each param a number, a splat left out. */
const samplePath = (pattern: string) =>
  `/${pattern
    .split('/')
    .filter((segment) => segment && segment !== '*')
    .map((segment) => (segment.startsWith(':') ? '7' : segment))
    .join('/')}`;

describe('breadcrumb targets over the registry', () => {
  it.each(roles)('links every crumb and Back of every route to a route open to %s', (role) => {
    const open = registry.routes.filter((route) => routeOpenTo(route, role));
    const isPage = (to: string) => open.some((route) => matchPath(route.path, to));
    const pageOf = pageFinder(registry.routes, registry.crumbLinks, role);
    expect(open.length).toBeGreaterThan(20);
    for (const route of open) {
      const model = buildBreadcrumbs(samplePath(route.path), anySegment, pageOf);
      const targets = [...model.crumbs.map((crumb) => crumb.to), model.back].filter((to): to is string => to !== null);
      for (const to of targets) expect(isPage(to), `${route.path}: ${to}`).toBe(true);
    }
  });

  it('leads the organization crumbs to the organization pages', () => {
    const pageOf = pageFinder(registry.routes, registry.crumbLinks, null);
    const targets = (path: string) => buildBreadcrumbs(path, anySegment, pageOf);
    expect(targets('/organization/campaigns')).toMatchObject({ back: '/', crumbs: [{ to: '/' }, { path: '/organization', to: null }, { to: '/organization/campaigns' }] });
    for (const path of ['/organization/groups', '/organization/admin-panel', '/organization/analytics']) expect(targets(path).back).toBe('/');
    expect(targets('/organization/admin/products').crumbs[2]).toMatchObject({ path: '/organization/admin', to: '/organization/admin-panel' });
    expect(targets('/organization/admin-panel/users/7').crumbs[3].to).toBe('/organization/admin-panel');
    expect(targets('/campaign/3/documents/9').crumbs.map((crumb) => crumb.to)).toEqual(['/', '/organization/campaigns', '/organization/campaigns/3', null, '/campaign/3/documents/9']);
  });

  it('keeps staff pages out of the trail of a user who may not open them', () => {
    expect(pageFinder(registry.routes, registry.crumbLinks, null)('/admin')).toBeNull();
    expect(pageFinder(registry.routes, registry.crumbLinks, 'manager')('/admin')).toBe('/admin');
  });
});
