// Catalog products and plans through plain fetch (the SDK lacks products), subscriptions through the
// SDK's SubscriptionsController and through fetch: approval, trials, renewals, failures, cancel.
import { SubscriptionStatus, type SubscriptionsController } from '@paypal/paypal-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPayPalEmulator } from './server';
import { fetcher, monthlyPlan, startWithClient } from './test-kit';

let emulator: RunningPayPalEmulator;
let subscriptions: SubscriptionsController;
let call: ReturnType<typeof fetcher>;

beforeAll(async () => {
  ({ emulator, subscriptions } = await startWithClient());
  call = fetcher(emulator);
});
afterAll(() => emulator.close());

const eventsOf = (type: string) => emulator.control.events().filter((e) => e.event_type === type) as { resource: Record<string, unknown> }[];

describe('catalog products', () => {
  it('creates, gets and lists products; refuses duplicates and bad bodies', async () => {
    const created = await call('POST', '/v1/catalogs/products', { name: 'Pluma Starter', type: 'SERVICE', description: 'Words every month' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^PROD-[A-Z0-9]{17}$/), name: 'Pluma Starter', type: 'SERVICE', create_time: expect.any(String) });
    expect((await call('GET', `/v1/catalogs/products/${created.body.id}`)).body).toMatchObject({ name: 'Pluma Starter', description: 'Words every month' });

    const own = await call('POST', '/v1/catalogs/products', { id: 'pluma-product-3', name: 'Pluma Team', type: 'DIGITAL' });
    expect(own.body.id).toBe('pluma-product-3');
    const dup = await call('POST', '/v1/catalogs/products', { id: 'pluma-product-3', name: 'Again', type: 'DIGITAL' });
    expect(dup.status).toBe(422);
    expect(dup.body.details?.[0].issue).toBe('DUPLICATE_RESOURCE_IDENTIFIER');
    const bad = await call('POST', '/v1/catalogs/products', { type: 'GADGET' });
    expect(bad.status).toBe(400);
    expect(bad.body.details?.map((d) => [d.field, d.issue])).toEqual([
      ['/name', 'MISSING_REQUIRED_PARAMETER'],
      ['/type', 'INVALID_PARAMETER_VALUE'],
    ]);
    expect((await call('GET', '/v1/catalogs/products/PROD-NOPE')).status).toBe(404);

    const list = await call('GET', '/v1/catalogs/products?page_size=1&page=1&total_required=true');
    expect(list.body).toMatchObject({ total_items: 2, total_pages: 2 });
    expect((list.body.products as unknown[]).length).toBe(1);
    expect((list.body.links as { rel: string }[]).map((l) => l.rel)).toEqual(['self', 'next']);
  });
});

