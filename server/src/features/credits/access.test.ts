// The shared 412 gate (credits/access.ts requireAccess): staff always pass; others need a purchase that
// gives access now — the same rule as GET /api/users' has_access — or get 'premium_required'.
import { ACCESS_RULE_CASES } from '@pluma/common/rules/purchase-expiry.cases';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchases } from '../../db/schema';
import { buildProduct, buildPurchase, buildUser, grantAccess } from '../../test/factories';
import { accessFromRows, loadAccessRows } from '../users/access';
import { createTestApp, type TestApp } from '../../test/test-app';
import { requireAccess } from './access';

describe('requireAccess', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const refusal = (promise: Promise<void>) => promise.then(() => null, (err: { status?: number; errorId?: string }) => err);
  const hasAccessOf = async (token: string) => (await t.app.inject({ url: '/api/users', headers: { authorization: `Bearer ${token}` } })).json().has_access;

  it('refuses a user without a valid purchase with 412 premium_required, and agrees with has_access', async () => {
    const who = await buildUser(t.ctx);
    expect(await refusal(requireAccess(t.ctx.db, { staffRole: null, user: who.user }))).toMatchObject({ status: 412, errorId: 'premium_required' });
    expect(await hasAccessOf(who.token)).toBe(false);
  });

  it('admits a valid purchase until it is revoked or expired', async () => {
    const who = await buildUser(t.ctx);
    const { purchase } = await grantAccess(t.ctx, who.user.userId);
    const actor = { staffRole: null, user: who.user };
    expect(await refusal(requireAccess(t.ctx.db, actor))).toBeNull();
    expect(await hasAccessOf(who.token)).toBe(true);
    // Past its 30 days.
    expect(await refusal(requireAccess(t.ctx.db, actor, new Date(Date.now() + 31 * 86_400_000)))).toMatchObject({ status: 412 });
    await t.ctx.db.update(purchases).set({ status: 'revoked' }).where(eq(purchases.purchaseId, purchase.purchaseId));
    expect(await refusal(requireAccess(t.ctx.db, actor))).toMatchObject({ status: 412 });
  });

  it('admits staff without any purchase', async () => {
    const who = await buildUser(t.ctx, { staffRole: 'manager' });
    expect(await refusal(requireAccess(t.ctx.db, { staffRole: 'manager', user: who.user }))).toBeNull();
  });

  // The SQL candidates (candidatePurchasesOf) and the rule (purchaseGivesAccess) agree on the same table
  // common's test checks: a cancelled subscription is a candidate, and gives access until its expiry.
  it.each(ACCESS_RULE_CASES.map((c) => [c.name, c] as const))('agrees with the common rule: %s', async (_name, c) => {
    const who = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx);
    await buildPurchase(t.ctx, { userId: who.user.userId, productId: product.productId, ...c.purchase });
    const actor = { staffRole: null, user: who.user };
    expect((await refusal(requireAccess(t.ctx.db, actor, c.now))) === null).toBe(c.access);
    expect(accessFromRows(await loadAccessRows(t.ctx.db, who.user.userId), c.now).hasAccess).toBe(c.access);
  });
});
