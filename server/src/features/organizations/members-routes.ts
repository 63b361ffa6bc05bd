// /api/organizations members (spec part 2 §7: GET /organizations/{id}/users, GET
// /organizations/{orgId}/users/{userId}, POST and PUT /organizations/users, DELETE /organizations/{a}/{b})
// and the user detail's recovery buttons (§2 "User detail": send email, generate link). Managers read the
// table and the detail; the Admin alone adds, edits and removes (spec §6; the services authorize). Changes
// are audited.
import { roleOfUserType } from '@pluma/common/organizations';
import {
  acceptedInvitation,
  addOrganizationUserRequest,
  invitationIdParams,
  myOrganizationInvitations,
  organizationInvitationParams,
  pendingOrganizationInvitations,
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
import { requestLang } from '../../platform/http/lang';
import { publicBaseUrl } from '../users';
import { organizationsEnabledGate } from './enabled-gate';
import { acceptInvitation, declineInvitation, listMyInvitations, listPendingInvitations, revokeInvitation } from './invitations-service';
import { addMember, changeMemberRole, createMemberResetLink, listMembers, readMember, removeMember, sendMemberResetEmail } from './members-service';

const tags = ['organizations'];
const recoveryLimit = { rateLimit: { max: 10, timeWindow: '1 minute' } };

export async function organizationMemberRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  const enabled = organizationsEnabledGate(app);
  const route = <S extends FastifySchema>(schema: S) => signedIn(app, { tags, ...schema }, { gates: [enabled] });

  app.get('/organizations/:id/users', route({ params: organizationIdParams, querystring: organizationUsersQuery, response: { 200: organizationUsersResponse } }), async (request) => {
    return listMembers({ actor: actorOf(request), db, organizationId: request.params.id, query: request.query });
  });

  app.get('/organizations/:orgId/users/:userId', route({ params: organizationUserParams, response: { 200: organizationUserDetail } }), async (request) => {
    return readMember({ actor: actorOf(request), db, organizationId: request.params.orgId, userId: request.params.userId });
  });

  app.post('/organizations/users', route({ body: addOrganizationUserRequest, response: { 201: organizationUserSaved } }), async (request, reply) => {
    const actor = actorOf(request);
    request.staffAudit = true;
    const saved = await addMember({ ctx, actor, input: request.body, baseUrl: publicBaseUrl(ctx), log: request.log });
    request.audited = {
      target: { type: 'user', id: saved.user_id },
      details: { organization_id: saved.organization_id, role: saved.role, invited: saved.invited },
    };
    return reply.status(201).send(saved);
  });

  app.put('/organizations/users', route({ body: updateOrganizationUserRequest, response: { 200: organizationUserSaved } }), async (request) => {
    request.staffAudit = true;
    const { saved, previousUserTypeId } = await changeMemberRole({
      actor: actorOf(request),
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
    request.staffAudit = true;
    await removeMember({ actor: actorOf(request), db, organizationId: request.params.orgId, userId: request.params.userId });
    request.audited = { target: { type: 'user', id: request.params.userId }, details: { organization_id: request.params.orgId, removed: true } };
    return { deleted: true as const };
  });

  // Invitations (issue 30 item 12): the invited account answers its own; the Admin lists and revokes.
  app.get('/organizations/invitations', route({ response: { 200: myOrganizationInvitations } }), async (request) => {
    return listMyInvitations({ actor: actorOf(request), db });
  });

  app.post('/organizations/invitations/:id/accept', route({ params: invitationIdParams, response: { 200: acceptedInvitation } }), async (request) => {
    return acceptInvitation({ actor: actorOf(request), db, invitationId: request.params.id });
  });

  app.post('/organizations/invitations/:id/decline', route({ params: invitationIdParams, response: { 200: deletedResponse } }), async (request) => {
    await declineInvitation({ actor: actorOf(request), db, invitationId: request.params.id });
    return { deleted: true as const };
  });

  app.get('/organizations/:id/invitations', route({ params: organizationIdParams, response: { 200: pendingOrganizationInvitations } }), async (request) => {
    return listPendingInvitations({ actor: actorOf(request), db, organizationId: request.params.id });
  });

  app.delete('/organizations/:orgId/invitations/:invitationId', route({ params: organizationInvitationParams, response: { 200: deletedResponse } }), async (request) => {
    request.staffAudit = true;
    const { orgId: organizationId, invitationId } = request.params;
    const gone = await revokeInvitation({ actor: actorOf(request), db, organizationId, invitationId });
    request.audited = { target: { type: 'user', id: gone.userId }, details: { organization_id: organizationId, invitation_revoked: true } };
    return { deleted: true as const };
  });

  // "Send email": the member's own inbox gets the reset link (the outbox without SMTP).
  app.post(
    '/organizations/:orgId/users/:userId/send-reset-email',
    { ...route({ params: organizationUserParams, response: { 200: messageResponse } }), config: recoveryLimit },
    async (request) => {
      request.staffAudit = true;
      const { orgId: organizationId, userId } = request.params;
      await sendMemberResetEmail({ ctx, actor: actorOf(request), organizationId, userId, baseUrl: publicBaseUrl(ctx), log: request.log });
      request.audited = { target: { type: 'user', id: request.params.userId }, details: { organization_id: request.params.orgId, recovery: 'email' } };
      return { message: translate(requestLang(request), 'recovery_sent') };
    },
  );

  // "Generate link": for staff only (members-service.ts says why); an organization Admin sends the email.
  app.post(
    '/organizations/:orgId/users/:userId/reset-link',
    { ...route({ params: organizationUserParams, response: { 200: resetLinkResponse } }), config: recoveryLimit },
    async (request) => {
      request.staffAudit = true;
      const { orgId: organizationId, userId } = request.params;
      const { link } = await createMemberResetLink({ ctx, actor: actorOf(request), organizationId, userId, baseUrl: publicBaseUrl(ctx) });
      request.audited = { target: { type: 'user', id: request.params.userId }, details: { organization_id: request.params.orgId, recovery: 'link' } };
      return { link };
    },
  );
}
