// /api/staff (spec part 1 §7): GET /staff/admin/all, POST /staff, PUT /staff, DELETE /staff/{id}. Admins
// only (docs/decisions.md "Staff rights"); changes are audited with the role diff.
import { idParam } from '@pluma/common/schema-kit';
import { addStaffRequest, changeStaffRoleRequest, staffListQuery, staffListResponse, staffRecord } from '@pluma/common/staff';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { publicBaseUrl } from '../../platform/http/public-url';
import { presentStaff } from './present';
import { addStaff, changeStaffRole, listStaff, removeStaff } from './service';

export async function staffRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const tags = ['staff'];

  r.get('/admin/all', signedIn(app, { tags, querystring: staffListQuery, response: { 200: staffListResponse } }, { staff: 'admin' }), async (request) => {
    const { rows, total } = await listStaff({ actor: actorOf(request), db: ctx.db, query: request.query });
    return { staff: rows.map(presentStaff), total };
  });

  r.post('/', signedIn(app, { tags, body: addStaffRequest, response: { 201: staffRecord } }, { staff: 'admin' }), async (request, reply) => {
    const { row, invited } = await addStaff({ ctx, actor: actorOf(request), input: request.body, baseUrl: publicBaseUrl(ctx), log: request.log });
    request.audited = { target: { type: 'user', id: row.userId }, changes: { role: { from: null, to: row.role } }, details: { staff_id: row.staffId, invited } };
    return reply.status(201).send(presentStaff(row));
  });

  r.put('/', signedIn(app, { tags, body: changeStaffRoleRequest, response: { 200: staffRecord } }, { staff: 'admin' }), async (request) => {
    const { row, previousRole } = await changeStaffRole({ ctx, actor: actorOf(request), staffId: request.body.staff_id, role: request.body.role });
    request.audited = { target: { type: 'user', id: row.userId }, changes: { role: { from: previousRole, to: row.role } }, details: { staff_id: row.staffId } };
    return presentStaff(row);
  });

  r.delete('/:id', signedIn(app, { tags, params: z.object({ id: idParam() }) }, { staff: 'admin' }), async (request, reply) => {
    const row = await removeStaff({ ctx, actor: actorOf(request), staffId: request.params.id });
    request.audited = { target: { type: 'user', id: row.userId }, changes: { role: { from: row.role, to: null } }, details: { staff_id: row.staffId } };
    return reply.status(204).send();
  });
}
