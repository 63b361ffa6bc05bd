// Subscriptions through the official SDK: the default_incomplete checkout (confirm the first
// invoice's PaymentIntent), trials with a pending SetupIntent, coupons, renewals and failures driven
// by the control API, cancellation.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStripeEmulator } from './server';
import { customerWithCard, monthlyPrice, startWithClient } from './test-kit';

let emulator: RunningStripeEmulator;
let stripe: Stripe;

beforeAll(async () => {
  ({ emulator, stripe } = await startWithClient());
});
afterAll(() => emulator.close());

const invoiceOf = (sub: Stripe.Subscription) => sub.latest_invoice as Stripe.Invoice;
const eventsFor = (subId: string, type: string) =>
  emulator.core.ctx.store
    .all<{ id: string; object: string; type: string; data: { object: Record<string, unknown> } } & { created: number; livemode: false }>('event', (e) => e.type === type)
    .filter((e) => e.data.object.id === subId || (e.data.object.parent as { subscription_details?: { subscription?: string } } | null)?.subscription_details?.subscription === subId);

describe('subscriptions', () => {
  it('starts incomplete with default_incomplete and becomes active when the invoice is paid', async () => {
    const price = await monthlyPrice(stripe, 2500);
    const customer = await stripe.customers.create({ email: 'sub@example.com' });
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      metadata: { purchase_id: '12' },
      expand: ['latest_invoice.confirmation_secret', 'latest_invoice.payments.data.payment.payment_intent'],
    });
    expect(sub.id).toMatch(/^sub_/);
    expect(sub).toMatchObject({ object: 'subscription', status: 'incomplete', metadata: { purchase_id: '12' }, livemode: false });
    const invoice = invoiceOf(sub);
    expect(invoice).toMatchObject({ object: 'invoice', status: 'open', amount_due: 2500, amount_paid: 0, billing_reason: 'subscription_create' });
    expect(invoice.parent?.subscription_details?.subscription).toBe(sub.id);
    const secret = invoice.confirmation_secret!.client_secret;
    const pi = invoice.payments!.data[0].payment.payment_intent as Stripe.PaymentIntent;
    expect(secret).toBe(pi.client_secret);
    expect(pi.amount).toBe(2500);
    expect(sub.items.data[0].current_period_end).toBeGreaterThan(sub.items.data[0].current_period_start);

    await stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' });
    const after = await stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] });
    expect(after.status).toBe('active');
    expect(invoiceOf(after)).toMatchObject({ status: 'paid', amount_paid: 2500, amount_remaining: 0 });
    expect(invoiceOf(after).confirmation_secret).toBeUndefined();
    expect(after.default_payment_method).toMatch(/^pm_/);
    expect(eventsFor(sub.id, 'customer.subscription.updated').some((e) => e.data.object.status === 'active')).toBe(true);
    const invoices = await stripe.invoices.list({ subscription: sub.id });
    expect(invoices.data).toHaveLength(1);
  });

  it('charges a saved card at once with the default payment_behavior', async () => {
    const price = await monthlyPrice(stripe);
    const { customer } = await customerWithCard(stripe);
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], expand: ['latest_invoice'] });
    expect(sub.status).toBe('active');
    expect(invoiceOf(sub).status).toBe('paid');
  });

  it('runs a trial with a pending SetupIntent (3-D Secure), then bills after the trial and renews', async () => {
    const price = await monthlyPrice(stripe, 1200);
    const customer = await stripe.customers.create({});
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      trial_period_days: 7,
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      trial_settings: { end_behavior: { missing_payment_method: 'cancel' } },
      expand: ['pending_setup_intent', 'latest_invoice'],
    });
    expect(sub.status).toBe('trialing');
    expect(sub.trial_end! - sub.trial_start!).toBe(7 * 86400);
    expect(invoiceOf(sub)).toMatchObject({ status: 'paid', amount_due: 0, amount_paid: 0 });
    const si = sub.pending_setup_intent as Stripe.SetupIntent;
    expect(si.client_secret).toMatch(/^seti_.+_secret_/);

    const confirmed = await stripe.setupIntents.confirm(si.id, { payment_method: 'pm_card_authenticationRequiredOnSetup' });
    expect(confirmed.status).toBe('requires_action');
    emulator.control.completeThreeDSecure(si.id, 'succeed');
    const ready = await stripe.subscriptions.retrieve(sub.id);
    expect(ready.pending_setup_intent).toBeNull();
    expect(ready.default_payment_method).toBe(confirmed.payment_method);

    emulator.control.advanceSubscription(sub.id); // the trial ends
    const billed = await stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] });
    expect(billed.status).toBe('active');
    expect(invoiceOf(billed)).toMatchObject({ status: 'paid', amount_paid: 1200, billing_reason: 'subscription_cycle' });
    expect(billed.items.data[0].current_period_start).toBe(sub.trial_end);

    emulator.control.advanceSubscription(sub.id); // a renewal, off-session with the set-up card
    const renewed = await stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] });
    expect(renewed.status).toBe('active');
    expect(invoiceOf(renewed).lines.data[0].period.start).toBe(billed.items.data[0].current_period_end);
    expect((await stripe.invoices.list({ subscription: sub.id, status: 'paid' })).data).toHaveLength(3);
    expect(eventsFor(sub.id, 'invoice.paid')).toHaveLength(3);
  });

  it('cancels at trial end without a card when asked to, and sends trial_will_end', async () => {
    const price = await monthlyPrice(stripe);
    const customer = await stripe.customers.create({});
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      trial_end: Math.floor(Date.now() / 1000) + 86400,
      payment_behavior: 'default_incomplete',
      trial_settings: { end_behavior: { missing_payment_method: 'cancel' } },
    });
    expect(eventsFor(sub.id, 'customer.subscription.trial_will_end')).toHaveLength(1);
    emulator.control.endTrial(sub.id);
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('canceled');
    expect(eventsFor(sub.id, 'customer.subscription.deleted')).toHaveLength(1);
  });

  it('applies a once coupon to the first charged invoice only, and a forever one to every invoice', async () => {
    const price = await monthlyPrice(stripe, 2000);
    const { customer } = await customerWithCard(stripe);
    const half = await stripe.coupons.create({ percent_off: 50, duration: 'once' });
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], discounts: [{ coupon: half.id }], expand: ['latest_invoice', 'discounts'] });
    expect(invoiceOf(sub)).toMatchObject({ subtotal: 2000, total: 1000, amount_paid: 1000 });
    expect(invoiceOf(sub).total_discount_amounts).toEqual([expect.objectContaining({ amount: 1000 })]);
    expect(sub.discounts).toEqual([]); // spent by the first invoice
    emulator.control.advanceSubscription(sub.id);
    expect(invoiceOf(await stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] })).amount_paid).toBe(2000);

    const off = await stripe.coupons.create({ amount_off: 500, currency: 'usd', duration: 'forever' });
    const forever = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], discounts: [{ coupon: off.id }], expand: ['discounts'] });
    expect((forever.discounts[0] as Stripe.Discount).source.coupon).toMatchObject({ id: off.id, amount_off: 500 });
    emulator.control.advanceSubscription(forever.id);
    const renewed = await stripe.subscriptions.retrieve(forever.id, { expand: ['latest_invoice'] });
    expect(invoiceOf(renewed).amount_paid).toBe(1500);
    expect((await stripe.coupons.retrieve(off.id)).times_redeemed).toBe(1);
  });

  it('refuses the removed top-level coupon parameter and one-time prices', async () => {
    const price = await monthlyPrice(stripe);
    const customer = await stripe.customers.create({});
    const legacy = stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], coupon: 'X' } as Stripe.SubscriptionCreateParams);
    await expect(legacy).rejects.toMatchObject({ statusCode: 400, param: 'coupon', message: 'Received unknown parameter: coupon' });
    const once = await stripe.prices.create({ product: price.product as string, unit_amount: 100, currency: 'usd' });
    await expect(stripe.subscriptions.create({ customer: customer.id, items: [{ price: once.id }] })).rejects.toMatchObject({ statusCode: 400 });
  });

  it('goes past_due when a renewal fails and active again when the invoice is paid', async () => {
    const price = await monthlyPrice(stripe, 3000);
    const { customer } = await customerWithCard(stripe);
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] });
    emulator.control.advanceSubscription(sub.id, { outcome: 'fail' });
    const failed = await stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice.payments.data.payment.payment_intent'] });
    expect(failed.status).toBe('past_due');
    const invoice = invoiceOf(failed);
    expect(invoice).toMatchObject({ status: 'open', attempt_count: 1, attempted: true });
    expect((invoice.payments!.data[0].payment.payment_intent as Stripe.PaymentIntent).last_payment_error?.code).toBe('card_declined');
    expect(eventsFor(sub.id, 'invoice.payment_failed')).toHaveLength(1);

    const paid = await stripe.invoices.pay(invoice.id, { payment_method: (await stripe.paymentMethods.list({ customer: customer.id })).data[0].id });
    expect(paid.status).toBe('paid');
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
  });

  it('cancels at period end, or at once with DELETE', async () => {
    const price = await monthlyPrice(stripe);
    const { customer } = await customerWithCard(stripe);
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] });
    const scheduled = await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true, cancellation_details: { comment: 'Too expensive for me' } });
    expect(scheduled).toMatchObject({ status: 'active', cancel_at_period_end: true, cancel_at: sub.items.data[0].current_period_end });
    expect(scheduled.cancellation_details?.comment).toBe('Too expensive for me');
    emulator.control.advanceSubscription(sub.id);
    const ended = await stripe.subscriptions.retrieve(sub.id);
    expect(ended.status).toBe('canceled');
    expect(ended.ended_at).toBe(sub.items.data[0].current_period_end);

    const other = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] });
    const canceled = await stripe.subscriptions.cancel(other.id);
    expect(canceled.status).toBe('canceled');
    const live = await stripe.subscriptions.list({ customer: customer.id });
    expect(live.data.map((s) => s.id)).not.toContain(other.id);
    const all = await stripe.subscriptions.list({ customer: customer.id, status: 'all' });
    expect(all.data.map((s) => s.id)).toContain(other.id);
  });

  it('expires an incomplete subscription and ends a trial with trial_end=now', async () => {
    const price = await monthlyPrice(stripe);
    const { customer } = await customerWithCard(stripe);
    const incomplete = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], payment_behavior: 'default_incomplete' });
    emulator.control.advanceSubscription(incomplete.id);
    expect((await stripe.subscriptions.retrieve(incomplete.id)).status).toBe('incomplete_expired');

    const trial = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], trial_period_days: 14 });
    const ended = await stripe.subscriptions.update(trial.id, { trial_end: 'now', expand: ['latest_invoice'] });
    expect(ended.status).toBe('active');
    expect(invoiceOf(ended).amount_paid).toBe(2000);
  });
});