describe('billing plans', () => {
  it('creates a plan with a free trial (minimal answer by default), gets it whole, lists by product', async () => {
    const { product, plan } = await monthlyPlan(call, { trialDays: 7, price: '19.90' });
    expect(plan).toEqual({ id: expect.stringMatching(/^P-[A-Z0-9]{24}$/), product_id: product.id, name: 'Pluma Pro monthly', status: 'ACTIVE', usage_type: 'LICENSED', create_time: expect.any(String), links: expect.any(Array) });
    const full = await call('GET', `/v1/billing/plans/${plan.id}`);
    expect(full.body.billing_cycles).toEqual([
      { frequency: { interval_unit: 'DAY', interval_count: 7 }, tenure_type: 'TRIAL', sequence: 1, total_cycles: 1 },
      {
        pricing_scheme: { version: 1, fixed_price: { currency_code: 'USD', value: '19.90' }, create_time: expect.any(String), update_time: expect.any(String) },
        frequency: { interval_unit: 'MONTH', interval_count: 1 },
        tenure_type: 'REGULAR',
        sequence: 2,
        total_cycles: 0,
      },
    ]);
    const listed = await call('GET', `/v1/billing/plans?product_id=${product.id}`);
    expect((listed.body.plans as { id: string }[]).map((p) => p.id)).toEqual([plan.id]);

    // The SDK reads the same plan.
    const { result } = await subscriptions.getBillingPlan(plan.id);
    expect(result.billingCycles?.[1].pricingScheme?.fixedPrice?.value).toBe('19.90');
  });

  it('refuses plans without exactly one regular cycle, with a missing price, or for an unknown product', async () => {
    const { product } = await monthlyPlan(call);
    const twoTrials = [1, 2, 3].map((sequence) => ({ frequency: { interval_unit: 'DAY', interval_count: 1 }, tenure_type: 'TRIAL', sequence, total_cycles: 1 }));
    const noRegular = await call('POST', '/v1/billing/plans', { product_id: product.id, name: 'x', billing_cycles: twoTrials, payment_preferences: {} });
    expect(noRegular.status).toBe(400);
    const noPrice = await call('POST', '/v1/billing/plans', { product_id: product.id, name: 'x', billing_cycles: [{ frequency: { interval_unit: 'MONTH' }, tenure_type: 'REGULAR', sequence: 1 }] });
    expect(noPrice.body.details?.[0]).toMatchObject({ field: '/billing_cycles/0/pricing_scheme', issue: 'MISSING_REQUIRED_PARAMETER' });
    const badInterval = await call('POST', '/v1/billing/plans', { product_id: product.id, name: 'x', billing_cycles: [{ frequency: { interval_unit: 'YEAR', interval_count: 2 }, tenure_type: 'REGULAR', sequence: 1, pricing_scheme: { fixed_price: { currency_code: 'USD', value: '1' } } }] });
    expect(badInterval.body.details?.[0].field).toBe('/billing_cycles/0/frequency/interval_count');
    const unknown = await call('POST', '/v1/billing/plans', { product_id: 'PROD-NOPE', name: 'x', billing_cycles: [{ frequency: { interval_unit: 'MONTH' }, tenure_type: 'REGULAR', sequence: 1, pricing_scheme: { fixed_price: { currency_code: 'USD', value: '1' } } }] });
    expect(unknown.status).toBe(422);
  });

  it('deactivates a plan through the SDK; new subscriptions to it are refused', async () => {
    const { plan } = await monthlyPlan(call);
    await subscriptions.deactivateBillingPlan(plan.id);
    const refused = await call('POST', '/v1/billing/subscriptions', { plan_id: plan.id });
    expect(refused.status).toBe(422);
    expect(refused.body.details?.[0].issue).toBe('PLAN_STATUS_INVALID');
    await subscriptions.activateBillingPlan(plan.id);
    expect((await call('POST', '/v1/billing/subscriptions', { plan_id: plan.id })).status).toBe(201);
  });
});

