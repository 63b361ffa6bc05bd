// GET /api/products/available (spec part 1 §7): the pricing list, public.
import { availableProductsResponse } from '@pluma/common/products';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { products } from '../../db/schema';

export async function productRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/products/available', { schema: { tags: ['products'], response: { 200: availableProductsResponse } } }, async () => {
    const rows = await app.ctx.db
      .select()
      .from(products)
      .where(and(eq(products.available, true), isNull(products.organizationId)))
      .orderBy(asc(products.price), asc(products.productId))
      .limit(100);
    return rows.map((p) => ({
      product_id: p.productId,
      name: p.name,
      description: p.description,
      short_description: p.shortDescription,
      price: p.price,
      sale_price: p.salePrice,
      word_amount: p.wordAmount,
      is_subscription: p.isSubscription,
      subscription_period: p.subscriptionPeriod,
      subscription_interval: p.subscriptionInterval,
      expiration_days: p.expirationDays,
      free_trial_length: p.freeTrialLength,
      image: p.image,
    }));
  });
}
