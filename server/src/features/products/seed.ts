// A fresh installation offers two sample plans so the pricing page and "give access" work from the start,
// and a demo discount code for the first (discounts/seed.ts: switched on outside production only).
// Only when there are no products at all; staff edit or remove them later.
import { SAMPLE_PRODUCTS } from '@pluma/common/sample-products';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { products } from '../../db/schema';
import { seedDemoDiscount } from '../discounts';

export async function seedProducts(ctx: AppContext) {
  const [{ count }] = await ctx.db.select({ count: sql<number>`count(*)::int` }).from(products);
  if (count > 0) return;
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
  await seedDemoDiscount(ctx.db, { productId: starter.productId, active: ctx.env.NODE_ENV !== 'production' });
}
