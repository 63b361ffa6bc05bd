// PayPal subscriptions (issue 10 item 4; docs/decisions.md "PayPal checkout"). A recurring product
// needs a PayPal catalog product and a plan at its price; the SDK has no catalog API, so catalog
// products and plans go through PayPal's REST API (paypal-client.ts `rest`). The plan at the product's
// own price is kept on the product (paypal_plan_id, checked against the price before each use); a
// discount gets a plan of its own for that purchase: a first-invoice-only discount is a one-cycle TRIAL
// at the discounted price, any other discount prices the regular cycle. A free trial is a free TRIAL
// cycle first. Every POST carries a PayPal-Request-Id derived from our ids, so a retry makes nothing twice.
// The subscription starts APPROVAL_PENDING; the buyer approves it in PayPal's window and the
// BILLING.SUBSCRIPTION.ACTIVATED / PAYMENT.SALE.COMPLETED webhooks activate the purchase (webhook.ts).
import type { PayPalSubscriptionRequest, PayPalSubscriptionResponse } from '@pluma/common/paypal';
import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { products, purchases } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import type { EffectsLog } from '../purchase-lifecycle';
import type { ProductRow } from '../products';
import { payPalIssue, payPalProviderError, requirePayPal, type PayPal } from './paypal-client';
import { createPendingPurchase } from './pending-purchase';

const UNITS = { day: 'DAY', week: 'WEEK', month: 'MONTH', year: 'YEAR' } as const;
/** PayPal's largest interval_count per unit. */
const MAX_COUNT = { DAY: 365, WEEK: 52, MONTH: 12, YEAR: 1 } as const;

interface Cycle {
  frequency: { interval_unit: string; interval_count: number };
  tenure_type: 'TRIAL' | 'REGULAR';
  sequence: number;
  total_cycles: number;
  pricing_scheme?: { fixed_price: { currency_code: 'USD'; value: string } };
}

interface PlanShape {
  id?: string;
  status?: string;
  product_id?: string;
  billing_cycles?: Cycle[];
}

const money = (cents: number) => (cents / 100).toFixed(2);

/** The plan's billing cycles: optional free trial, optional discounted first cycle, then the regular price. */
export function planCycles(product: ProductRow, input: { baseCents: number; chargeCents: number; trialDays: number | null; firstInvoiceOnly: boolean }): Cycle[] {
  const unit = UNITS[(product.subscriptionPeriod ?? 'month') as keyof typeof UNITS] ?? 'MONTH';
  const count = Math.min(Math.max(1, product.subscriptionInterval ?? 1), MAX_COUNT[unit]);
  const frequency = { interval_unit: unit, interval_count: count };
  const cycles: Cycle[] = [];
  if (input.trialDays) {
    cycles.push({ frequency: { interval_unit: 'DAY', interval_count: Math.min(input.trialDays, 365) }, tenure_type: 'TRIAL', sequence: 1, total_cycles: 1 });
  }
  const discounted = input.chargeCents < input.baseCents;
  if (discounted && input.firstInvoiceOnly) {
    cycles.push({ frequency, tenure_type: 'TRIAL', sequence: cycles.length + 1, total_cycles: 1, pricing_scheme: { fixed_price: { currency_code: 'USD', value: money(input.chargeCents) } } });
  }
  const regular = discounted && !input.firstInvoiceOnly ? input.chargeCents : input.baseCents;
  cycles.push({ frequency, tenure_type: 'REGULAR', sequence: cycles.length + 1, total_cycles: 0, pricing_scheme: { fixed_price: { currency_code: 'USD', value: money(regular) } } });
  return cycles;
}

/** Whether a plan PayPal has is still the one these cycles describe (and can take subscriptions). */
function planMatches(plan: PlanShape | null, cycles: Cycle[]): boolean {
  if (!plan || plan.status !== 'ACTIVE' || plan.billing_cycles?.length !== cycles.length) return false;
  return cycles.every((want, i) => {
    const have = plan.billing_cycles![i];
    return (
      have.tenure_type === want.tenure_type &&
      have.frequency?.interval_unit === want.frequency.interval_unit &&
      have.frequency?.interval_count === want.frequency.interval_count &&
      (have.total_cycles ?? 0) === want.total_cycles &&
      Number(have.pricing_scheme?.fixed_price?.value ?? 0) === Number(want.pricing_scheme?.fixed_price.value ?? 0)
    );
  });
}

/** The product's PayPal catalog product: the one kept on the product, or a new one (saved when none was). */
async function ensureCatalogProduct(ctx: AppContext, paypal: PayPal, product: ProductRow): Promise<string> {
  if (product.paypalProductId) return product.paypalProductId;
  const created = await paypal.rest<{ id: string }>(
    'POST',
    '/v1/catalogs/products',
    { name: product.name.slice(0, 127), type: 'DIGITAL', category: 'SOFTWARE', description: (product.shortDescription || product.name).slice(0, 256) },
    { 'PayPal-Request-Id': `pluma-product-${product.productId}` },
  );
  await ctx.db.update(products).set({ paypalProductId: created.id }).where(and(eq(products.productId, product.productId), isNull(products.paypalProductId)));
  return created.id;
}

