// GET /api/purchases, GET /api/purchases/{id} and GET /api/invoices/ (spec part 1 §7): the signed-in
// customer's own, in the request's context; another user's purchase is a 404.
import { ownInvoiceRecord, ownListQuery, ownPurchaseRecord, purchaseIdParams } from '@pluma/common/checkout';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { presentOwnInvoice, presentOwnPurchase } from './own-present';
import { getOwnPurchase, listOwnInvoices, listOwnPurchases } from './own-service';

const tags = ['purchases'];

export async function ownPurchaseRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  app.get('/purchases', signedIn(app, { tags, querystring: ownListQuery, response: { 200: z.array(ownPurchaseRecord) } }), async (request) => {
    const rows = await listOwnPurchases({ db, actor: actorOf(request), paging: request.query });
    return rows.map((r) => presentOwnPurchase(r.purchase, r.productName));
  });

  app.get('/purchases/:id', signedIn(app, { tags, params: purchaseIdParams, response: { 200: ownPurchaseRecord } }), async (request) => {
    const row = await getOwnPurchase({ db, actor: actorOf(request), purchaseId: request.params.id });
    return presentOwnPurchase(row.purchase, row.productName);
  });

  app.get('/invoices/', signedIn(app, { tags: ['invoices'], querystring: ownListQuery, response: { 200: z.array(ownInvoiceRecord) } }), async (request) => {
    const rows = await listOwnInvoices({ db, actor: actorOf(request), paging: request.query });
    return rows.map(presentOwnInvoice);
  });
}
