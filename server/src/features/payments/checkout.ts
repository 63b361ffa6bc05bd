// POST /api/checkout/attempt (spec part 1 §7; docs/decisions.md "Stripe checkout and webhooks"): a pending
// purchase at the price the server computes (sale price, then the discount: rules/discounted-price.ts; the
// client sends no price), created in the transaction that checks the buying limits under the product's
// row lock; then, outside it, the Stripe customer (once per user), and a PaymentIntent (one-time) or a
// Subscription (recurring). Stripe calls carry idempotency keys derived from the purchase id, so a retried
// request never makes two charges. Fulfilment happens later, from Stripe's state (fulfil.ts).
import type { CheckoutAttemptRequest, CheckoutAttemptResponse } from '@pluma/common/checkout';
import { basePriceCents, discountedPriceCents } from '@pluma/common/rules/discounted-price';
import { and, eq, isNull } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { AppContext } from '../../context';
import { paymentCustomers, products, purchases } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError } from '../../platform/http/errors';
import { requireUsableDiscount, type DiscountRow } from '../discounts';
import { assertCanBuy, requireProduct, type ProductRow } from '../products';
import { completeFreePurchase, openAttempt, runEffects, type EffectsLog, type PurchaseRow } from '../purchase-lifecycle';
import { applyPaymentIntent } from './fulfil';
import { providerError, requireStripe, scopeOfProduct, type StripeScope } from './stripe-client';

const DAY_S = 86_400;

/** The trial Stripe is asked for: days (free_trial_length) or an end date still in the future. */
function trialOf(product: ProductRow, now: number): { trial_period_days?: number; trial_end?: number; days: number | null } {
  if (product.freeTrialPeriod === 'date' && product.freeTrialEnd) {
    const end = Math.floor(Date.parse(`${product.freeTrialEnd}T00:00:00Z`) / 1000);
    if (Number.isFinite(end) && end > now / 1000 + 3600) return { trial_end: end, days: Math.ceil((end - now / 1000) / DAY_S) };
    return { days: null };
  }
  if (product.freeTrialLength && product.freeTrialLength > 0) return { trial_period_days: product.freeTrialLength, days: product.freeTrialLength };
  return { days: null };
}

/**
 * The user's Stripe customer in an organization's Stripe account (spec part 2 §3: an organization sells with
 * its own keys, so its customers live in its account): found by email and the metadata we set, else created.
 * payment_customers keeps the operator's account's customers only (one per user and provider), so these are
 * looked up at Stripe; a rare duplicate from two first checkouts at once is harmless (each is the user's).
 */
async function organizationCustomer(stripe: Stripe, user: Actor['user'], organizationId: number, create: boolean): Promise<string | null> {
  const mine = (c: Stripe.Customer) => c.metadata?.user_id === String(user.userId) && c.metadata?.organization_id === String(organizationId);
  const list = await stripe.customers.list({ email: user.email, limit: 100 });
  const found = list.data.find(mine);
  if (found || !create) return found?.id ?? null;
  const customer = await stripe.customers.create(
    { email: user.email, name: [user.name, user.lastName].filter(Boolean).join(' '), metadata: { user_id: String(user.userId), organization_id: String(organizationId) } },
    { idempotencyKey: `pluma-customer-${user.userId}-organization-${organizationId}` },
  );
  return customer.id;
}

/** The user's Stripe customer of `scope`: in the operator's account created once (idempotency key per user) and kept in payment_customers. */
export async function ensureCustomer(ctx: AppContext, stripe: Stripe, user: Actor['user'], scope: StripeScope = null): Promise<string> {
  if (scope !== null) return (await organizationCustomer(stripe, user, scope, true))!;
  const where = and(eq(paymentCustomers.userId, user.userId), eq(paymentCustomers.provider, 'stripe'));
  const [known] = await ctx.db.select({ customerId: paymentCustomers.customerId }).from(paymentCustomers).where(where).limit(1);
  if (known) return known.customerId;
  const customer = await stripe.customers.create(
    { email: user.email, name: [user.name, user.lastName].filter(Boolean).join(' '), metadata: { user_id: String(user.userId) } },
    { idempotencyKey: `pluma-customer-${user.userId}` },
  );
  await ctx.db.insert(paymentCustomers).values({ userId: user.userId, provider: 'stripe', customerId: customer.id }).onConflictDoNothing();
  const [saved] = await ctx.db.select({ customerId: paymentCustomers.customerId }).from(paymentCustomers).where(where).limit(1);
  return saved?.customerId ?? customer.id;
}

