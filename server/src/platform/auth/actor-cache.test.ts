// The auth cache through the real app: a warm GET /api/users runs no query, and no cached actor or view
// outlives a change to what it was built from (sign-out, refresh, password, deletion, role, words, access).
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../db/client';
import { products, purchases, sessions, staff } from '../../db/schema';
import { createResetPasswordToken } from './one-time-tokens';
import { chargeWords } from '../../features/credits/ledger';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { invalidateUser } from './invalidation';
import { revokeUserSessions } from './sessions';
import { hashToken } from './tokens';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Counts the queries that touch sessions or users (pg-boss polls the same client in the background). */
function countAccountQueries(t: TestApp) {
  const client = (t.ctx.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const spy = vi.spyOn(client, 'query');
  return {
    get count() {
      // PGlite gets the SQL text, node-postgres a query config with `text`.
      const sqlOf = (arg: unknown) => (typeof arg === 'string' ? arg : ((arg as { text?: string } | null)?.text ?? ''));
      return spy.mock.calls.filter(([arg]) => /"(sessions|users)"/.test(sqlOf(arg))).length;
    },
    restore: () => spy.mockRestore(),
  };
}

describe('auth cache', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const me = (who: BuiltUser | string) => t.app.inject({ url: '/api/users', headers: typeof who === 'string' ? bearer(who) : who.auth });
  const login = async (email: string, password: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: `10.66.0.${Math.floor(Math.random() * 250) + 1}` })).json()
      .token as string;

  it('GET /api/users: cold, one query for the actor and one for the view; warm, none', async () => {
    const who = await buildUser(t.ctx, { access: true });
    const otherDevice = await login(who.user.email, who.password);
    const queries = countAccountQueries(t);
    try {
      const cold = await me(who);
      expect(cold.statusCode).toBe(200);
      // Opening the app is not a use (users.last_used_at: messages/service.ts), so nothing is written.
      expect(queries.count).toBe(2);
      expect((await me(who)).json()).toEqual(cold.json());
      expect(queries.count).toBe(2);
      // Another token of the same user: its actor is read, the view is shared.
      expect((await me(otherDevice)).json()).toEqual(cold.json());
      expect(queries.count).toBe(3);
    } finally {
      queries.restore();
    }
  });

  it('sign-out refuses the cached token at once', async () => {
    const who = await buildUser(t.ctx);
    expect((await me(who)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: who.auth })).statusCode).toBe(204);
    expect((await me(who)).statusCode).toBe(401);
  });

  it('a reused refresh token revokes the family, the cached new token included', async () => {
    const who = await buildUser(t.ctx);
    expect((await me(who)).statusCode).toBe(200);
    const next = (await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: who.auth })).json().token as string;
    expect((await me(next)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: who.auth })).statusCode).toBe(401);
    expect((await me(next)).statusCode).toBe(401);
  });

  it('a cached rotated token stops at the end of its grace, and that use revokes the family', async () => {
    const who = await buildUser(t.ctx);
    const next = (await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: who.auth })).json().token as string;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 28_000 });
    // Within the 30 s grace the old token still works (and is cached with its rotation time).
    expect((await me(who)).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + 3_000);
    expect((await me(who)).statusCode).toBe(401);
    expect((await me(next)).statusCode).toBe(401);
  });

  it('a cached session still expires on time', async () => {
    const who = await buildUser(t.ctx);
    await t.ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 2_000) })
      .where(eq(sessions.tokenHash, hashToken(who.token)));
    expect((await me(who)).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2_500 });
    const res = await me(who);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('auth/id-token-expired');
  });

  it('a password change signs the cached other device out; the own session carries the new password', async () => {
    const who = await buildUser(t.ctx);
    const otherDevice = await login(who.user.email, who.password);
    expect((await me(who)).statusCode).toBe(200);
    expect((await me(otherDevice)).statusCode).toBe(200);
    const change = (current: string, password: string) =>
      t.app.inject({ method: 'PUT', url: '/api/auth/password', headers: who.auth, payload: { current_password: current, password } });
    expect((await change(who.password, 'changed-1')).statusCode).toBe(204);
    expect((await me(otherDevice)).statusCode).toBe(401);
    // A cached actor with the old password hash would refuse this.
    expect((await change('changed-1', 'changed-2')).statusCode).toBe(204);
  });

  it('a password reset signs out every cached session', async () => {
    const who = await buildUser(t.ctx);
    expect((await me(who)).statusCode).toBe(200);
    const reset = await createResetPasswordToken(t.ctx, who.user.userId);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: reset, password: 'brand-new-1' }, remoteAddress: '10.66.1.1' });
    expect(res.statusCode).toBe(200);
    expect((await me(who)).statusCode).toBe(401);
  });

  it("deleting the account refuses the user's other cached sessions", async () => {
    const who = await buildUser(t.ctx);
    const otherDevice = await login(who.user.email, who.password);
    expect((await me(otherDevice)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/users', headers: who.auth })).statusCode).toBe(204);
    expect((await me(otherDevice)).statusCode).toBe(401);
  });

  it('a staff role change announced with invalidateUser is enforced at once', async () => {
    const manager = await buildUser(t.ctx, { staffRole: 'manager' });
    const lookup = () => t.app.inject({ url: `/api/users/email?email=${encodeURIComponent(manager.user.email)}`, headers: manager.auth });
    expect((await lookup()).statusCode).toBe(200);
    expect((await me(manager)).json().staff.role).toBe('manager');
    await t.ctx.db.delete(staff).where(eq(staff.userId, manager.user.userId));
    invalidateUser(manager.user.userId);
    expect((await lookup()).statusCode).toBe(403);
    expect((await me(manager)).json().staff).toBeNull();
  });

  it('word charges and staff grants and revocations of access show at once in a cached GET /api/users', async () => {
    const admin = await buildUser(t.ctx, { staffRole: 'admin' });
    const who = await buildUser(t.ctx, { access: true });
    expect((await me(who)).json()).toMatchObject({ has_access: true, available_words: 10_000 });

    await t.ctx.db.transaction((tx) => chargeWords(tx, { userId: who.user.userId, sourceType: 'test', sourceId: `cache-${who.user.userId}`, words: 25 }));
    expect((await me(who)).json().available_words).toBe(9_975);

    const [purchase] = await t.ctx.db.select().from(purchases).where(eq(purchases.userId, who.user.userId));
    const revoke = await t.app.inject({ method: 'PUT', url: '/api/users/revokeAccess', headers: admin.auth, payload: { purchase_id: purchase.purchaseId } });
    expect(revoke.statusCode).toBe(200);
    expect((await me(who)).json()).toMatchObject({ has_access: false, purchase: null });

    const [product] = await t.ctx.db.insert(products).values({ name: 'Cache plan', price: 5, wordAmount: 500, expirationDays: 30 }).returning();
    const give = await t.app.inject({ method: 'POST', url: '/api/users/giveAccess', headers: admin.auth, payload: { user_id: who.user.userId, product_id: product.productId, gift: true } });
    expect(give.statusCode).toBe(201);
    expect((await me(who)).json()).toMatchObject({ has_access: true, available_words: 10_475, purchase: { product: { name: 'Cache plan' } } });
  });

  it('a read racing a revocation that is not committed yet is not cached', async () => {
    const who = await buildUser(t.ctx);
    expect((await me(who)).statusCode).toBe(200);
    let revokedInside!: () => void;
    const inside = new Promise<void>((resolve) => (revokedInside = resolve));
    let commit!: () => void;
    const gate = new Promise<void>((resolve) => (commit = resolve));
    const transaction = t.ctx.db.transaction(async (tx) => {
      await revokeUserSessions(tx as unknown as Db, who.user.userId);
      revokedInside();
      await gate;
    });
    await inside;
    const during = me(who);
    // PostgreSQL answers from before the commit (the session still looks live); PGlite waits for the commit.
    if (t.ctx.database.kind === 'postgres') expect((await during).statusCode).toBe(200);
    commit();
    await transaction;
    await during;
    expect((await me(who)).statusCode).toBe(401);
  });
});
