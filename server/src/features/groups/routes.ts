// /api/groups (spec part 2 §7 "Groups"; the candidates of "Add Users to Group", §5). Thin: authenticate →
// organizations_enabled gate → validate → policy.ts → service → present. Rights: docs/decisions.md
// "Organizations". Changes are audited.
import {
  createGroupRequest,
  group,
  groupCandidates as groupCandidatesResponse,
  groupCandidatesQuery,
  groupDeletedResponse,
  groupDetail,
  groupIdParams,
  groupList,
  groupListQuery,
  groupUserParams,
  groupUserResponse,
  updateGroupRequest,
} from '@pluma/common/groups';
import { organizationIdParams } from '@pluma/common/organizations';
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { forbidden, notFound } from '../../platform/http/errors';
import { organizationAccess, organizationsEnabledGate, roleCan } from '../organizations';
import { requireGroup } from './policy';
import { presentGroup, presentGroupDetail } from './present';
import { addGroupUser, createGroup, deleteGroup, groupCandidates, groupMembers, listGroups, removeGroupUser, renameGroup } from './service';

const tags = ['groups'];

export async function groupRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const enabled = organizationsEnabledGate(app);
  const route = <S extends FastifySchema>(schema: S) => signedIn(app, { tags, ...schema }, { gates: [enabled] });

  // 'Organization Groups' (spec §2): all of them for Admins and Managers, a Member's own for a Member.
  app.get('/groups/organization/:id', route({ params: organizationIdParams, querystring: groupListQuery, response: { 200: groupList } }), async (request) => {
    const actor = actorOf(request);
    if (actor.organization && actor.organization.organizationId !== request.params.id) throw notFound();
    const access = await organizationAccess(db, actor, request.params.id);
    const { rows, total } = await listGroups({ db, actor, access, query: request.query });
    return { groups: rows.map((r) => presentGroup(access.role, r.group, r.usersCount)), total };
  });

  app.get('/groups/:id', route({ params: groupIdParams, response: { 200: groupDetail } }), async (request) => {
    const { group: row, access } = await requireGroup(db, actorOf(request), request.params.id, 'read');
    return presentGroupDetail(access.role, row, await groupMembers(db, row));
  });

  app.get('/groups/:id/candidates', route({ params: groupIdParams, querystring: groupCandidatesQuery, response: { 200: groupCandidatesResponse } }), async (request) => {
    const { group: row } = await requireGroup(db, actorOf(request), request.params.id, 'add_users');
    return { users: await groupCandidates({ db, group: row, query: request.query.query }) };
  });

  app.post('/groups', route({ body: createGroupRequest, response: { 201: group } }), async (request, reply) => {
    const actor = actorOf(request);
    // The guard resolved body.organization_id into actor.organization (a stranger got 404 there).
    const access = actor.organization;
    if (!access || access.organizationId !== request.body.organization_id) throw notFound();
    if (!roleCan(access.role, 'manage_groups')) throw forbidden();
    request.staffAudit = true;
    const created = await createGroup({ db, actor, organizationId: access.organizationId, name: request.body.name });
    request.audited = { target: { type: 'group', id: created.groupId }, details: { organization_id: created.organizationId, name: created.name } };
    return reply.status(201).send(presentGroup(access.role, created, 0));
  });

  app.put('/groups', route({ body: updateGroupRequest, response: { 200: groupDetail } }), async (request) => {
    const { group: before, access } = await requireGroup(db, actorOf(request), request.body.group_id, 'update');
    request.staffAudit = true;
    const updated = await renameGroup({ db, groupId: before.groupId, name: request.body.name });
    request.audited = { target: { type: 'group', id: updated.groupId }, changes: { name: { from: before.name, to: updated.name } } };
    return presentGroupDetail(access.role, updated, await groupMembers(db, updated));
  });

  app.delete('/groups/:id', route({ params: groupIdParams, response: { 200: groupDeletedResponse } }), async (request) => {
    const { group: row } = await requireGroup(db, actorOf(request), request.params.id, 'delete');
    request.staffAudit = true;
    await deleteGroup({ db, groupId: row.groupId });
    request.audited = { target: { type: 'group', id: row.groupId }, details: { organization_id: row.organizationId, name: row.name, deleted: true } };
    return { deleted: true as const };
  });

  app.post('/groups/users/:userId/:groupId', route({ params: groupUserParams, response: { 201: groupUserResponse } }), async (request, reply) => {
    const { group: row } = await requireGroup(db, actorOf(request), request.params.groupId, 'add_users');
    request.staffAudit = true;
    await addGroupUser({ db, group: row, userId: request.params.userId });
    request.audited = { target: { type: 'group', id: row.groupId }, details: { added_user_id: request.params.userId } };
    return reply.status(201).send({ group_id: row.groupId, user_id: request.params.userId });
  });

  app.delete('/groups/users/:userId/:groupId', route({ params: groupUserParams, response: { 200: groupUserResponse } }), async (request) => {
    const { group: row } = await requireGroup(db, actorOf(request), request.params.groupId, 'remove_users');
    request.staffAudit = true;
    await removeGroupUser({ db, group: row, userId: request.params.userId });
    request.audited = { target: { type: 'group', id: row.groupId }, details: { removed_user_id: request.params.userId } };
    return { group_id: row.groupId, user_id: request.params.userId };
  });
}
