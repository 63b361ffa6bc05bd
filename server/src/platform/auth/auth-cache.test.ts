import type { CurrentUser } from '@pluma/common/users';
import { describe, expect, it } from 'vitest';
import type { Actor, UserRow } from './actor';
import { AuthCache, type CachedActor } from './auth-cache';

const T0 = 1_800_000_000_000;

function userRow(userId: number): UserRow {
  const at = new Date(T0);
  return {
    userId,
    name: 'Ana',
    lastName: 'Ruiz',
    email: `ana${userId}@example.com`,
    passwordHash: 'hash',
    phone: null,
    company: null,
    lang: 'en',
    darkMode: false,
    birthday: null,
    fileId: null,
    signupReason: null,
    instagram: null,
    availableWords: 10,
    heldWords: 0,
    defaultOrganizationId: null,
    lastUsedAt: at,
    wordsUsed: 0,
    lifetimeValue: 0,
    createdAt: at,
    updatedAt: at,
  };
}

function entry(userId: number, familyId: string, sessionId = userId): CachedActor {
  const actor: Actor = { user: userRow(userId), staffRole: null, sessionId, familyId, organization: null };
  return { actor, session: { lastUsedAt: new Date(T0), expiresAt: new Date(T0 + 86_400_000), rotatedAt: null } };
}

function view(userId: number): CurrentUser {
  return {
    user_id: userId,
    name: 'Ana',
    last_name: 'Ruiz',
    email: 'ana@example.com',
    phone: null,
    company: null,
    lang: 'en',
    dark_mode: false,
    birthday: null,
    file_id: null,
    picture: null,
    signup_reason: null,
    instagram: null,
    has_access: true,
    available_words: 10,
    staff: null,
    purchase: null,
    default_organization: null,
    createdAt: new Date(T0).toISOString(),
    two_factor: { enabled: false, required: false, verified: false },
  };
}

const cacheOf = () => new AuthCache({ ttlMs: 5_000, holdMs: 5_000 });