async function createPlan(paypal: PayPal, catalogId: string, product: ProductRow, cycles: Cycle[], requestId: string): Promise<string> {
  const plan = await paypal.rest<PlanShape>(
    'POST',
    '/v1/billing/plans',
    {
      product_id: catalogId,
      name: product.name.slice(0, 127),
      status: 'ACTIVE',
      billing_cycles: cycles,
      payment_preferences: { auto_bill_outstanding: true, payment_failure_threshold: 3 },
    },
    { 'PayPal-Request-Id': requestId, Prefer: 'return=representation' },
  );
  if (!plan.id) throw new Error('PayPal returned a plan without an id');
  return plan.id;
}

/**
 * The plan for this purchase: the product's own plan when the price is the product's (created and saved
 * on the product the first time, or again when the price changed), else one for this purchase alone.
 */
async function ensurePlan(ctx: AppContext, paypal: PayPal, product: ProductRow, purchaseId: number, cycles: Cycle[], own: boolean): Promise<string> {
  if (own && product.paypalPlanId) {
    const linked = await paypal.rest<PlanShape>('GET', `/v1/billing/plans/${encodeURIComponent(product.paypalPlanId)}`).catch(() => null);
    if (planMatches(linked, cycles)) return product.paypalPlanId;
  }
  const catalogId = await ensureCatalogProduct(ctx, paypal, product);
  const price = cycles.map((c) => `${c.tenure_type[0]}${c.frequency.interval_unit[0]}${c.frequency.interval_count}-${c.pricing_scheme?.fixed_price.value ?? 0}`).join('_');
  const planId = await createPlan(paypal, catalogId, product, cycles, own ? `pluma-plan-${product.productId}-${catalogId}-${price}` : `pluma-purchase-${purchaseId}-plan`);
  if (own) await ctx.db.update(products).set({ paypalPlanId: planId }).where(eq(products.productId, product.productId));
  return planId;
}

export async function createPayPalSubscription(options: { ctx: AppContext; actor: Actor; input: PayPalSubscriptionRequest; log: EffectsLog }): Promise<PayPalSubscriptionResponse> {
  const { ctx, actor, input, log } = options;
  const paypal = await requirePayPal(ctx);
  const { purchase, product, discount, baseCents, chargeCents, trialDays } = await createPendingPurchase(ctx, actor, input, 'subscription', log);
  const cycles = planCycles(product, { baseCents, chargeCents, trialDays, firstInvoiceOnly: discount?.firstInvoiceOnly ?? false });
  const own = chargeCents === baseCents;
  try {
    const planId = await ensurePlan(ctx, paypal, product, purchase.purchaseId, cycles, own);
    const { result: subscription } = await paypal.subscriptions.createSubscription({
      paypalRequestId: `pluma-purchase-${purchase.purchaseId}-subscription`,
      body: {
        planId,
        customId: String(purchase.purchaseId),
        subscriber: { emailAddress: actor.user.email, name: { givenName: actor.user.name.slice(0, 140), surname: (actor.user.lastName ?? '').slice(0, 140) || undefined } },
      },
    });
    if (!subscription.id) throw new Error('PayPal returned a subscription without an id');
    await ctx.db.update(purchases).set({ subscriptionId: subscription.id, updatedAt: new Date() }).where(eq(purchases.purchaseId, purchase.purchaseId));
    return { subscription_id: subscription.id, plan_id: planId, purchase_id: purchase.purchaseId, total_payment: trialDays ? 0 : chargeCents / 100 };
  } catch (err) {
    await ctx.db.delete(purchases).where(and(eq(purchases.purchaseId, purchase.purchaseId), eq(purchases.status, 'pending'), isNull(purchases.subscriptionId)));
    log.warn({ err, purchase_id: purchase.purchaseId }, 'paypal subscription failed');
    throw payPalProviderError(err);
  }
}

/**
 * Cancels a PayPal subscription (the billing work calls it when a customer cancels or switches plans).
 * PayPal ends it at once; the purchase keeps access to the paid period's end (expiration_days). A
 * subscription PayPal has already ended is fine: nothing is left to cancel.
 */
export async function cancelPayPalSubscription(ctx: AppContext, subscriptionId: string, reason = 'Cancelled by the customer'): Promise<void> {
  const paypal = await requirePayPal(ctx);
  try {
    await paypal.subscriptions.cancelSubscription({ id: subscriptionId, body: { reason: reason.slice(0, 128) } });
  } catch (err) {
    const issue = payPalIssue(err);
    if (issue?.issue === 'SUBSCRIPTION_STATUS_INVALID') return;
    throw payPalProviderError(err);
  }
}
