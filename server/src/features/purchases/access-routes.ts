// /api/users/giveAccess and /api/users/revokeAccess (spec part 1 §7): admin only, audited.
import { giveAccessRequest, purchaseRecord, revokeAccessRequest } from '@pluma/common/purchases';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireStaff } from '../../platform/auth/guard';
import { giveAccess, revokeAccess } from './access-service';
import { presentPurchase } from './present';

export async function accessRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { onRequest: [app.authenticate, requireStaff('admin')] };
  const schema = { tags: ['purchases'], security: [{ bearer: [] }] };

  r.post('/giveAccess', { ...guard, schema: { ...schema, body: giveAccessRequest, response: { 201: purchaseRecord } } }, async (request, reply) => {
    const purchase = await giveAccess({ ctx: app.ctx, input: request.body });
    return reply.status(201).send(presentPurchase(purchase));
  });

  r.put('/revokeAccess', { ...guard, schema: { ...schema, body: revokeAccessRequest, response: { 200: purchaseRecord } } }, async (request) =>
    presentPurchase(await revokeAccess({ ctx: app.ctx, purchaseId: request.body.purchase_id })),
  );
}
