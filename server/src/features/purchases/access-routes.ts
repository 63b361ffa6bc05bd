// /api/users/giveAccess and /api/users/revokeAccess (spec part 1 §7), audited. Give and extend are open to
// managers, revoke is an admin's (docs/decisions.md "Staff rights").
import { giveOrExtendAccessRequest, purchaseRecord, revokeAccessRequest } from '@pluma/common/purchases';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { extendAccess, giveAccess, revokeAccess } from './access-service';
import { presentPurchase } from './present';

export async function accessRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['purchases'];

  r.post('/giveAccess', signedIn(app, { tags, body: giveOrExtendAccessRequest, response: { 200: purchaseRecord, 201: purchaseRecord } }, { staff: 'manager' }), async (request, reply) => {
    const body = request.body;
    if ('purchase_id' in body) {
      // Extend: more days on one of the customer's purchases.
      const { purchase, previousDays } = await extendAccess({ ctx: app.ctx, actor: actorOf(request), input: body });
      request.audited = {
        target: { type: 'user', id: purchase.userId },
        changes: { expiration_days: { from: previousDays, to: purchase.expirationDays } },
        details: { purchase_id: purchase.purchaseId, extended_days: body.expiration_days },
      };
      return reply.status(200).send(presentPurchase(purchase));
    }
    const purchase = await giveAccess({ ctx: app.ctx, actor: actorOf(request), input: body });
    // Audited on the user whose access changed (platform/http/audit.ts), with the purchase it made.
    request.audited = {
      target: { type: 'user', id: purchase.userId },
      changes: { access: { from: null, to: purchase.status } },
      details: { purchase_id: purchase.purchaseId, product_id: purchase.productId, gift: purchase.isGift },
    };
    return reply.status(201).send(presentPurchase(purchase));
  });

  r.put('/revokeAccess', signedIn(app, { tags, body: revokeAccessRequest, response: { 200: purchaseRecord } }, { staff: 'admin' }), async (request) => {
    const { purchase, previousStatus } = await revokeAccess({ ctx: app.ctx, actor: actorOf(request), purchaseId: request.body.purchase_id });
    request.audited = { details: { user_id: purchase.userId }, changes: { status: { from: previousStatus, to: purchase.status } } };
    return presentPurchase(purchase);
  });
}