describe('subscriptions', () => {
  const context = { returnUrl: 'http://app.test/checkout/paypal/subscribed', cancelUrl: 'http://app.test/checkout/paypal/cancel' };

  it('goes APPROVAL_PENDING → ACTIVE through the approve page, billing the first month at once', async () => {
    const { plan } = await monthlyPlan(call, { price: '20.00' });
    const { statusCode, result } = await subscriptions.createSubscription({ body: { planId: plan.id, customId: 'purchase-12', applicationContext: context }, paypalRequestId: 'sub-purchase-12' });
    expect(statusCode).toBe(201);
    expect(result).toMatchObject({ planId: plan.id, customId: 'purchase-12', status: SubscriptionStatus.ApprovalPending });
    expect(result.id).toMatch(/^I-[A-Z0-9]{12}$/);
    const again = await subscriptions.createSubscription({ body: { planId: plan.id, customId: 'purchase-12', applicationContext: context }, paypalRequestId: 'sub-purchase-12' });
    expect(again.result.id).toBe(result.id);

    const approve = result.links!.find((l) => l.rel === 'approve')!.href;
    expect(approve).toMatch(new RegExp(`^${emulator.origin}/webapps/billing/subscriptions\\?ba_token=BA-`));
    expect(await (await fetch(approve)).text()).toContain('20.00 USD every 1 month(s)');
    const clicked = await fetch(approve, { method: 'POST', body: new URLSearchParams({ action: 'approve' }), redirect: 'manual' });
    expect(clicked.status).toBe(303);
    const location = new URL(clicked.headers.get('location')!);
    expect(location.searchParams.get('subscription_id')).toBe(result.id);
    expect(location.searchParams.get('ba_token')).toMatch(/^BA-/);

    const { result: active } = await subscriptions.getSubscription({ id: result.id! });
    expect(active.status).toBe('ACTIVE');
    expect(active.subscriber).toMatchObject({ emailAddress: 'buyer@example.com', payerId: expect.any(String) });
    expect(active.billingInfo).toMatchObject({ lastPayment: { amount: { value: '20.00' } }, failedPaymentsCount: 0, cycleExecutions: [{ tenureType: 'REGULAR', cyclesCompleted: 1 }] });
    const next = Date.parse(active.billingInfo!.nextBillingTime!);
    expect(next - Date.now()).toBeGreaterThan(27 * 86_400_000);

    const types = emulator.control.events().filter((e) => JSON.stringify(e).includes(result.id!)).map((e) => e.event_type);
    expect(types).toEqual(['BILLING.SUBSCRIPTION.CREATED', 'BILLING.SUBSCRIPTION.ACTIVATED', 'PAYMENT.SALE.COMPLETED']);
    const sale = eventsOf('PAYMENT.SALE.COMPLETED').at(-1)!.resource;
    expect(sale).toMatchObject({ state: 'completed', billing_agreement_id: result.id, custom: 'purchase-12', amount: { total: '20.00', currency: 'USD' } });

    const now = new Date();
    const { result: tx } = await subscriptions.listSubscriptionTransactions({ id: result.id!, startTime: new Date(now.getTime() - 60_000).toISOString(), endTime: new Date(now.getTime() + 60_000).toISOString() });
    expect(tx.transactions).toEqual([expect.objectContaining({ id: sale.id, status: 'COMPLETED', amountWithBreakdown: expect.objectContaining({ grossAmount: { currencyCode: 'USD', value: '20.00' } }) })]);
  });

  it('bills nothing during a free trial; renewals then bill the regular price, each a PAYMENT.SALE.COMPLETED', async () => {
    const { plan } = await monthlyPlan(call, { trialDays: 14, price: '15.00' });
    const created = await call('POST', '/v1/billing/subscriptions', { plan_id: plan.id, custom_id: 'purchase-20', application_context: { return_url: context.returnUrl, cancel_url: context.cancelUrl } });
    const id = String(created.body.id);
    const sales = () => eventsOf('PAYMENT.SALE.COMPLETED').filter((e) => e.resource.billing_agreement_id === id);
    const approved = emulator.control.approveSubscription(id);
    expect(approved).toMatchObject({ status: 'ACTIVE', billing_info: { cycle_executions: [{ tenure_type: 'TRIAL', cycles_completed: 1 }, { tenure_type: 'REGULAR', cycles_completed: 0 }] } });
    expect((approved.billing_info as { last_payment?: unknown }).last_payment).toBeUndefined();
    expect(sales()).toHaveLength(0);
    const trialEnd = Date.parse((approved.billing_info as { next_billing_time: string }).next_billing_time);
    expect(Math.round((trialEnd - Date.now()) / 86_400_000)).toBe(14);

    const renewed = await fetch(`${emulator.origin}/_emulator/subscriptions/${id}/renew`, { method: 'POST' });
    const body = (await renewed.json()) as { billing_info: { next_billing_time: string; last_payment: { amount: { value: string } } } };
    expect(body.billing_info.last_payment.amount.value).toBe('15.00');
    expect(new Date(body.billing_info.next_billing_time).getUTCMonth()).toBe((new Date(trialEnd).getUTCMonth() + 1) % 12);
    emulator.control.renewSubscription(id);
    expect(sales().map((s) => (s.resource.amount as { total: string }).total)).toEqual(['15.00', '15.00']);
    expect(new Set(sales().map((s) => s.resource.id)).size).toBe(2);
  });

  it('fails a renewal (PAYMENT.FAILED) and suspends at the plan threshold; activate, suspend and cancel by API', async () => {
    const { plan } = await monthlyPlan(call, { failureThreshold: 2 });
    const { result } = await subscriptions.createSubscription({ body: { planId: plan.id, customId: 'purchase-30' } });
    const id = result.id!;
    emulator.control.approveSubscription(id);
    emulator.control.renewSubscription(id, 'FAILED');
    let sub = (await subscriptions.getSubscription({ id })).result;
    expect(sub.status).toBe('ACTIVE');
    expect(sub.billingInfo).toMatchObject({ failedPaymentsCount: 1, outstandingBalance: { value: '20.00' }, lastFailedPayment: { reasonCode: 'PAYMENT_DENIED' } });
    emulator.control.renewSubscription(id, 'FAILED');
    sub = (await subscriptions.getSubscription({ id })).result;
    expect(sub.status).toBe('SUSPENDED');
    expect(eventsOf('BILLING.SUBSCRIPTION.PAYMENT.FAILED').filter((e) => e.resource.id === id)).toHaveLength(2);
    expect(eventsOf('BILLING.SUBSCRIPTION.SUSPENDED').at(-1)!.resource).toMatchObject({ id, status: 'SUSPENDED', custom_id: 'purchase-30' });

    const renewSuspended = await fetch(`${emulator.origin}/_emulator/subscriptions/${id}/renew`, { method: 'POST' });
    expect(renewSuspended.status).toBe(422);
    await subscriptions.activateSubscription({ id, body: { reason: 'Card updated' } });
    expect((await subscriptions.getSubscription({ id })).result.status).toBe('ACTIVE');
    await subscriptions.suspendSubscription({ id, body: { reason: 'Paused by support' } });
    await subscriptions.cancelSubscription({ id, body: { reason: 'Too expensive for me' } });
    sub = (await subscriptions.getSubscription({ id })).result;
    expect(sub).toMatchObject({ status: 'CANCELLED', statusChangeNote: 'Too expensive for me' });
    expect(sub.billingInfo?.nextBillingTime).toBeUndefined();
    expect(eventsOf('BILLING.SUBSCRIPTION.CANCELLED').at(-1)!.resource).toMatchObject({ id, status: 'CANCELLED', custom_id: 'purchase-30' });

    const twice = await call('POST', `/v1/billing/subscriptions/${id}/cancel`, { reason: 'again' });
    expect(twice.status).toBe(422);
    expect(twice.body.details?.[0].issue).toBe('SUBSCRIPTION_STATUS_INVALID');
  });

  it('needs a reason to cancel, cannot cancel before approval, and expires after its last cycle', async () => {
    const { plan } = await monthlyPlan(call, { totalCycles: 2 });
    const created = await call('POST', '/v1/billing/subscriptions', { plan_id: plan.id });
    const id = String(created.body.id);
    expect((await call('POST', `/v1/billing/subscriptions/${id}/cancel`, { reason: 'never approved' })).status).toBe(422);
    emulator.control.approveSubscription(id);
    const noReason = await call('POST', `/v1/billing/subscriptions/${id}/cancel`, {});
    expect(noReason.status).toBe(400);
    expect(noReason.body.details?.[0]).toMatchObject({ field: '/reason', issue: 'MISSING_REQUIRED_PARAMETER' });
    emulator.control.renewSubscription(id);
    expect(emulator.control.renewSubscription(id)).toMatchObject({ status: 'EXPIRED' });
    expect(eventsOf('BILLING.SUBSCRIPTION.EXPIRED').at(-1)!.resource).toMatchObject({ id });

    const list = await subscriptions.listSubscriptions({ planIds: plan.id, statuses: 'EXPIRED' });
    expect(list.result.subscriptions?.map((s) => s.id)).toEqual([id]);
  });

  it('fails the next matching calls on demand (control route and in-process), then answers as before', async () => {
    const { plan } = await monthlyPlan(call);
    const id = String((await call('POST', '/v1/billing/subscriptions', { plan_id: plan.id })).body.id);
    emulator.control.approveSubscription(id);
    const control = await fetch(`${emulator.origin}/_emulator/fail-next`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 503, times: 2, match: `/${id}/cancel` }) });
    expect(control.status).toBe(200);
    // Other calls are not affected.
    expect((await call('GET', `/v1/billing/subscriptions/${id}`)).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const failed = await call('POST', `/v1/billing/subscriptions/${id}/cancel`, { reason: 'switching plans' });
      expect(failed.status).toBe(503);
      expect(failed.body.name).toBe('INTERNAL_SERVICE_ERROR');
    }
    expect((await call('GET', `/v1/billing/subscriptions/${id}`)).body.status).toBe('ACTIVE');
    expect((await call('POST', `/v1/billing/subscriptions/${id}/cancel`, { reason: 'switching plans' })).status).toBe(204);
    emulator.control.failNext(500, 1, 'GET /v1/billing/subscriptions/');
    expect((await call('GET', `/v1/billing/subscriptions/${id}`)).status).toBe(500);
    expect((await call('GET', `/v1/billing/subscriptions/${id}`)).body.status).toBe('CANCELLED');
  });
});
