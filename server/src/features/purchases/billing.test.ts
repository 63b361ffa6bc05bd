// The /billing page's server side through the real app: cancelling one's own subscription (against the
// Stripe emulator), the access a cancelled subscription keeps until its next invoice date, the watch that
// announces access ending without a visit, and invoice receipts as PDF.
import type { RunningStripeEmulator } from '@pluma/emulators/stripe/index';
import { customerWithCard, monthlyPrice } from '@pluma/emulators/stripe/test-kit';
import { and, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, invoices, purchases } from '../../db/schema';
import { processAuthChanges } from '../../platform/auth/invalidation';
import type { AuthChange } from '../../platform/auth/auth-cache';
import { buildProduct, buildPurchase, buildUser, type BuiltUser } from '../../test/factories';
import { startStripeTestApp } from '../../test/stripe-test-app';
import type { TestApp } from '../../test/test-app';
import { requireAccess } from '../credits/access';
import { accessFromRows, loadAccessRows } from '../users/access';
import { announceEndedAccess, createAccessExpiryWatch } from './expiry-watch';

const SECRET_KEY = 'sk_test_pluma_billing_0123456789';
const DAY = 86_400_000;
const quietLog = { error: () => {} };

/** The text a PDF shows: each TJ array's hex strings, decoded and joined (pdfkit, uncompressed). */
function pdfText(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const lines: string[] = [];
  for (const [, array] of raw.matchAll(/\[(.*?)\] TJ/g)) {
    lines.push([...array.matchAll(/<([0-9a-f]*)>/gi)].map(([, hex]) => Buffer.from(hex, 'hex').toString('latin1')).join(''));
  }
  return lines.join('\n');
}

