// A fresh installation offers two sample plans so the pricing page and "give access" work from the start
// (the demo discount code for the first is discounts/seed.ts seedSampleCatalog's: products never import
// discounts, which import products). Only when there are no products at all; staff edit or remove them later.
import { SAMPLE_PRODUCTS } from '@pluma/common/sample-products';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { products } from '../../db/schema';

/** Seeds the sample plans on an installation without products; returns the Starter plan's id (null: seeded nothing). */
export async function seedProducts(ctx: AppContext): Promise<number | null> {
  const [{ count }] = await ctx.db.select({ count: sql<number>`count(*)::int` }).from(products);
  if (count > 0) return null;
  // Texts from common: the web recognises them and shows them translated (common/src/sample-products.ts).
  const [starter] = await ctx.db
    .insert(products)
    .values([
      {
        ...SAMPLE_PRODUCTS.starter,
        price: 19,
        wordAmount: 50_000,
        expirationDays: 30,
      },
      {
        ...SAMPLE_PRODUCTS.pro,
        price: 49,
        wordAmount: null,
        isSubscription: true,
        subscriptionPeriod: 'month',
        subscriptionInterval: 1,
      },
    ])
    .returning({ productId: products.productId });
  return starter.productId;
}