/** The user's customer in an organization's Stripe account, if they have one (saved cards there), without creating it. */
export const knownOrganizationCustomer = (stripe: Stripe, user: Actor['user'], organizationId: number) => organizationCustomer(stripe, user, organizationId, false);

/**
 * The Stripe price of a recurring product at `baseCents`: the product's stripe_price_id when it matches
 * (amount, USD, period and interval), else a price created at Stripe (and the Stripe product, when the
 * product has none), saved on the product when it had no price linked. The page's price is what is charged.
 */
export async function ensurePrice(ctx: AppContext, stripe: Stripe, product: ProductRow, baseCents: number): Promise<string> {
  const interval = (product.subscriptionPeriod ?? 'month') as Stripe.PriceCreateParams.Recurring.Interval;
  const count = product.subscriptionInterval ?? 1;
  if (product.stripePriceId) {
    const linked = await stripe.prices.retrieve(product.stripePriceId).catch(() => null);
    if (
      linked?.active &&
      linked.currency === 'usd' &&
      linked.unit_amount === baseCents &&
      linked.recurring?.interval === interval &&
      linked.recurring.interval_count === count
    ) {
      return linked.id;
    }
  }
  let stripeProductId = product.stripeProductId;
  if (!stripeProductId) {
    const created = await stripe.products.create({ name: product.name, metadata: { product_id: String(product.productId) } }, { idempotencyKey: `pluma-product-${product.productId}` });
    stripeProductId = created.id;
  }
  const price = await stripe.prices.create(
    { product: stripeProductId, unit_amount: baseCents, currency: 'usd', recurring: { interval, interval_count: count }, metadata: { product_id: String(product.productId) } },
    { idempotencyKey: `pluma-price-${product.productId}-${stripeProductId}-${baseCents}-${interval}-${count}` },
  );
  if (!product.stripePriceId) {
    await ctx.db
      .update(products)
      .set({ stripeProductId, stripePriceId: price.id })
      .where(and(eq(products.productId, product.productId), isNull(products.stripePriceId)));
  }
  return price.id;
}

/** What a checkout charges, decided on the server (the client sends no price). */
export interface PricedCheckout {
  product: ProductRow;
  discount: DiscountRow | null;
  /** The product's Stripe account: its organization's for an organization's product (stripe-client.ts). */
  stripe: Stripe;
  scope: StripeScope;
  baseCents: number;
  chargeCents: number;
  trial: ReturnType<typeof trialOf>;
}

/** The product the caller may buy, its usable discount and the price: sale price, then the discount. */
export async function priceCheckout(ctx: AppContext, actor: Actor, input: { product_id: number; discountCode?: string }): Promise<PricedCheckout> {
  const product = await requireProduct(ctx.db, actor, input.product_id, 'buy');
  const code = input.discountCode?.trim();
  const discount: DiscountRow | null = code ? await requireUsableDiscount({ db: ctx.db, code, product }) : null;
  // An organization's product is paid into its organization's account, with its keys only.
  const scope = scopeOfProduct(product);
  const stripe = await requireStripe(ctx, scope);
  const terms = { price: product.price, sale_price: product.salePrice };
  const baseCents = basePriceCents(terms);
  const chargeCents = discountedPriceCents(terms, discount ? { is_percent: discount.isPercent, amount: discount.amount } : null);
  const trial = product.isSubscription ? trialOf(product, Date.now()) : { days: null };
  return { product, discount, stripe, scope, baseCents, chargeCents, trial };
}