describe('AuthCache', () => {
  it('serves a stored actor until its TTL, frozen so requests cannot change it for each other', () => {
    const cache = cacheOf();
    expect(cache.storeActor('h1', entry(1, 'fam-1'), cache.ticket(T0), T0)).toBe(true);
    const hit = cache.actor('h1', T0 + 4_999);
    expect(hit?.actor.user.userId).toBe(1);
    expect(Object.isFrozen(hit?.actor)).toBe(true);
    expect(Object.isFrozen(hit?.actor.user)).toBe(true);
    expect(cache.actor('h1', T0 + 5_000)).toBeUndefined();
  });

  it('forgetting a user drops all their actors and their view, and holds them back for a while', () => {
    const cache = cacheOf();
    const ticket = cache.ticket(T0);
    cache.storeActor('h1', entry(1, 'fam-1'), ticket, T0);
    cache.storeActor('h2', entry(1, 'fam-2', 2), ticket, T0);
    cache.storeActor('h3', entry(3, 'fam-3'), ticket, T0);
    cache.storeView(1, view(1), Number.POSITIVE_INFINITY, ticket, T0);

    cache.forget({ userId: 1 }, T0 + 100);
    expect(cache.actor('h1', T0 + 100)).toBeUndefined();
    expect(cache.actor('h2', T0 + 100)).toBeUndefined();
    expect(cache.view(1, T0 + 100)).toBeUndefined();
    expect(cache.actor('h3', T0 + 100)?.actor.user.userId).toBe(3);

    // The change may not be committed yet: a read made now could be the old state.
    expect(cache.storeActor('h1', entry(1, 'fam-1'), cache.ticket(T0 + 200), T0 + 300)).toBe(false);
    expect(cache.storeView(1, view(1), Number.POSITIVE_INFINITY, cache.ticket(T0 + 200), T0 + 300)).toBe(false);
    // Other users are not held back.
    expect(cache.storeActor('h4', entry(4, 'fam-4'), cache.ticket(T0 + 200), T0 + 300)).toBe(true);
    // Once the hold is over, fresh reads are cached again.
    expect(cache.storeActor('h1', entry(1, 'fam-1'), cache.ticket(T0 + 5_200), T0 + 5_200)).toBe(true);
  });

  it('forgetting a session family drops only that family; the view stays', () => {
    const cache = cacheOf();
    const ticket = cache.ticket(T0);
    cache.storeActor('h1', entry(1, 'fam-1'), ticket, T0);
    cache.storeActor('h2', entry(1, 'fam-2', 2), ticket, T0);
    cache.storeView(1, view(1), Number.POSITIVE_INFINITY, ticket, T0);
    cache.forget({ familyId: 'fam-1' }, T0 + 10);
    expect(cache.actor('h1', T0 + 10)).toBeUndefined();
    expect(cache.actor('h2', T0 + 10)).toBeDefined();
    expect(cache.view(1, T0 + 10)).toBeDefined();
    expect(cache.storeActor('h1', entry(1, 'fam-1'), cache.ticket(T0 + 10), T0 + 20)).toBe(false);
  });

  it('a word charge drops and holds back only the view: actors stay (their words are a pre-check)', () => {
    const cache = cacheOf();
    const ticket = cache.ticket(T0);
    cache.storeActor('h1', entry(1, 'fam-1'), ticket, T0);
    cache.storeView(1, view(1), Number.POSITIVE_INFINITY, ticket, T0);
    cache.storeView(2, view(2), Number.POSITIVE_INFINITY, ticket, T0);
    cache.forget({ balanceOf: 1 }, T0 + 10);
    expect(cache.view(1, T0 + 10)).toBeUndefined();
    expect(cache.view(2, T0 + 10)).toBeDefined();
    expect(cache.actor('h1', T0 + 10)?.actor.user.userId).toBe(1);
    // The charge may not be committed yet: a view read now could show the old balance.
    expect(cache.storeView(1, view(1), Number.POSITIVE_INFINITY, cache.ticket(T0 + 20), T0 + 30)).toBe(false);
    expect(cache.storeActor('h1', entry(1, 'fam-1'), cache.ticket(T0 + 20), T0 + 30)).toBe(true);
    expect(cache.storeView(1, view(1), Number.POSITIVE_INFINITY, cache.ticket(T0 + 5_100), T0 + 5_100)).toBe(true);
  });

  it('refuses a read that began before a drop, even when it lands after the hold', () => {
    const cache = cacheOf();
    const early = cache.ticket(T0);
    cache.forget({ userId: 1 }, T0 + 1);
    expect(cache.storeActor('h1', entry(1, 'fam-1'), early, T0 + 2)).toBe(false);
    // Slower than the hold: refused whatever happened meanwhile.
    expect(cache.storeActor('h1', entry(1, 'fam-1'), early, T0 + 6_000)).toBe(false);
  });

  it('a view ends when the purchase it shows expires', () => {
    const cache = cacheOf();
    cache.storeView(1, view(1), T0 + 1_000, cache.ticket(T0), T0);
    expect(cache.view(1, T0 + 999)).toBeDefined();
    expect(cache.view(1, T0 + 1_000)).toBeUndefined();
  });

  it('while down it serves and stores nothing, and reads begun before it came back are refused', () => {
    const cache = cacheOf();
    cache.storeActor('h1', entry(1, 'fam-1'), cache.ticket(T0), T0);
    cache.setLive(false);
    expect(cache.actor('h1', T0)).toBeUndefined();
    const duringOutage = cache.ticket(T0 + 1);
    expect(cache.storeActor('h1', entry(1, 'fam-1'), duringOutage, T0 + 2)).toBe(false);
    cache.setLive(true);
    expect(cache.actor('h1', T0 + 3)).toBeUndefined();
    expect(cache.storeActor('h1', entry(1, 'fam-1'), duringOutage, T0 + 3)).toBe(false);
    expect(cache.storeActor('h1', entry(1, 'fam-1'), cache.ticket(T0 + 4), T0 + 4)).toBe(true);
  });

  it('records touches so later hits do not write last_used_at again', () => {
    const cache = cacheOf();
    const ticket = cache.ticket(T0);
    cache.storeActor('h1', entry(1, 'fam-1'), ticket, T0);
    cache.storeActor('h2', entry(1, 'fam-2', 2), ticket, T0);
    const at = new Date(T0 + 61_000);
    cache.sessionTouched('h1', at);
    expect(cache.actor('h1', T0)?.session.lastUsedAt).toEqual(at);
    expect(cache.actor('h2', T0)?.session.lastUsedAt).toEqual(new Date(T0));
    cache.userTouched(1, at);
    expect(cache.actor('h1', T0)?.actor.user.lastUsedAt).toEqual(at);
    expect(cache.actor('h2', T0)?.actor.user.lastUsedAt).toEqual(at);
    expect(Object.isFrozen(cache.actor('h2', T0)?.actor.user)).toBe(true);
  });

  it('keeps at most the configured number of entries', () => {
    const cache = new AuthCache({ maxActors: 2, maxViews: 1 });
    const ticket = cache.ticket(T0);
    for (let i = 1; i <= 3; i++) cache.storeActor(`h${i}`, entry(i, `fam-${i}`), ticket, T0);
    cache.storeView(1, view(1), Number.POSITIVE_INFINITY, ticket, T0);
    cache.storeView(2, view(2), Number.POSITIVE_INFINITY, ticket, T0);
    expect(cache.size).toEqual({ actors: 2, views: 1 });
    expect(cache.actor('h1', T0)).toBeUndefined();
  });

  it('close runs the teardown and leaves nothing to serve', async () => {
    const cache = cacheOf();
    let closed = 0;
    cache.onClose(() => {
      closed++;
    });
    cache.storeActor('h1', entry(1, 'fam-1'), cache.ticket(T0), T0);
    await cache.close();
    expect(closed).toBe(1);
    expect(cache.actor('h1', T0)).toBeUndefined();
    expect(cache.live).toBe(false);
  });
});
