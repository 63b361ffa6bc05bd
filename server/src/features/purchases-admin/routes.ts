// The back office's purchases and invoices (spec part 1 §7): GET/POST/PUT /purchases/admin,
// GET/POST/PUT /invoices/admin and POST /purchases/test. Staff read (admins and managers); only admins
// change anything (docs/decisions.md "Staff rights"). Every change is audited with its target and a
// status diff (platform/http/audit.ts).
import {
  adminCreateInvoiceRequest,
  adminCreatePurchaseRequest,
  adminInvoicesQuery,
  adminPurchaseRow,
  adminPurchasesPage,
  adminPurchasesQuery,
  adminUpdateInvoiceRequest,
  adminUpdatePurchaseRequest,
  purchaseTestRequest,
  purchaseTestResponse,
} from '@pluma/common/admin-purchases';
import { ADMIN_PURCHASES_PAGE_SIZE } from '@pluma/common/constants';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { notFound } from '../../platform/http/errors';
import { createInvoiceAsAdmin, updateInvoiceAsAdmin } from './invoice-service';
import { getAdminRecord, listAdminRecords, type AdminListFilters } from './list-service';
import { presentAdminRow } from './present';
import { createPurchaseAsAdmin, updatePurchaseAsAdmin } from './purchase-service';
import { sendTestPurchase } from './test-service';

export async function adminPurchaseRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  /** The row as the table shows it, after a change. */
  const shown = async (actor: ReturnType<typeof actorOf>, type: 'purchase' | 'invoice', id: number) => {
    const row = await getAdminRecord({ actor, db, type, id });
    if (!row) throw notFound();
    return row;
  };

  const list = async (filters: AdminListFilters, actor: ReturnType<typeof actorOf>) => {
    const { rows, total, totalCapped, range } = await listAdminRecords({ actor, db, filters });
    return { rows: rows.map((row) => presentAdminRow(actor, row)), total, total_capped: totalCapped, page: filters.page, page_size: ADMIN_PURCHASES_PAGE_SIZE, ...range };
  };

  app.get(
    '/purchases/admin',
    signedIn(app, { tags: ['purchases'], querystring: adminPurchasesQuery, response: { 200: adminPurchasesPage } }, { staff: 'manager' }),
    async (request) => list(request.query, actorOf(request)),
  );

  app.get(
    '/invoices/admin',
    signedIn(app, { tags: ['invoices'], querystring: adminInvoicesQuery, response: { 200: adminPurchasesPage } }, { staff: 'manager' }),
    async (request) => list({ ...request.query, type: 'invoices' }, actorOf(request)),
  );

  app.post(
    '/purchases/admin',
    signedIn(app, { tags: ['purchases'], body: adminCreatePurchaseRequest, response: { 201: adminPurchaseRow } }, { staff: 'admin' }),
    async (request, reply) => {
      const purchase = await createPurchaseAsAdmin({ ctx: app.ctx, actor: actorOf(request), input: request.body });
      request.audited = { target: { type: 'purchase', id: purchase.purchaseId }, changes: { status: { from: null, to: purchase.status } }, details: { user_id: purchase.userId } };
      return reply.status(201).send(presentAdminRow(actorOf(request), await shown(actorOf(request), 'purchase', purchase.purchaseId)));
    },
  );

  app.put(
    '/purchases/admin',
    signedIn(app, { tags: ['purchases'], body: adminUpdatePurchaseRequest, response: { 200: adminPurchaseRow } }, { staff: 'admin' }),
    async (request) => {
      const { before, after } = await updatePurchaseAsAdmin({ ctx: app.ctx, actor: actorOf(request), input: request.body });
      request.audited = {
        target: { type: 'purchase', id: after.purchaseId },
        changes: { status: { from: before.status, to: after.status } },
        details: { user_id: after.userId, ...(after.status === 'cancelled' && before.status !== 'cancelled' ? { cancel_reason: after.cancelReason } : {}) },
      };
      return presentAdminRow(actorOf(request), await shown(actorOf(request), 'purchase', after.purchaseId));
    },
  );

  app.post(
    '/invoices/admin',
    signedIn(app, { tags: ['invoices'], body: adminCreateInvoiceRequest, response: { 201: adminPurchaseRow } }, { staff: 'admin' }),
    async (request, reply) => {
      const invoice = await createInvoiceAsAdmin({ ctx: app.ctx, actor: actorOf(request), input: request.body });
      request.audited = { target: { type: 'invoice', id: invoice.invoiceId }, changes: { status: { from: null, to: invoice.status } } };
      return reply.status(201).send(presentAdminRow(actorOf(request), await shown(actorOf(request), 'invoice', invoice.invoiceId)));
    },
  );

  app.put(
    '/invoices/admin',
    signedIn(app, { tags: ['invoices'], body: adminUpdateInvoiceRequest, response: { 200: adminPurchaseRow } }, { staff: 'admin' }),
    async (request) => {
      const { before, after } = await updateInvoiceAsAdmin({ ctx: app.ctx, actor: actorOf(request), input: request.body });
      request.audited = { target: { type: 'invoice', id: after.invoiceId }, changes: { status: { from: before.status, to: after.status } } };
      return presentAdminRow(actorOf(request), await shown(actorOf(request), 'invoice', after.invoiceId));
    },
  );

  app.post(
    '/purchases/test',
    signedIn(app, { tags: ['purchases'], body: purchaseTestRequest, response: { 200: purchaseTestResponse } }, { staff: 'admin' }),
    async (request) => {
      const result = await sendTestPurchase({ ctx: app.ctx, input: request.body });
      request.audited = { target: { type: 'product', id: request.body.product_id }, details: { status: result.status } };
      return result;
    },
  );
}