/**
 * The attempt's pending purchase, in the transaction that checks the buying limits under the product's row
 * lock: the customer's open attempt on the same terms when there is one (purchase-lifecycle/attempt.ts), so
 * a retried or repeated Pay reuses its PaymentIntent or subscription (same idempotency keys below). A second
 * subscription is allowed: it switches plans once paid (purchase-lifecycle/plan-switch.ts).
 */
export async function insertPendingPurchase(ctx: AppContext, actor: Actor, priced: PricedCheckout, log: EffectsLog, options: { reuse?: boolean } = {}): Promise<PurchaseRow> {
  const { product, discount, baseCents, chargeCents, trial } = priced;
  const attempt = await ctx.db.transaction(async (tx) => {
    await assertCanBuy({ db: tx, actor, product });
    return openAttempt(tx, actor, { product, discountCode: discount?.code ?? null, baseCents, chargeCents, trialDays: trial.days, method: 'card' }, options);
  });
  await runEffects(ctx, log, attempt.effects);
  return attempt.purchase;
}

export const metadataOf = (purchase: PurchaseRow, actor: Actor) => ({
  purchase_id: String(purchase.purchaseId),
  user_id: String(actor.user.userId),
  product_id: String(purchase.productId),
  ...(purchase.organizationId !== null ? { organization_id: String(purchase.organizationId) } : {}),
});
export const keyFor = (purchase: PurchaseRow) => (what: string) => `pluma-purchase-${purchase.purchaseId}-${what}`;

/** A one-time purchase with nothing to pay (a 100 % discount) completes at once, without Stripe. */
export async function completeFree(ctx: AppContext, log: EffectsLog, purchase: PurchaseRow): Promise<CheckoutAttemptResponse> {
  const effects = await ctx.db.transaction((tx) => completeFreePurchase(tx, purchase.purchaseId));
  await runEffects(ctx, log, effects);
  return { purchase_id: purchase.purchaseId, kind: 'none', clientSecret: null, total_payment: 0 };
}

/** A Stripe coupon for the discount's part of a subscription price (first invoice only, or forever). */
export async function couponFor(stripe: Stripe, priced: PricedCheckout, purchase: PurchaseRow, metadata: Record<string, string>): Promise<string | null> {
  const { discount, baseCents, chargeCents } = priced;
  if (!(chargeCents < baseCents && discount)) return null;
  const created = await stripe.coupons.create(
    { amount_off: baseCents - chargeCents, currency: 'usd', duration: discount.firstInvoiceOnly ? 'once' : 'forever', name: discount.code.slice(0, 40), max_redemptions: 1, metadata },
    { idempotencyKey: keyFor(purchase)('coupon') },
  );
  return created.id;
}

/** The subscription's trial parameters for Stripe. */
export function trialParams(trial: PricedCheckout['trial']) {
  return {
    ...(trial.trial_period_days ? { trial_period_days: trial.trial_period_days } : {}),
    ...(trial.trial_end ? { trial_end: trial.trial_end } : {}),
    // A trial without a card on file ends the subscription instead of billing nobody.
    ...(trial.days ? { trial_settings: { end_behavior: { missing_payment_method: 'cancel' as const } } } : {}),
  };
}

/** Nothing was charged: the pending purchase goes, so a retry starts clean (and counts nothing). */
export async function dropPendingPurchase(ctx: AppContext, purchaseId: number): Promise<void> {
  await ctx.db.delete(purchases).where(and(eq(purchases.purchaseId, purchaseId), eq(purchases.status, 'pending')));
}

