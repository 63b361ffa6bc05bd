// GET /api/products/available (spec part 1 §7): the pricing list, public.
import { availableProductsResponse } from '@pluma/common/products';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { presentAvailableProduct } from './present';
import { listAvailableProducts } from './service';

export async function productRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/products/available', { schema: { tags: ['products'], response: { 200: availableProductsResponse } } }, async () =>
    (await listAvailableProducts({ db: app.ctx.db })).map(presentAvailableProduct),
  );
}
