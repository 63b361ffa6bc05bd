// users.lifetime_value and users.words_used, kept by the triggers of migration 0009 (docs/decisions.md
// "Back-office at scale"): every write to purchases, invoices and credit_ledger moves them, and they always
// equal the live sums the customer's page computes (readCustomer).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, invoices, purchases, users } from '../../db/schema';
import { buildProduct, buildPurchase, buildUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import type { Actor } from '../../platform/auth/actor';
import { readCustomer } from './admin-service';

describe('customer figures kept by triggers', () => {
  let t: TestApp;
  let staffManager: Actor;
  beforeAll(async () => {
    t = await createTestApp();
    const { user } = await buildUser(t.ctx, { staffRole: 'manager' });
    staffManager = { user, staffRole: 'manager', sessionId: 0, familyId: '', organization: null };
  });
  afterAll(() => t.close());

  /** The stored figures, checked against the live sums at every step. */
  async function figures(userId: number) {
    const [row] = await t.ctx.db.select({ ltv: users.lifetimeValue, words: users.wordsUsed }).from(users).where(eq(users.userId, userId));
    const live = await readCustomer({ actor: staffManager, db: t.ctx.db, userId });
    expect({ ltv: Number(row.ltv), words: row.words }).toEqual({ ltv: live.value, words: live.totalWords });
    return { ltv: Number(row.ltv), words: row.words };
  }

  it('follows purchases and invoices: paid counts once, gifts and failures never, removals recount', async () => {
    const { user } = await buildUser(t.ctx);
    const other = (await buildUser(t.ctx)).user;
    const product = await buildProduct(t.ctx, { price: 30 });
    expect(await figures(user.userId)).toEqual({ ltv: 0, words: 0 });

    // A purchase staff recorded as paid, with no invoice, counts; a gift does not.
    const paid = await buildPurchase(t.ctx, { userId: user.userId, productId: product.productId, status: 'active', totalPayment: 30 });
    await buildPurchase(t.ctx, { userId: user.userId, productId: product.productId, status: 'active', totalPayment: 0, isGift: true });
    expect((await figures(user.userId)).ltv).toBe(30);

    // Its invoice stands for it: counted once, as the invoice.
    const [invoice] = await t.ctx.db.insert(invoices).values({ userId: user.userId, purchaseId: paid.purchaseId, status: 'paid', amount: 30, totalPayment: 30 }).returning();
    expect((await figures(user.userId)).ltv).toBe(30);
    await t.ctx.db.insert(invoices).values({ userId: user.userId, status: 'succeeded', amount: 12.5, totalPayment: 12.5 });
    expect((await figures(user.userId)).ltv).toBe(42.5);

    // A failed invoice is no money; the purchase it stands for still has an invoice, so it does not count either.
    await t.ctx.db.update(invoices).set({ status: 'failed' }).where(eq(invoices.invoiceId, invoice.invoiceId));
    expect((await figures(user.userId)).ltv).toBe(12.5);
    // Deleting that invoice leaves the paid purchase standing alone again.
    await t.ctx.db.delete(invoices).where(eq(invoices.invoiceId, invoice.invoiceId));
    expect((await figures(user.userId)).ltv).toBe(42.5);

    // A purchase moved to another customer moves its value too.
    await t.ctx.db.update(purchases).set({ userId: other.userId }).where(eq(purchases.purchaseId, paid.purchaseId));
    expect((await figures(user.userId)).ltv).toBe(12.5);
    expect((await figures(other.userId)).ltv).toBe(30);
    await t.ctx.db.update(purchases).set({ status: 'revoked' }).where(eq(purchases.purchaseId, paid.purchaseId));
    expect((await figures(other.userId)).ltv).toBe(0);
  });

  it('follows the credits ledger: charges add up, grants do not, a removed charge is recounted', async () => {
    const { user } = await buildUser(t.ctx);
    const entry = (words: number, sourceId: string) => ({ userId: user.userId, words, balanceAfter: 0, sourceType: 'message', sourceId: `figures-${user.userId}-${sourceId}` });
    await t.ctx.db.insert(creditLedger).values([entry(1000, 'grant'), entry(-120, 'a'), entry(-30, 'b')]);
    expect((await figures(user.userId)).words).toBe(150);
    await t.ctx.db.delete(creditLedger).where(eq(creditLedger.sourceId, `figures-${user.userId}-a`));
    expect((await figures(user.userId)).words).toBe(30);
    await t.ctx.db.update(creditLedger).set({ words: -45 }).where(eq(creditLedger.sourceId, `figures-${user.userId}-b`));
    expect((await figures(user.userId)).words).toBe(45);
  });
});