export async function attemptCheckout(options: { ctx: AppContext; actor: Actor; input: CheckoutAttemptRequest; log: EffectsLog; afterDecline?: boolean }): Promise<CheckoutAttemptResponse> {
  const { ctx, actor, input, log } = options;
  const priced = await priceCheckout(ctx, actor, input);
  const { product, stripe, scope, baseCents, chargeCents, trial } = priced;
  const purchase = await insertPendingPurchase(ctx, actor, priced, log);
  const metadata = metadataOf(purchase, actor);
  const key = keyFor(purchase);

  if (!product.isSubscription && chargeCents === 0) return completeFree(ctx, log, purchase);

  try {
    const customer = await ensureCustomer(ctx, stripe, actor.user, scope);
    if (!product.isSubscription) {
      const intent = await stripe.paymentIntents.create(
        // No setup_future_usage: the card is kept only when the buyer ticks the Payment Element's save box,
        // which sets it at confirmation (customer-session.ts, payment_method_save_usage off_session).
        { amount: chargeCents, currency: 'usd', customer, description: product.name, metadata, automatic_payment_methods: { enabled: true } },
        { idempotencyKey: key('intent') },
      );
      // A reused attempt whose card was declined (Stripe keeps the decline on the intent, and its webhook may
      // not have come yet): the attempt fails with the decline code and a fresh one is made, so the customer's
      // billing keeps the failed payment apart from the one that goes through (issue 28 item 2).
      if (purchase.paymentProcessorId === intent.id && !options.afterDecline) {
        const current = await stripe.paymentIntents.retrieve(intent.id);
        if (current.status === 'requires_payment_method' && current.last_payment_error) {
          await runEffects(ctx, log, await ctx.db.transaction((tx) => applyPaymentIntent(tx, current, scope)));
          return attemptCheckout({ ...options, afterDecline: true });
        }
      }
      await ctx.db.update(purchases).set({ paymentProcessorId: intent.id, updatedAt: new Date() }).where(eq(purchases.purchaseId, purchase.purchaseId));
      return { purchase_id: purchase.purchaseId, kind: 'payment', clientSecret: intent.client_secret, total_payment: chargeCents / 100 };
    }

    const price = await ensurePrice(ctx, stripe, product, baseCents);
    const coupon = await couponFor(stripe, priced, purchase, metadata);
    const subscription = await stripe.subscriptions.create(
      {
        customer,
        items: [{ price }],
        payment_behavior: 'default_incomplete',
        payment_settings: { save_default_payment_method: 'on_subscription' },
        metadata,
        ...trialParams(trial),
        ...(coupon ? { discounts: [{ coupon }] } : {}),
        expand: ['latest_invoice.confirmation_secret', 'pending_setup_intent'],
      },
      { idempotencyKey: key('subscription') },
    );
    await ctx.db.update(purchases).set({ subscriptionId: subscription.id, updatedAt: new Date() }).where(eq(purchases.purchaseId, purchase.purchaseId));
    const setup = typeof subscription.pending_setup_intent === 'object' ? subscription.pending_setup_intent : null;
    const invoice = typeof subscription.latest_invoice === 'object' ? subscription.latest_invoice : null;
    const total = trial.days ? 0 : chargeCents / 100;
    if (setup?.client_secret) return { purchase_id: purchase.purchaseId, kind: 'setup', clientSecret: setup.client_secret, total_payment: total };
    const secret = invoice?.confirmation_secret?.client_secret ?? null;
    if (secret && invoice?.status !== 'paid') return { purchase_id: purchase.purchaseId, kind: 'payment', clientSecret: secret, total_payment: total };
    // Nothing to confirm (a card on file, or nothing due): the webhook or the sweep activates it.
    return { purchase_id: purchase.purchaseId, kind: 'none', clientSecret: null, total_payment: total };
  } catch (err) {
    // Nothing was charged: the pending purchase goes, so a retry starts clean (and counts nothing).
    await ctx.db.delete(purchases).where(and(eq(purchases.purchaseId, purchase.purchaseId), eq(purchases.status, 'pending'), isNull(purchases.subscriptionId)));
    if (err instanceof AppError) throw err;
    log.warn({ err, purchase_id: purchase.purchaseId }, 'stripe checkout failed');
    throw providerError(err);
  }
}
