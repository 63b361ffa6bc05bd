// Back-office customers (spec part 1 §7): GET /users/admin/all, GET /users/{id}/admin, POST
// /users/admin/user, PUT and DELETE /users/admin/{id}, and "log in as the user". Who may call what:
// docs/decisions.md "Staff rights" (managers read; admins create, edit, delete and log in as a customer): the
// staff gate refuses other callers before validation, and the services authorize inside (policy.ts).
import { customerDetail, customerForm, customerListQuery, customerListResponse, impersonationResponse } from '@pluma/common/admin-users';
import { idParam } from '@pluma/common/schema-kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { createCustomer, deleteCustomer, issueImpersonation, listCustomers, readCustomer, updateCustomer } from './admin-service';
import { presentCustomer, presentCustomerRow } from './admin-present';
import { publicBaseUrl } from '../../platform/http/public-url';

const userIdParams = z.object({ id: idParam() });
/** The form's fields whose change the audit row records (not the whole profile). */
const AUDITED_FIELDS = ['name', 'lastName', 'email', 'phone', 'instagram', 'lang', 'signupReason', 'birthday'] as const;

export async function adminUsersRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const tags = ['users'];

  r.get('/admin/all', signedIn(app, { tags, querystring: customerListQuery, response: { 200: customerListResponse } }, { staff: 'manager' }), async (request) => {
    const { rows, total } = await listCustomers({ actor: actorOf(request), db: ctx.db, query: request.query });
    return { users: rows.map(presentCustomerRow), total };
  });

  r.get('/:id/admin', signedIn(app, { tags, params: userIdParams, response: { 200: customerDetail } }, { staff: 'manager' }), async (request) =>
    presentCustomer(await readCustomer({ actor: actorOf(request), db: ctx.db, userId: request.params.id })),
  );

  r.post('/admin/user', signedIn(app, { tags, body: customerForm, response: { 201: customerDetail } }, { staff: 'admin' }), async (request, reply) => {
    const actor = actorOf(request);
    const user = await createCustomer({ ctx, actor, input: request.body, baseUrl: publicBaseUrl(ctx), log: request.log });
    request.audited = { target: { type: 'user', id: user.userId }, details: { created: true } };
    return reply.status(201).send(presentCustomer(await readCustomer({ actor, db: ctx.db, userId: user.userId })));
  });

  r.put('/admin/:id', signedIn(app, { tags, params: userIdParams, body: customerForm, response: { 200: customerDetail } }, { staff: 'admin' }), async (request) => {
    const actor = actorOf(request);
    const { before, after } = await updateCustomer({ actor, db: ctx.db, userId: request.params.id, input: request.body });
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const field of AUDITED_FIELDS) if (before[field] !== after[field]) changes[field] = { from: before[field], to: after[field] };
    request.audited = { target: { type: 'user', id: after.userId }, changes };
    return presentCustomer(await readCustomer({ actor, db: ctx.db, userId: after.userId }));
  });

  r.delete('/admin/:id', signedIn(app, { tags, params: userIdParams }, { staff: 'admin' }), async (request, reply) => {
    await deleteCustomer({ ctx, actor: actorOf(request), userId: request.params.id, log: request.log });
    request.audited = { target: { type: 'user', id: request.params.id } };
    return reply.status(204).send();
  });

  // "Log in as the user" (spec part 1 §2 Customer detail): a one-time token the web opens as ?uid= in a new
  // window. The audit row names both identities: the admin (actor) and the customer (target).
  r.post('/admin/:id/impersonate', signedIn(app, { tags, params: userIdParams, response: { 201: impersonationResponse } }, { staff: 'admin' }), async (request, reply) => {
    const actor = actorOf(request);
    const uid = await issueImpersonation({ ctx, actor, userId: request.params.id });
    request.audited = { target: { type: 'user', id: request.params.id }, details: { impersonation: { admin_user_id: actor.user.userId, user_id: request.params.id } } };
    return reply.status(201).send({ uid });
  });
}
