// GET /api/purchases, GET /api/purchases/{id}, GET /api/invoices/ (spec part 1 §7) and the /billing page's
// POST /api/purchases/cancel/{id} and GET /api/invoices/{id}/pdf: the signed-in customer's own, in the
// request's context; another user's purchase or invoice is a 404.
import { cancelPurchaseRequest, ownInvoiceRecord, ownListQuery, ownPurchaseRecord, purchaseIdParams } from '@pluma/common/checkout';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditRequest } from '../../platform/http/audit';
import { contentDisposition } from '../../platform/http/content-disposition';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { requestLang } from '../../platform/http/lang';
import { cancelOwnSubscription } from './cancel-service';
import { startAccessExpiryWatch } from './expiry-watch';
import { presentOwnInvoice, presentOwnPurchase } from './own-present';
import { getOwnPurchase, listOwnInvoices, listOwnPurchases } from './own-service';
import { ownReceiptPdf } from './receipt-service';

const tags = ['purchases'];

export async function ownPurchaseRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  // Access that ends without a visit is announced at once (expiry-watch.ts).
  const stopExpiryWatch = startAccessExpiryWatch(app.ctx, app.log);
  app.addHook('preClose', async () => stopExpiryWatch());

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

  // spec part 1 §4, §9: a reason of at least 10 characters; the subscription ends at the period's end.
  app.post(
    '/purchases/cancel/:id',
    signedIn(app, { tags, params: purchaseIdParams, body: cancelPurchaseRequest, response: { 200: ownPurchaseRecord } }),
    async (request) => {
      const { before, after, productName } = await cancelOwnSubscription({
        ctx: app.ctx,
        actor: actorOf(request),
        purchaseId: request.params.id,
        reason: request.body.cancel_reason,
      });
      // Audited like the staff writes: who cancelled which purchase, and the status it had.
      request.audited = { target: { type: 'purchase', id: after.purchaseId }, changes: { status: { from: before.status, to: after.status } } };
      await auditRequest(db, request).catch((err: unknown) => request.log.error({ err }, 'audit write failed'));
      return presentOwnPurchase(after, productName);
    },
  );

  app.get('/invoices/:id/pdf', signedIn(app, { tags: ['invoices'], params: purchaseIdParams }), async (request, reply) => {
    const bytes = await ownReceiptPdf({ ctx: app.ctx, actor: actorOf(request), invoiceId: request.params.id, lang: requestLang(request) });
    return reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', contentDisposition('attachment', `invoice-${request.params.id}.pdf`))
      .header('Cache-Control', 'private, no-store')
      .send(bytes);
  });
}
