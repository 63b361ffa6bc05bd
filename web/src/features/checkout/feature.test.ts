import { describe, expect, it } from 'vitest';
import { buildRegistry } from '../../platform/registry';
import { decideRoute } from '../../app/session/routing';
import { features } from '../index';

describe('checkout feature', () => {
  const registry = buildRegistry(features);

  it('registers /checkout and /thankyou as standalone pages', () => {
    expect(registry.access.standalone).toEqual(expect.arrayContaining(['/checkout', '/thankyou']));
    expect(registry.standaloneRoutes.map((route) => route.path)).toEqual(expect.arrayContaining(['/checkout/:productId', '/thankyou/:purchaseId']));
  });

  it('opens whatever the session: signed out, loading, or signed in without access (spec part 1 §2)', () => {
    const base = { landingEnabled: true, spanishEnabled: true, signupEnabled: true, access: registry.access };
    for (const status of ['unknown', 'signedOut', 'signedIn'] as const) {
      expect(decideRoute({ ...base, pathname: '/checkout/2', status, hasAccess: false })).toEqual({ kind: 'standalone' });
      expect(decideRoute({ ...base, pathname: '/thankyou/9', status, hasAccess: false })).toEqual({ kind: 'standalone' });
    }
  });
});
