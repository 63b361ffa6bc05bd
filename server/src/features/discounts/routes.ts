// /api/discounts (spec part 1 §7 GET /discounts/code/{code}; the staff paths follow the spec's
// /invoices/admin and /users/admin/{id}). The lookup is for signed-in customers at checkout (the discount
// box is hidden when signed out, spec part 1 §2) and rate-limited against guessing; managing codes is for
// staff admins and audited. Thin: authenticate → authorize → validate → service → present.
import {
  createDiscountRequest,
  deletedDiscountResponse,
  discountIdParams,
  discountList,
  discountLookup,
  discountLookupParams,
  discountLookupQuery,
  discountRecord,
  listDiscountsQuery,
  updateDiscountRequest,
} from '@pluma/common/discounts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { presentDiscount, presentDiscountLookup } from './present';
import { createDiscount, deleteDiscount, listDiscounts, lookupDiscount, updateDiscount } from './service';

const tags = ['discounts'];
/** Lookups per minute and customer: enough for typos, too few to guess codes. */
export const DISCOUNT_LOOKUPS_PER_MINUTE = 30;

export async function discountRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  app.get(
    '/discounts/code/:code',
    {
      ...signedIn(app, { tags, params: discountLookupParams, querystring: discountLookupQuery, response: { 200: discountLookup } }),
      // Counted per customer, once signed in and the request is valid (preHandler).
      config: {
        rateLimit: {
          max: DISCOUNT_LOOKUPS_PER_MINUTE,
          timeWindow: '1 minute',
          hook: 'preHandler',
          keyGenerator: (request: FastifyRequest) => `discount-lookup:${request.actor?.user.userId ?? request.ip}`,
        },
      },
    },
    async (request) => {
      const { discount, product } = await lookupDiscount({ actor: actorOf(request), db, code: request.params.code, productId: request.query.product_id });
      return presentDiscountLookup(discount, product);
    },
  );

  app.get(
    '/discounts/admin',
    // Staff managers read the list too (Pluma's staff rights, docs/decisions.md); changes stay with admins.
    signedIn(app, { tags, querystring: listDiscountsQuery, response: { 200: discountList } }, { staff: 'manager' }),
    async (request) => {
      const { rows, total } = await listDiscounts({ actor: actorOf(request), db, query: request.query });
      return { discounts: rows.map(presentDiscount), total };
    },
  );

  app.post(
    '/discounts/admin',
    signedIn(app, { tags, body: createDiscountRequest, response: { 201: discountRecord } }, { staff: 'admin' }),
    async (request, reply) => {
      const row = await createDiscount({ actor: actorOf(request), db, input: request.body });
      request.audited = { target: { type: 'discount', id: row.discountId }, details: { code: row.code } };
      return reply.status(201).send(presentDiscount(row));
    },
  );

  app.put(
    '/discounts/admin',
    signedIn(app, { tags, body: updateDiscountRequest, response: { 200: discountRecord } }, { staff: 'admin' }),
    async (request) => {
      const { row, changes } = await updateDiscount({ actor: actorOf(request), db, input: request.body });
      request.audited = { target: { type: 'discount', id: row.discountId }, changes };
      return presentDiscount(row);
    },
  );

  app.delete(
    '/discounts/admin/:id',
    signedIn(app, { tags, params: discountIdParams, response: { 200: deletedDiscountResponse } }, { staff: 'admin' }),
    async (request) => {
      const row = await deleteDiscount({ actor: actorOf(request), db, discountId: request.params.id });
      request.audited = { target: { type: 'discount', id: row.discountId }, details: { code: row.code } };
      return { deleted: true as const };
    },
  );
}
