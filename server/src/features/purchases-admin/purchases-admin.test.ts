// The back office's purchases and invoices through the real app (spec part 1 §2, §4, §7, §9): the staff
// rights matrix, the list's filters and paging, the admin edit rules (final statuses, reasons, access and
// credits once under concurrent edits, provider cancel against the Stripe emulator), invoices and the
// webhook test; each change audited.
import type { RunningStripeEmulator } from '@pluma/emulators/stripe/index';
import { customerWithCard, monthlyPrice } from '@pluma/emulators/stripe/test-kit';
import { and, asc, eq } from 'drizzle-orm';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, creditLedger, invoices, purchases, users } from '../../db/schema';
import { buildProduct, buildPurchase, buildStaffCast, buildUser, type BuiltUser } from '../../test/factories';
import { startStripeTestApp } from '../../test/stripe-test-app';
import type { TestApp } from '../../test/test-app';

const SECRET_KEY = 'sk_test_pluma_admin_purchases_0123';
const ROW_KEYS = [
  'abilities', 'amount', 'cancel_reason', 'cancelledAt', 'createdAt', 'discount', 'expiration_date', 'expiration_days', 'failure_reason', 'invoice_id', 'is_gift',
  'order_id', 'payment_method', 'payment_processor_id', 'product', 'purchase_id', 'status', 'subscription_id', 'subscription_period', 'total_payment',
  'type', 'updatedAt', 'user',
].sort();

