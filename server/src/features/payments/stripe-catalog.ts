// The Stripe catalog for the product form (spec part 1 §2 "a Stripe section (loads the provider's products,
// then prices)", §7 GET /stripe/products, GET /stripe/prices/{stripe_product_id}): staff admins in Personal (the
// operator's account); inside an organization its Admin, from its own account (spec part 2 "Payment provider":
// used from organization product screens).
// Up to 100 of each (auto-paged), newest first as Stripe lists them.
import type { z } from 'zod';
import type { stripePriceRecord, stripeProductRecord } from '@pluma/common/checkout';
import Stripe from 'stripe';
import type { AppContext } from '../../context';
import { notFound } from '../../platform/http/errors';
import { providerError, requireStripe, type StripeScope } from './stripe-client';

const LIMIT = 100;

export async function listStripeProducts(ctx: AppContext, scope: StripeScope = null): Promise<z.infer<typeof stripeProductRecord>[]> {
  const stripe = await requireStripe(ctx, scope);
  try {
    const list = await stripe.products.list({ limit: LIMIT });
    return list.data.map((p) => ({ id: p.id, name: p.name, active: p.active, description: p.description ?? null }));
  } catch (err) {
    throw providerError(err);
  }
}

export async function listStripePrices(ctx: AppContext, stripeProductId: string, scope: StripeScope = null): Promise<z.infer<typeof stripePriceRecord>[]> {
  const stripe = await requireStripe(ctx, scope);
  try {
    const list = await stripe.prices.list({ product: stripeProductId, limit: LIMIT });
    return list.data.map((p) => ({
      id: p.id,
      product: typeof p.product === 'string' ? p.product : p.product.id,
      active: p.active,
      currency: p.currency,
      unit_amount: p.unit_amount ?? null,
      recurring: p.recurring ? { interval: p.recurring.interval, interval_count: p.recurring.interval_count } : null,
      nickname: p.nickname ?? null,
    }));
  } catch (err) {
    if (err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404) throw notFound();
    throw providerError(err);
  }
}
