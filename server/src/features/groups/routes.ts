// /api/groups (spec part 2 §7 "Groups"; the candidates of "Add Users to Group", §5). Thin: authenticate →
// organizations_enabled gate → validate → service (which authorizes through policy.ts) → present. Rights: docs/decisions.md
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
import { organizationsEnabledGate } from '../organizations';
import { presentGroup, presentGroupDetail } from './present';
import { addGroupUser, createGroup, deleteGroup, groupCandidates, listGroups, readGroup, removeGroupUser, renameGroup } from './service';

const tags = ['groups'];

export async function groupRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const enabled = organizationsEnabledGate(app);
  const route = <S extends FastifySchema>(schema: S) => signedIn(app, { tags, ...schema }, { gates: [enabled] });

  // 'Organization Groups' (spec §2): all of them for Admins and Managers, a Member's own for a Member.
  app.get('/groups/organization/:id', route({ params: organizationIdParams, querystring: groupListQuery, response: { 200: groupList } }), async (request) => {
    const { rows, total, actor } = await listGroups({ actor: actorOf(request), db, organizationId: request.params.id, query: request.query });
    return { groups: rows.map((r) => presentGroup(actor, r.group, r.usersCount)), total };
  });

  app.get('/groups/:id', route({ params: groupIdParams, response: { 200: groupDetail } }), async (request) => {
    const { group: row, actor, members } = await readGroup({ actor: actorOf(request), db, groupId: request.params.id });
    return presentGroupDetail(actor, row, members);
  });

  app.get('/groups/:id/candidates', route({ params: groupIdParams, querystring: groupCandidatesQuery, response: { 200: groupCandidatesResponse } }), async (request) => {
    return { users: await groupCandidates({ actor: actorOf(request), db, groupId: request.params.id, query: request.query.query }) };
  });

  app.post('/groups', route({ body: createGroupRequest, response: { 201: group } }), async (request, reply) => {
    request.staffAudit = true;
    // The guard resolved body.organization_id into the actor's organization (a stranger got 404 there).
    const { group: created, actor } = await createGroup({ actor: actorOf(request), db, organizationId: request.body.organization_id, name: request.body.name });
    request.audited = { target: { type: 'group', id: created.groupId }, details: { organization_id: created.organizationId, name: created.name } };
    return reply.status(201).send(presentGroup(actor, created, 0));
  });

  app.put('/groups', route({ body: updateGroupRequest, response: { 200: groupDetail } }), async (request) => {
    request.staffAudit = true;
    const { group: updated, actor, previousName, members } = await renameGroup({ actor: actorOf(request), db, groupId: request.body.group_id, name: request.body.name });
    request.audited = { target: { type: 'group', id: updated.groupId }, changes: { name: { from: previousName, to: updated.name } } };
    return presentGroupDetail(actor, updated, members);
  });

  app.delete('/groups/:id', route({ params: groupIdParams, response: { 200: groupDeletedResponse } }), async (request) => {
    request.staffAudit = true;
    const row = await deleteGroup({ actor: actorOf(request), db, groupId: request.params.id });
    request.audited = { target: { type: 'group', id: row.groupId }, details: { organization_id: row.organizationId, name: row.name, deleted: true } };
    return { deleted: true as const };
  });

  app.post('/groups/users/:userId/:groupId', route({ params: groupUserParams, response: { 201: groupUserResponse } }), async (request, reply) => {
    const { userId, groupId } = request.params;
    request.staffAudit = true;
    await addGroupUser({ actor: actorOf(request), db, groupId, userId });
    request.audited = { target: { type: 'group', id: groupId }, details: { added_user_id: userId } };
    return reply.status(201).send({ group_id: groupId, user_id: userId });
  });

  app.delete('/groups/users/:userId/:groupId', route({ params: groupUserParams, response: { 200: groupUserResponse } }), async (request) => {
    const { userId, groupId } = request.params;
    request.staffAudit = true;
    await removeGroupUser({ actor: actorOf(request), db, groupId, userId });
    request.audited = { target: { type: 'group', id: groupId }, details: { removed_user_id: userId } };
    return { group_id: groupId, user_id: userId };
  });
}
