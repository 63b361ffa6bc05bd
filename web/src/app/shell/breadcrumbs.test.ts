import { describe, expect, it } from 'vitest';
import { buildBreadcrumbs } from './breadcrumbs';

const known = new Set(['settings', 'admin', 'users', 'edit', 'templates', 'tags']);
const isKnown = (segment: string) => known.has(segment);

describe('breadcrumbs from the path (spec part 2 §2)', () => {
  it('has no bar on the home page', () => {
    expect(buildBreadcrumbs('/', isKnown)).toEqual({ crumbs: [], back: null });
  });

  it('offers Back to the parent on shallow paths', () => {
    expect(buildBreadcrumbs('/settings', isKnown)).toEqual({
      crumbs: [
        { labelKey: 'breadcrumbs.home', text: '', path: '/', to: '/' },
        { labelKey: 'breadcrumbs.settings', text: '', path: '/settings', to: '/settings' },
      ],
      back: '/',
    });
    expect(buildBreadcrumbs('/templates/tags', isKnown).back).toBe('/templates');
  });

  it('shows the trail without Back on deeper paths, ids as #n and unknown segments as text', () => {
    const model = buildBreadcrumbs('/admin/users/12/edit', isKnown);
    expect(model.back).toBeNull();
    expect(model.crumbs.map((c) => c.labelKey ?? c.text)).toEqual(['breadcrumbs.home', 'breadcrumbs.admin', 'breadcrumbs.users', '#12', 'breadcrumbs.edit']);
    expect(model.crumbs[3].to).toBe('/admin/users/12');
    expect(buildBreadcrumbs('/templates/tags/social%20media', isKnown).crumbs[3].text).toBe('social media');
  });
});