describe('back-office purchases and invoices', () => {
  let emulator: RunningStripeEmulator;
  let stripe: Stripe;
  let t: TestApp;
  let admin: BuiltUser;
  let spanishAdmin: BuiltUser;
  let manager: BuiltUser;
  let customer: BuiltUser;
  let leads: Server;
  let leadsUrl: string;
  const received: unknown[] = [];

  beforeAll(async () => {
    ({ emulator, stripe, t } = await startStripeTestApp({ secretKey: SECRET_KEY }, { OUTBOUND_ALLOW_HOSTS: '127.0.0.1' }));
    ({ admin, spanishAdmin, manager, customer } = await buildStaffCast(t.ctx));
    leads = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.writeHead(202, { 'content-type': 'application/json' }).end('{"accepted":true}');
      });
    });
    await new Promise<void>((resolve) => leads.listen(0, '127.0.0.1', resolve));
    leadsUrl = `http://127.0.0.1:${(leads.address() as AddressInfo).port}/hook`;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await emulator?.close();
    await new Promise((resolve) => leads?.close(resolve));
  });

  const call = (who: BuiltUser | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url: `/api${url}`, headers: who ? who.auth : {}, payload });
  const purchaseRow = async (purchaseId: number) => (await t.ctx.db.select().from(purchases).where(eq(purchases.purchaseId, purchaseId)))[0];
  const balance = async (userId: number) => (await t.ctx.db.select({ words: users.availableWords }).from(users).where(eq(users.userId, userId)))[0].words;
  const auditOf = (type: string, id: number) =>
    t.ctx.db.select().from(auditLog).where(and(eq(auditLog.targetType, type), eq(auditLog.targetId, String(id)))).orderBy(asc(auditLog.auditId));

  it('refuses the signed out (401) and customers (403) on every route; managers read only; admins do all', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { webhookUrl: leadsUrl });
    const purchase = await buildPurchase(t.ctx, { userId: buyer.user.userId, productId: product.productId, status: 'pending' });
    const [invoice] = await t.ctx.db.insert(invoices).values({ purchaseId: purchase.purchaseId, userId: buyer.user.userId }).returning();
    const routes: { method: 'GET' | 'POST' | 'PUT'; url: string; payload?: Record<string, unknown>; manager: number; admin: number }[] = [
      { method: 'GET', url: '/purchases/admin', manager: 200, admin: 200 },
      { method: 'GET', url: '/invoices/admin', manager: 200, admin: 200 },
      { method: 'POST', url: '/purchases/admin', payload: { user_id: buyer.user.userId, product_id: product.productId, status: 'pending' }, manager: 403, admin: 201 },
      { method: 'PUT', url: '/purchases/admin', payload: { purchase_id: purchase.purchaseId, amount: 12 }, manager: 403, admin: 200 },
      { method: 'POST', url: '/invoices/admin', payload: {}, manager: 403, admin: 201 },
      { method: 'PUT', url: '/invoices/admin', payload: { invoice_id: invoice.invoiceId, status: 'failed' }, manager: 403, admin: 200 },
      { method: 'POST', url: '/purchases/test', payload: { product_id: product.productId }, manager: 403, admin: 200 },
    ];
    for (const route of routes) {
      const label = `${route.method} ${route.url}`;
      expect((await call(null, route.method, route.url, route.payload)).statusCode, label).toBe(401);
      expect((await call(customer, route.method, route.url, route.payload)).statusCode, label).toBe(403);
      // A refusal reveals no rule: a customer's bad body is a 403 too.
      if (route.method !== 'GET') expect((await call(customer, route.method, route.url, { nonsense: true })).statusCode, label).toBe(403);
      const asManager = await call(manager, route.method, route.url, route.payload);
      expect(asManager.statusCode, `${label} ${asManager.body}`).toBe(route.manager);
      const asAdmin = await call(admin, route.method, route.url, route.payload);
      expect(asAdmin.statusCode, `${label} ${asAdmin.body}`).toBe(route.admin);
    }
    // The manager's refused edit changed nothing; the admin's did.
    expect((await purchaseRow(purchase.purchaseId)).amount).toBe(12);
    expect(await auditOf('purchase', purchase.purchaseId)).toHaveLength(1);
  });

  it('lists purchases and invoices newest first, 12 a page, with the exact keys and the abilities of the role', async () => {
    const buyer = await buildUser(t.ctx, { name: 'Paginated', lastName: 'Buyer' });
    const product = await buildProduct(t.ctx, { name: 'Paging plan' });
    const base = Date.now() - 60_000;
    for (let i = 0; i < 14; i++) {
      await buildPurchase(t.ctx, { userId: buyer.user.userId, productId: product.productId, createdAt: new Date(base + i * 1000), discountCode: i === 13 ? 'SPRING' : null });
    }
    const [invoice] = await t.ctx.db
      .insert(invoices)
      .values({ userId: buyer.user.userId, status: 'completed', amount: 5, totalPayment: 5, orderId: 'ord_paging', createdAt: new Date(base + 20_000) })
      .returning();

    const first = await call(admin, 'GET', `/purchases/admin?product_id=${product.productId}`);
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json();
    // The product filter reaches invoices through their purchase: this one has none.
    expect(page.total).toBe(14);
    expect(page.page_size).toBe(12);
    expect(page.rows).toHaveLength(12);
    expect(Object.keys(page.rows[0]).sort()).toEqual(ROW_KEYS);
    expect(page.rows[0]).toMatchObject({
      type: 'purchase',
      user: { user_id: buyer.user.userId, name: 'Paginated', last_name: 'Buyer', email: buyer.user.email },
      product: { product_id: product.productId, name: 'Paging plan' },
      discount: { code: 'SPRING' },
      status: 'active',
      abilities: { edit: true, cancel_subscription: false },
    });
    const times = page.rows.map((r: { createdAt: string }) => Date.parse(r.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const second = (await call(admin, 'GET', `/purchases/admin?product_id=${product.productId}&page=2`)).json();
    expect(second.rows).toHaveLength(2);

    // Search by the customer's name, both kinds; the manager sees no edit ability.
    const searched = (await call(manager, 'GET', `/purchases/admin?query=${encodeURIComponent('paginated buyer')}`)).json();
    expect(searched.total).toBe(15);
    expect(searched.rows[0]).toMatchObject({ type: 'invoice', invoice_id: invoice.invoiceId, order_id: 'ord_paging', abilities: { edit: false, cancel_subscription: false } });
    // Type tabs.
    expect((await call(admin, 'GET', `/purchases/admin?query=Paginated&type=invoices`)).json().total).toBe(1);
    expect((await call(admin, 'GET', `/purchases/admin?query=Paginated&type=purchases`)).json().total).toBe(14);
    expect((await call(admin, 'GET', `/invoices/admin?query=ord_paging`)).json().rows).toHaveLength(1);
    // A search is text, never a pattern: % matches only a literal %.
    expect((await call(admin, 'GET', `/purchases/admin?query=%25`)).json().total).toBe(0);
  });

  it('filters by the status tabs of §9 and by the date range (default: this month to one month later)', async () => {
    const buyer = await buildUser(t.ctx, { name: 'Statuses' });
    const product = await buildProduct(t.ctx);
    const statuses = ['active', 'completed', 'cancelled', 'pending', 'revoked'];
    for (const status of statuses) await buildPurchase(t.ctx, { userId: buyer.user.userId, productId: product.productId, status });
    await t.ctx.db.insert(invoices).values([
      { userId: buyer.user.userId, status: 'failed' },
      { userId: buyer.user.userId, status: 'success' },
      { userId: buyer.user.userId, status: 'on-hold' },
    ]);
    const count = async (status: string) => (await call(admin, 'GET', `/purchases/admin?query=Statuses&status=${status}`)).json().total;
    expect(await count('all')).toBe(8);
    expect(await count('successful')).toBe(3); // active, completed, success
    expect(await count('failed')).toBe(2); // failed, cancelled
    expect(await count('pending')).toBe(2); // pending, on-hold

    const old = await buildPurchase(t.ctx, { userId: buyer.user.userId, productId: product.productId, createdAt: new Date('2020-03-15T12:00:00Z') });
    const page = (await call(admin, 'GET', '/purchases/admin?query=Statuses')).json();
    const now = new Date();
    expect(page.start_date).toBe(`${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`);
    expect(page.rows.some((r: { purchase_id: number }) => r.purchase_id === old.purchaseId)).toBe(false);
    const march = (await call(admin, 'GET', '/purchases/admin?query=Statuses&start_date=2020-03-15&end_date=2020-03-15')).json();
    expect(march.rows.map((r: { purchase_id: number }) => r.purchase_id)).toEqual([old.purchaseId]);
    // Validation: bad dates, tabs and ids are 400s.
    for (const bad of ['start_date=2020-02-30', 'status=done', 'type=refunds', 'product_id=0', 'page=0']) {
      expect((await call(admin, 'GET', `/purchases/admin?${bad}`)).statusCode, bad).toBe(400);
    }
  });

  it('activating a pending purchase gives access and the package words once, even under concurrent edits', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { wordAmount: 5000 });
    const purchase = await buildPurchase(t.ctx, { userId: buyer.user.userId, productId: product.productId, status: 'pending' });
    expect((await call(buyer, 'GET', '/users')).json().has_access).toBe(false);

    const edits = await Promise.all(
      Array.from({ length: 6 }, (_, i) => call(admin, 'PUT', '/purchases/admin', { purchase_id: purchase.purchaseId, status: i % 2 ? 'active' : 'completed' })),
    );
    for (const edit of edits) expect(edit.statusCode, edit.body).toBe(200);
    expect(await balance(buyer.user.userId)).toBe(5000);
    const ledger = await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, buyer.user.userId));
    expect(ledger).toEqual([expect.objectContaining({ sourceType: 'purchase', sourceId: String(purchase.purchaseId), words: 5000 })]);
    expect((await call(buyer, 'GET', '/users')).json().has_access).toBe(true);

    // Revoked ends access at once; a revoked purchase is final.
    const revoked = await call(admin, 'PUT', '/purchases/admin', { purchase_id: purchase.purchaseId, status: 'revoked' });
    expect(revoked.json()).toMatchObject({ status: 'revoked' });
    expect((await call(buyer, 'GET', '/users')).json().has_access).toBe(false);
    const back = await call(spanishAdmin, 'PUT', '/purchases/admin', { purchase_id: purchase.purchaseId, status: 'active' });
    expect(back.statusCode).toBe(409);
    expect(back.json()).toMatchObject({ error: 'purchase_status_final', message: 'Una compra cancelada o revocada solo puede pasar a cancelada o revocada.' });
    const english = await call(admin, 'PUT', '/purchases/admin', { purchase_id: purchase.purchaseId, status: 'completed' });
    expect(english.json().message).toBe('A cancelled or revoked purchase can only be set to cancelled or revoked.');
    expect(await balance(buyer.user.userId)).toBe(5000);
    // Revoked to cancelled is allowed (with a reason).
    const cancelled = await call(admin, 'PUT', '/purchases/admin', { purchase_id: purchase.purchaseId, status: 'cancelled', cancel_reason: 'Refunded by support' });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', cancel_reason: 'Refunded by support' });

    const audit = await auditOf('purchase', purchase.purchaseId);
    expect(audit.map((a) => JSON.parse(a.details!).changes.status)).toEqual([
      ...Array.from({ length: 6 }, () => expect.objectContaining({ to: expect.stringMatching(/^(active|completed)$/) })),
      { from: expect.stringMatching(/^(active|completed)$/), to: 'revoked' },
      { from: 'revoked', to: 'cancelled' },
    ]);
    expect(audit[0]).toMatchObject({ action: 'PUT /api/purchases/admin', actorUserId: admin.user.userId });
  });

  it("cancelled needs a reason of 10 characters ('You must include a cancel reason.'), in English and Spanish, changing nothing", async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx);
    const purchase = await buildPurchase(t.ctx, { userId: buyer.user.userId, productId: product.productId, status: 'completed' });
    const none = await call(admin, 'PUT', '/purchases/admin', { purchase_id: purchase.purchaseId, status: 'cancelled' });
    expect(none.statusCode).toBe(400);
    expect(none.json().details).toEqual({ cancel_reason: 'You must include a cancel reason.' });
    const short = await call(spanishAdmin, 'PUT', '/purchases/admin', { purchase_id: purchase.purchaseId, status: 'cancelled', cancel_reason: ' too short ' });
    expect(short.json().details).toEqual({ cancel_reason: 'Debes incluir un motivo de cancelación.' });
    expect((await purchaseRow(purchase.purchaseId)).status).toBe('completed');
    expect((await call(admin, 'PUT', '/purchases/admin', { purchase_id: 999_999, amount: 1 })).statusCode).toBe(404);
  });

  it('cancelling a live Stripe subscription cancels it at Stripe too, keeping its last update; access lasts to its end', async () => {
    const buyer = await buildUser(t.ctx);
    const price = await monthlyPrice(stripe, 2500);
    const { customer: stripeCustomer } = await customerWithCard(stripe);
    const sub = await stripe.subscriptions.create({ customer: stripeCustomer.id, items: [{ price: price.id }] });
    const product = await buildProduct(t.ctx, { isSubscription: true, subscriptionInterval: 1, subscriptionPeriod: 'month', expirationDays: null, price: 25 });
    const createdAt = new Date(Date.now() - 5 * 86_400_000);
    const purchase = await buildPurchase(t.ctx, {
      userId: buyer.user.userId, productId: product.productId, status: 'active', subscriptionId: sub.id, subscriptionInterval: 1, subscriptionPeriod: 'month',
      expirationDays: 30, createdAt, updatedAt: createdAt,
    });
    const listed = (await call(admin, 'GET', `/purchases/admin?product_id=${product.productId}`)).json();
    expect(listed.rows[0].abilities).toEqual({ edit: true, cancel_subscription: true });

    const res = await call(admin, 'PUT', '/purchases/admin', { purchase_id: purchase.purchaseId, status: 'cancelled', cancel_reason: 'Customer asked by phone' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled', cancel_reason: 'Customer asked by phone', abilities: { cancel_subscription: false } });
    expect((await stripe.subscriptions.retrieve(sub.id)).cancel_at_period_end).toBe(true);
    const stored = await purchaseRow(purchase.purchaseId);
    expect(stored.cancelledAt).not.toBeNull();
    expect(stored.updatedAt.getTime()).toBe(createdAt.getTime());
    expect((await call(buyer, 'GET', '/users')).json().has_access).toBe(true);
  });

  it('a provider refusing the cancel changes nothing (unknown subscription id: 409)', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx);
    const purchase = await buildPurchase(t.ctx, { userId: buyer.user.userId, productId: product.productId, status: 'active', subscriptionId: 'weird_123', subscriptionPeriod: 'month', subscriptionInterval: 1 });
    const res = await call(admin, 'PUT', '/purchases/admin', { purchase_id: purchase.purchaseId, status: 'cancelled', cancel_reason: 'Customer asked by phone' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('purchase_cancel_unsupported');
    expect((await purchaseRow(purchase.purchaseId)).status).toBe('active');
  });

  it('creates a purchase: completed grants the words at once; a gift is free with no payment method; unknown ids 404', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { wordAmount: null, price: 30, expirationDays: 60 });
    const res = await call(admin, 'POST', '/purchases/admin', { user_id: buyer.user.userId, product_id: product.productId, is_gift: true, payment_method_id: 1 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ type: 'purchase', status: 'completed', total_payment: 0, amount: 0, is_gift: true, payment_method: null, expiration_days: 60 });
    expect(await balance(buyer.user.userId)).toBe(1_000_000);
    const audit = await auditOf('purchase', res.json().purchase_id);
    expect(JSON.parse(audit[0].details!)).toMatchObject({ changes: { status: { from: null, to: 'completed' } } });
    expect((await call(admin, 'POST', '/purchases/admin', { user_id: 999_999, product_id: product.productId })).statusCode).toBe(404);
    expect((await call(admin, 'POST', '/purchases/admin', { user_id: buyer.user.userId, product_id: 999_999 })).statusCode).toBe(404);
  });

  it('invoices: defaults of §4, the purchase fills the customer, unknown purchase 404, unknown user 400, mismatch 400', async () => {
    const buyer = await buildUser(t.ctx);
    const other = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx);
    const purchase = await buildPurchase(t.ctx, { userId: buyer.user.userId, productId: product.productId });

    const blank = await call(admin, 'POST', '/invoices/admin', {});
    expect(blank.statusCode, blank.body).toBe(201);
    expect(blank.json()).toMatchObject({ type: 'invoice', status: 'pending', amount: 0, total_payment: 0, purchase_id: null, user: null, product: null });

    const linked = await call(admin, 'POST', '/invoices/admin', { purchase_id: purchase.purchaseId, amount: 10, status: 'completed', order_id: 'manual-1' });
    expect(linked.json()).toMatchObject({ purchase_id: purchase.purchaseId, user: { user_id: buyer.user.userId }, product: { product_id: product.productId }, amount: 10, total_payment: 10 });
    expect((await auditOf('invoice', linked.json().invoice_id))[0]).toMatchObject({ action: 'POST /api/invoices/admin', actorUserId: admin.user.userId });

    expect((await call(admin, 'POST', '/invoices/admin', { purchase_id: 999_999 })).statusCode).toBe(404);
    const unknownUser = await call(admin, 'POST', '/invoices/admin', { user_id: 999_999 });
    expect(unknownUser.statusCode).toBe(400);
    const mismatch = await call(admin, 'POST', '/invoices/admin', { purchase_id: purchase.purchaseId, user_id: other.user.userId });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().details).toEqual({ user_id: 'This purchase belongs to another customer.' });
    expect((await call(admin, 'POST', '/invoices/admin', { status: 'paid-ish' })).statusCode).toBe(400);

    const edited = await call(admin, 'PUT', '/invoices/admin', { invoice_id: blank.json().invoice_id, status: 'failed', user_id: other.user.userId, expiration_date: '2027-01-31' });
    expect(edited.json()).toMatchObject({ status: 'failed', user: { user_id: other.user.userId }, expiration_date: '2027-01-31T00:00:00.000Z' });
    const audit = await auditOf('invoice', blank.json().invoice_id);
    expect(JSON.parse(audit.at(-1)!.details!)).toMatchObject({ changes: { status: { from: 'pending', to: 'failed' } } });
    expect((await call(admin, 'PUT', '/invoices/admin', { invoice_id: 999_999, status: 'failed' })).statusCode).toBe(404);
  });

  it("POST /purchases/test sends the product's webhook a sample purchase and returns its answer", async () => {
    const buyer = await buildUser(t.ctx, { name: 'Lead' });
    const product = await buildProduct(t.ctx, { webhookUrl: leadsUrl, productSku: 'SKU-9' });
    received.length = 0;
    const res = await call(admin, 'POST', '/purchases/test', { product_id: product.productId, user_id: buyer.user.userId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ url: leadsUrl, status: 202, ok: true, body: '{"accepted":true}' });
    expect(received).toEqual([expect.objectContaining({ event: 'purchase', test: true, product_sku: 'SKU-9', email: buyer.user.email, name: 'Lead' })]);

    const without = await buildProduct(t.ctx);
    const missing = await call(admin, 'POST', '/purchases/test', { product_id: without.productId });
    expect(missing.statusCode).toBe(409);
    expect(missing.json().error).toBe('product_webhook_missing');
    // The outbound guard refuses a private address that is not allowed.
    const guarded = await buildProduct(t.ctx, { webhookUrl: 'http://169.254.169.254/latest' });
    expect((await call(admin, 'POST', '/purchases/test', { product_id: guarded.productId })).statusCode).toBe(400);
    expect((await call(admin, 'POST', '/purchases/test', { product_id: 999_999 })).statusCode).toBe(404);
  });
});