describe('billing: cancel a subscription, access until the next invoice date, receipts', () => {
  let emulator: RunningStripeEmulator;
  let stripe: Stripe;
  let t: TestApp;

  beforeAll(async () => {
    ({ emulator, stripe, t } = await startStripeTestApp({ secretKey: SECRET_KEY }));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await emulator?.close();
  });

  const cancel = (who: BuiltUser, purchaseId: number, payload: unknown = { cancel_reason: 'Too expensive for me now', status: 'cancelled' }, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/api/purchases/cancel/${purchaseId}`, headers: { ...who.auth, ...headers }, payload: payload as object });
  const row = async (purchaseId: number) => (await t.ctx.db.select().from(purchases).where(eq(purchases.purchaseId, purchaseId)))[0];

  /** A paid Stripe subscription in the emulator and its purchase, as checkout and the webhook leave it. */
  async function stripeSubscription(who: BuiltUser) {
    const price = await monthlyPrice(stripe, 2500);
    const { customer } = await customerWithCard(stripe);
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] });
    expect(sub.status).toBe('active');
    const product = await buildProduct(t.ctx, { isSubscription: true, subscriptionInterval: 1, subscriptionPeriod: 'month', expirationDays: null, price: 25 });
    const createdAt = new Date(Date.now() - 10 * DAY);
    const purchase = await buildPurchase(t.ctx, {
      userId: who.user.userId,
      productId: product.productId,
      status: 'active',
      subscriptionId: sub.id,
      subscriptionInterval: 1,
      subscriptionPeriod: 'month',
      expirationDays: 30,
      createdAt,
      updatedAt: createdAt,
    });
    return { sub, product, purchase };
  }

  it('cancels an own Stripe subscription at the period end: status, reason, date, audit, one invalidation; access stays', async () => {
    const who = await buildUser(t.ctx);
    const { sub, purchase } = await stripeSubscription(who);
    const announced: AuthChange[] = [];
    const stop = processAuthChanges.listen((change) => announced.push(change));
    const res = await cancel(who, purchase.purchaseId, { cancel_reason: '  Too expensive for me now  ' });
    stop();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ purchase_id: purchase.purchaseId, status: 'cancelled', cancel_reason: 'Too expensive for me now' });
    expect(res.json().cancelledAt).toEqual(expect.any(String));

    const after = await stripe.subscriptions.retrieve(sub.id);
    expect(after.cancel_at_period_end).toBe(true);
    expect(after.status).toBe('active');

    const stored = await row(purchase.purchaseId);
    expect(stored).toMatchObject({ status: 'cancelled', cancelReason: 'Too expensive for me now' });
    // The cancel does not move the date a cancelled subscription's expiry counts from.
    expect(stored.updatedAt.getTime()).toBe(purchase.updatedAt.getTime());
    expect(announced).toContainEqual({ userId: who.user.userId });

    const audit = await t.ctx.db.select().from(auditLog).where(and(eq(auditLog.actorUserId, who.user.userId), eq(auditLog.targetType, 'purchase')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'POST /api/purchases/cancel/:id', targetId: String(purchase.purchaseId) });
    expect(JSON.parse(audit[0].details!)).toMatchObject({ changes: { status: { from: 'active', to: 'cancelled' } } });

    // Benefits last until the next invoice date.
    const me = (await t.app.inject({ url: '/api/users', headers: who.auth })).json();
    expect(me.has_access).toBe(true);
    const list = (await t.app.inject({ url: '/api/purchases', headers: who.auth })).json();
    expect(list[0]).toMatchObject({ purchase_id: purchase.purchaseId, status: 'cancelled' });

    // Cancelling again: 409, translated.
    const again = await cancel(who, purchase.purchaseId);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'purchase_not_cancellable', message: 'Only an active subscription can be cancelled.' });
  });

  it("refuses another user's purchase and unknown ids with 404, changing nothing", async () => {
    const owner = await buildUser(t.ctx);
    const other = await buildUser(t.ctx);
    const { sub, purchase } = await stripeSubscription(owner);
    expect((await cancel(other, purchase.purchaseId)).statusCode).toBe(404);
    expect((await cancel(other, 999_999)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/purchases/cancel/${purchase.purchaseId}`, payload: { cancel_reason: 'Too expensive for me now' } })).statusCode).toBe(401);
    expect((await row(purchase.purchaseId)).status).toBe('active');
    expect((await stripe.subscriptions.retrieve(sub.id)).cancel_at_period_end).toBe(false);
  });

  it('refuses a one-time purchase and a revoked one with 409, in the user language', async () => {
    const who = await buildUser(t.ctx, { lang: 'es' });
    const product = await buildProduct(t.ctx);
    const oneTime = await buildPurchase(t.ctx, { userId: who.user.userId, productId: product.productId, status: 'completed' });
    const res = await cancel(who, oneTime.purchaseId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'purchase_not_cancellable', message: 'Solo se puede cancelar una suscripción activa.' });
    const revoked = await buildPurchase(t.ctx, { userId: who.user.userId, productId: product.productId, status: 'revoked', subscriptionPeriod: 'month', subscriptionInterval: 1 });
    expect((await cancel(who, revoked.purchaseId)).statusCode).toBe(409);
    expect((await row(oneTime.purchaseId)).status).toBe('completed');
  });

  it("refuses a reason under 10 characters with 400 and the spec's message, in English and Spanish", async () => {
    const who = await buildUser(t.ctx);
    const { purchase } = await stripeSubscription(who);
    for (const payload of [{ cancel_reason: 'too dear' }, { cancel_reason: '   short   ' }, {}, { cancel_reason: 42 }]) {
      const res = await cancel(who, purchase.purchaseId, payload);
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('You must include a cancel reason.');
    }
    // The user's saved language decides (platform/http/lang.ts).
    const spanishUser = await buildUser(t.ctx, { lang: 'es' });
    const own = await stripeSubscription(spanishUser);
    const spanish = await cancel(spanishUser, own.purchase.purchaseId, { cancel_reason: 'caro' });
    expect(spanish.statusCode).toBe(400);
    expect(spanish.json()).toMatchObject({ message: 'Debes incluir un motivo de cancelación.', details: { cancel_reason: 'Debes incluir un motivo de cancelación.' } });
    expect((await row(purchase.purchaseId)).status).toBe('active');
  });

  it('of two concurrent cancels, one succeeds and the other gets 409', async () => {
    const who = await buildUser(t.ctx);
    const { purchase } = await stripeSubscription(who);
    const answers = await Promise.all([cancel(who, purchase.purchaseId), cancel(who, purchase.purchaseId)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);

    // A staff-given subscription (no provider) too.
    const product = await buildProduct(t.ctx, { isSubscription: true, subscriptionPeriod: 'month', subscriptionInterval: 1, expirationDays: null });
    const given = await buildPurchase(t.ctx, { userId: who.user.userId, productId: product.productId, expirationDays: null, subscriptionPeriod: 'month', subscriptionInterval: 1 });
    const five = await Promise.all(Array.from({ length: 5 }, () => cancel(who, given.purchaseId)));
    expect(five.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(five.filter((a) => a.statusCode === 409)).toHaveLength(4);
  });

  it('a subscription id of no known provider is refused with 409, changing nothing', async () => {
    const who = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx);
    const odd = await buildPurchase(t.ctx, { userId: who.user.userId, productId: product.productId, subscriptionId: 'xyz_123', subscriptionPeriod: 'month', subscriptionInterval: 1 });
    const res = await cancel(who, odd.purchaseId);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('purchase_cancel_unsupported');
    expect((await row(odd.purchaseId)).status).toBe('active');
  });

  it('a cancelled subscription gives access until its next invoice date, then none; the watch announces the end', async () => {
    const who = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { isSubscription: true, subscriptionPeriod: 'month', subscriptionInterval: 1, expirationDays: null });
    const renewedAt = new Date('2030-01-15T12:00:00Z');
    const given = await buildPurchase(t.ctx, {
      userId: who.user.userId,
      productId: product.productId,
      expirationDays: null,
      subscriptionPeriod: 'month',
      subscriptionInterval: 1,
      createdAt: renewedAt,
      updatedAt: renewedAt,
    });
    // Cancelled on 2030-02-01 (the service's clock is the real one; the rule reads the stored dates).
    const { cancelOwnSubscription } = await import('./cancel-service');
    const actor = { staffRole: null, user: who.user, organization: null, sessionId: '', familyId: '' } as unknown as Parameters<typeof cancelOwnSubscription>[0]['actor'];
    await cancelOwnSubscription({ ctx: t.ctx, actor, purchaseId: given.purchaseId, reason: 'Moving to another tool', now: new Date('2030-02-01T00:00:00Z') });

    const nextInvoice = new Date('2030-02-15T12:00:00Z');
    const access = async (now: Date) => accessFromRows(await loadAccessRows(t.ctx.db, who.user.userId), now).hasAccess;
    const gate = (now: Date) => requireAccess(t.ctx.db, { staffRole: null, user: who.user }, now).then(() => true, () => false);
    const justBefore = new Date(nextInvoice.getTime() - 1000);
    expect(await access(justBefore)).toBe(true);
    expect(await gate(justBefore)).toBe(true);
    expect(await access(nextInvoice)).toBe(false);
    expect(await gate(nextInvoice)).toBe(false);

    // The watch, on a clock the test moves: nothing before the end, the user once when it passes, then nothing.
    let clock = new Date(nextInvoice.getTime() - 10 * 60_000);
    const watch = createAccessExpiryWatch(t.ctx, quietLog, { now: () => clock });
    expect(await watch.tick()).not.toContain(who.user.userId);
    clock = new Date(nextInvoice.getTime() - 30_000);
    expect(await watch.tick()).not.toContain(who.user.userId);
    clock = new Date(nextInvoice.getTime() + 30_000);
    const announced: AuthChange[] = [];
    const stop = processAuthChanges.listen((change) => announced.push(change));
    expect(await watch.tick()).toContain(who.user.userId);
    stop();
    expect(announced).toContainEqual({ userId: who.user.userId });
    clock = new Date(nextInvoice.getTime() + 60_000);
    expect(await watch.tick()).not.toContain(who.user.userId);
  });

  it('the watch announces every rule case exactly in the window its access ends', async () => {
    const who = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx);
    // A 31-day one-time purchase and a yearly subscription with a 7-day trial.
    const createdAt = new Date('2031-03-31T08:00:00Z');
    await buildPurchase(t.ctx, { userId: who.user.userId, productId: product.productId, status: 'completed', expirationDays: 31, createdAt, updatedAt: createdAt });
    const other = await buildUser(t.ctx);
    await buildPurchase(t.ctx, {
      userId: other.user.userId,
      productId: product.productId,
      expirationDays: null,
      subscriptionPeriod: 'year',
      subscriptionInterval: 1,
      freeTrialLength: 7,
      createdAt,
      updatedAt: createdAt,
    });
    const oneTimeEnd = new Date('2031-05-01T08:00:00Z');
    const yearEnd = new Date('2032-04-07T08:00:00Z');
    expect(await announceEndedAccess(t.ctx, { since: new Date(oneTimeEnd.getTime() - 1000), until: new Date(oneTimeEnd.getTime() - 1) })).not.toContain(who.user.userId);
    expect(await announceEndedAccess(t.ctx, { since: new Date(oneTimeEnd.getTime() - 1000), until: oneTimeEnd })).toContain(who.user.userId);
    expect(await announceEndedAccess(t.ctx, { since: oneTimeEnd, until: new Date(oneTimeEnd.getTime() + DAY) })).not.toContain(who.user.userId);
    expect(await announceEndedAccess(t.ctx, { since: new Date(yearEnd.getTime() - 60_000), until: yearEnd })).toEqual([other.user.userId]);
  });

  describe('invoice receipts', () => {
    async function ownInvoice(who: BuiltUser) {
      const product = await buildProduct(t.ctx, { name: 'Pro Plan' });
      const purchase = await buildPurchase(t.ctx, { userId: who.user.userId, productId: product.productId, status: 'completed', amount: 49, totalPayment: 39.2, discountCode: 'SPRING20' });
      const [invoice] = await t.ctx.db
        .insert(invoices)
        .values({ purchaseId: purchase.purchaseId, userId: who.user.userId, status: 'completed', amount: 49, totalPayment: 39.2, orderId: 'in_test_123' })
        .returning();
      return invoice;
    }

    it('is a PDF of the own invoice with the business name, product, amount, discount and total', async () => {
      const who = await buildUser(t.ctx, { name: 'Ana', lastName: 'López' });
      const invoice = await ownInvoice(who);
      const res = await t.app.inject({ url: `/api/invoices/${invoice.invoiceId}/pdf`, headers: who.auth });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="invoice-${invoice.invoiceId}.pdf"; filename*=UTF-8''invoice-${invoice.invoiceId}.pdf`);
      expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = pdfText(res.rawPayload);
      for (const expected of ['Pluma', `Receipt #${invoice.invoiceId}`, 'Pro Plan', '$49.00 USD', '-$9.80 USD (SPRING20)', 'Total', '$39.20 USD', 'Paid', 'Ana López', 'in_test_123']) {
        expect(text).toContain(expected);
      }
    });

    it('is in Spanish for a Spanish user', async () => {
      const who = await buildUser(t.ctx, { lang: 'es' });
      const invoice = await ownInvoice(who);
      const res = await t.app.inject({ url: `/api/invoices/${invoice.invoiceId}/pdf`, headers: who.auth });
      const text = pdfText(res.rawPayload);
      expect(text).toContain(`Recibo #${invoice.invoiceId}`);
      expect(text).toContain('Descuento');
      expect(text).toContain('Pagado');
    });

    it("is a 404 for another user's invoice, an unknown one, and 401 signed out", async () => {
      const owner = await buildUser(t.ctx);
      const other = await buildUser(t.ctx);
      const invoice = await ownInvoice(owner);
      expect((await t.app.inject({ url: `/api/invoices/${invoice.invoiceId}/pdf`, headers: other.auth })).statusCode).toBe(404);
      expect((await t.app.inject({ url: '/api/invoices/999999/pdf', headers: owner.auth })).statusCode).toBe(404);
      expect((await t.app.inject({ url: '/api/invoices/abc/pdf', headers: owner.auth })).statusCode).toBe(400);
      expect((await t.app.inject({ url: `/api/invoices/${invoice.invoiceId}/pdf` })).statusCode).toBe(401);
    });
  });
});
