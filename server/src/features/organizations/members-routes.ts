// /api/organizations members (spec part 2 §7: GET /organizations/{id}/users, GET
// /organizations/{orgId}/users/{userId}, POST and PUT /organizations/users, DELETE /organizations/{a}/{b})
// and the user detail's recovery buttons (§2 "User detail": send email, generate link). Managers read the
// table and the detail; the Admin alone adds, edits and removes (spec §6). Changes are audited.
import { roleOfUserType } from '@pluma/common/organizations';
import {
  addOrganizationUserRequest,
  deletedResponse,
  messageResponse,
  organizationIdParams,
  organizationUserDetail,
  organizationUserParams,
  organizationUserSaved,
  organizationUsersQuery,
  organizationUsersResponse,
  removeOrganizationUserParams,
  resetLinkResponse,
  updateOrganizationUserRequest,
} from '@pluma/common/organizations';
import { translate } from '@pluma/common/messages';
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { forbidden } from '../../platform/http/errors';
import { requestLang } from '../../platform/http/lang';
import { createResetLink, publicBaseUrl, sendResetPasswordLink } from '../users';
import { organizationsEnabledGate } from './enabled';
import { addMember, changeMemberRole, listMembers, memberEmail, readMember, removeMember } from './members-service';
import { requireOrganization, requireRequestOrganization } from './policy';

const tags = ['organizations'];
const recoveryLimit = { rateLimit: { max: 10, timeWindow: '1 minute' } };

export async function organizationMemberRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  const enabled = organizationsEnabledGate(app);
  const route = <S extends FastifySchema>(schema: S) => signedIn(app, { tags, ...schema }, { gates: [enabled] });

  app.get('/organizations/:id/users', route({ params: organizationIdParams, querystring: organizationUsersQuery, response: { 200: organizationUsersResponse } }), async (request) => {
    await requireOrganization(db, actorOf(request), request.params.id, 'view_users');
    return listMembers({ db, organizationId: request.params.id, query: request.query });
  });

  app.get('/organizations/:orgId/users/:userId', route({ params: organizationUserParams, response: { 200: organizationUserDetail } }), async (request) => {
    await requireOrganization(db, actorOf(request), request.params.orgId, 'view_users');
    return readMember({ db, organizationId: request.params.orgId, userId: request.params.userId });
  });

  app.post('/organizations/users', route({ body: addOrganizationUserRequest, response: { 201: organizationUserSaved } }), async (request, reply) => {
    const actor = actorOf(request);
    requireRequestOrganization(actor, request.body.organization_id, 'manage_users');
    request.staffAudit = true;
    const saved = await addMember({ ctx, actor, input: request.body, baseUrl: publicBaseUrl(ctx), log: request.log });
    request.audited = {
      target: { type: 'user', id: saved.user_id },
      details: { organization_id: saved.organization_id, role: saved.role, invited: saved.invited },
    };
    return reply.status(201).send(saved);
  });

  app.put('/organizations/users', route({ body: updateOrganizationUserRequest, response: { 200: organizationUserSaved } }), async (request) => {
    const actor = actorOf(request);
    requireRequestOrganization(actor, request.body.organization_id, 'manage_users');
    request.staffAudit = true;
    const { saved, previousUserTypeId } = await changeMemberRole({
      db,
      organizationId: request.body.organization_id,
      userId: request.body.user_id,
      userTypeId: request.body.user_type_id,
    });
    request.audited = {
      target: { type: 'user', id: saved.user_id },
      details: { organization_id: saved.organization_id },
      changes: { role: { from: roleOfUserType(previousUserTypeId), to: saved.role } },
    };
    return saved;
  });

  app.delete('/organizations/:orgId/:userId', route({ params: removeOrganizationUserParams, response: { 200: deletedResponse } }), async (request) => {
    await requireOrganization(db, actorOf(request), request.params.orgId, 'manage_users');
    request.staffAudit = true;
    await removeMember({ db, organizationId: request.params.orgId, userId: request.params.userId });
    request.audited = { target: { type: 'user', id: request.params.userId }, details: { organization_id: request.params.orgId, removed: true } };
    return { deleted: true as const };
  });

  // "Send email": the member's own inbox gets the reset link (the outbox without SMTP).
  app.post(
    '/organizations/:orgId/users/:userId/send-reset-email',
    { ...route({ params: organizationUserParams, response: { 200: messageResponse } }), config: recoveryLimit },
    async (request) => {
      await requireOrganization(db, actorOf(request), request.params.orgId, 'manage_users');
      request.staffAudit = true;
      const email = await memberEmail({ db, organizationId: request.params.orgId, userId: request.params.userId });
      await sendResetPasswordLink({ ctx, email, baseUrl: publicBaseUrl(ctx), log: request.log });
      request.audited = { target: { type: 'user', id: request.params.userId }, details: { organization_id: request.params.orgId, recovery: 'email' } };
      return { message: translate(requestLang(request), 'recovery_sent') };
    },
  );

  // "Generate link": the link itself signs into the member's whole account (Personal too), so it is handed
  // only to staff (with the staff rules of POST /users/resetPasswordLink); an organization Admin sends the email.
  app.post(
    '/organizations/:orgId/users/:userId/reset-link',
    { ...route({ params: organizationUserParams, response: { 200: resetLinkResponse } }), config: recoveryLimit },
    async (request) => {
      const actor = actorOf(request);
      await requireOrganization(db, actor, request.params.orgId, 'manage_users');
      if (!actor.staffRole) throw forbidden();
      request.staffAudit = true;
      const email = await memberEmail({ db, organizationId: request.params.orgId, userId: request.params.userId });
      const { link } = await createResetLink({ ctx, actor, email, baseUrl: publicBaseUrl(ctx) });
      request.audited = { target: { type: 'user', id: request.params.userId }, details: { organization_id: request.params.orgId, recovery: 'link' } };
      return { link };
    },
  );
}
