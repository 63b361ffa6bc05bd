// GET /api/products/available (the pricing list) and GET /api/products/{id} (spec part 1 §7). Public: a
// visitor who is not signed in sees the operator's products. Thin: authenticate when there is someone to
// authenticate → validate → service (scoped by policy.ts visibleTo) → present with abilities.
import { availableProduct, availableProductsResponse, productIdParams, productsQuery } from '@pluma/common/products';
import type { FastifyInstance, FastifyRequest, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerToken } from '../../platform/auth/guard';
import { requestedOrganizationId } from '../../platform/auth/organization';
import { presentProduct } from './present';
import { getProduct, listAvailableProducts } from './service';

const tags = ['products'];
/** Signing in is optional here. */
const security: Record<string, string[]>[] = [{}, { bearer: [] }];

export async function productRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  /**
   * Before validation, like signedIn: a request with a session, or naming an organization (the web appends
   * organization_id while one is active), is authenticated as on any signed-in route — an organization is
   * resolved to the actor's membership (a non-member gets 404; a visitor naming one, 401). Anyone else is a
   * visitor in Personal.
   */
  const viewer = async (request: FastifyRequest, reply: FastifyReply) => {
    if (bearerToken(request) === null && requestedOrganizationId(request) === null) return;
    await app.authenticate(request, reply);
  };

  app.get(
    '/products/available',
    { preValidation: [viewer], schema: { tags, security, querystring: productsQuery, response: { 200: availableProductsResponse } } },
    async (request) => {
      const actor = request.actor;
      return (await listAvailableProducts({ actor, db })).map((row) => presentProduct(actor, row));
    },
  );

  app.get(
    '/products/:id',
    { preValidation: [viewer], schema: { tags, security, params: productIdParams, querystring: productsQuery, response: { 200: availableProduct } } },
    async (request) => {
      const actor = request.actor;
      return presentProduct(actor, await getProduct({ actor, db, productId: request.params.id }));
    },
  );
}
