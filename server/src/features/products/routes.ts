// /api/products (spec part 1 §7). GET /products/available (the pricing list) and GET /products/{id} are
// public: a visitor who is not signed in sees the operator's products. GET /products, POST /products and
// PUT /products manage the products of the request's context: staff admins the operator's (Personal), an
// organization's Admin its own; anyone else signed in gets 403, and every change is audited.
// Thin: authenticate → authorize → validate → service (scoped by policy.ts visibleTo) → present with abilities.
import {
  availableProductsResponse,
  createProductRequest,
  managedProduct,
  productIdParams,
  productList,
  productResponse,
  productsQuery,
  listProductsQuery,
  updateProductRequest,
} from '@pluma/common/products';
import type { FastifyInstance, FastifyRequest, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, bearerToken, signedIn, type Gate } from '../../platform/auth/guard';
import { requestedOrganizationId } from '../../platform/auth/organization';
import { catalogRules } from './policy';
import { presentManagedProduct, presentProduct, presentProductFor } from './present';
import { createProduct, getProduct, listAvailableProducts, listProducts, updateProduct } from './service';

/**
 * Only those who manage this context's products (policy.ts catalogRules), before the body is read, so that
 * anyone else gets 403 whatever they send; their changes are audited. The services authorize again.
 */
const productManagers: Gate = async (request) => {
  catalogRules.authorize(actorOf(request), 'manage', null);
  request.staffAudit = true;
};

/** The list is also read by staff managers (policy.ts catalogRules 'list'); a read is not audited. */
const productListReaders: Gate = async (request) => {
  catalogRules.authorize(actorOf(request), 'list', null);
};

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
    { preValidation: [viewer], schema: { tags, security, params: productIdParams, querystring: productsQuery, response: { 200: productResponse } } },
    async (request) => {
      const actor = request.actor;
      return presentProductFor(actor, await getProduct({ actor, db, productId: request.params.id }));
    },
  );

  app.get(
    '/products',
    signedIn(app, { tags, querystring: listProductsQuery, response: { 200: productList } }, { gates: [productListReaders] }),
    async (request) => {
      const actor = actorOf(request);
      const { rows, total } = await listProducts({ actor, db, query: request.query });
      return { products: rows.map((row) => presentManagedProduct(actor, row)), total };
    },
  );

  app.post(
    '/products',
    signedIn(app, { tags, body: createProductRequest, response: { 201: managedProduct } }, { gates: [productManagers] }),
    async (request, reply) => {
      const actor = actorOf(request);
      const row = await createProduct({ actor, db, input: request.body });
      request.audited = { target: { type: 'product', id: row.productId }, details: { name: row.name, organization_id: row.organizationId } };
      return reply.status(201).send(presentManagedProduct(actor, row));
    },
  );

  app.put(
    '/products',
    signedIn(app, { tags, body: updateProductRequest, response: { 200: managedProduct } }, { gates: [productManagers] }),
    async (request) => {
      const actor = actorOf(request);
      const { row, changes } = await updateProduct({ actor, db, input: request.body });
      request.audited = { target: { type: 'product', id: row.productId }, changes };
      return presentManagedProduct(actor, row);
    },
  );
}
