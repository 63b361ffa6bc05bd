// /api/organizations (spec part 2 §7 "Organizations"): the lists, one organization, create, the settings
// form, delete, the welcome video and the analytics. Thin: authenticate (and resolve organization_id) → the
// organizations_enabled gate → validate → service (which authorizes through policy.ts) → present. Rights: docs/decisions.md
// "Organizations". Every change is audited (staff's and organization Admins').
import {
  createOrganizationRequest,
  deletedResponse,
  deleteOrganizationConfirmation,
  organization,
  organizationIdParams,
  organizationList,
  organizationAnalytics as organizationAnalyticsResponse,
  organizationAnalyticsQuery,
  organizationListQuery,
  updateOrganizationRequest,
} from '@pluma/common/organizations';
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { notFound } from '../../platform/http/errors';
import { StorageNotFoundError } from '../../platform/storage';
import { organizationAnalytics, organizationAnalyticsRange } from './analytics-service';
import { organizationsEnabledGate } from './enabled-gate';
import { presentOrganization } from './present';
import { createOrganization, deleteOrganization, listOrganizations, readOrganization, updateOrganization, welcomeVideoFile } from './service';

const tags = ['organizations'];

export async function organizationRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  const enabled = organizationsEnabledGate(app);
  /** Signed in, organizations on; `staff` as in signedIn. */
  const route = <S extends FastifySchema>(schema: S, staff?: 'admin' | 'manager') => signedIn(app, { tags, ...schema }, { staff, gates: [enabled] });

  // Staff: every organization (spec §6: staff "can view the All organizations link").
  app.get('/organizations/admin/all', route({ querystring: organizationListQuery, response: { 200: organizationList } }, 'manager'), async (request) => {
    const actor = actorOf(request);
    const { rows, total } = await listOrganizations({ db, actor, query: request.query, scope: 'all' });
    return { organizations: rows.map((row) => presentOrganization(ctx, actor, row)), total };
  });

  // The caller's organizations (staff admins: all of them, as they may act in any).
  app.get('/organizations', route({ querystring: organizationListQuery, response: { 200: organizationList } }), async (request) => {
    const actor = actorOf(request);
    const { rows, total } = await listOrganizations({ db, actor, query: request.query, scope: 'mine' });
    return { organizations: rows.map((row) => presentOrganization(ctx, actor, row)), total };
  });

  app.get('/organizations/:id', route({ params: organizationIdParams, response: { 200: organization } }), async (request) => {
    const actor = actorOf(request);
    return presentOrganization(ctx, actor, await readOrganization({ actor, db, organizationId: request.params.id }));
  });

  // The uploaded welcome video, for the organization's members (files are otherwise their owner's only).
  app.get('/organizations/:id/welcome-video', route({ params: organizationIdParams }), async (request, reply) => {
    const file = await welcomeVideoFile({ actor: actorOf(request), db, organizationId: request.params.id });
    if (!ctx.services.storage) throw notFound();
    let body;
    try {
      body = await ctx.services.storage.get(file.storageKey);
    } catch (err) {
      if (err instanceof StorageNotFoundError) throw notFound();
      throw err;
    }
    return reply
      .header('Content-Type', file.mime)
      .header('Content-Length', String(file.size))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; media-src 'self'; sandbox")
      .header('Cache-Control', 'private, no-store')
      .send(body);
  });

  // /organization/analytics (spec §2): Admins, Managers and staff admins.
  app.get(
    '/organizations/:id/analytics',
    route({ params: organizationIdParams, querystring: organizationAnalyticsQuery, response: { 200: organizationAnalyticsResponse } }),
    async (request) => {
      return organizationAnalytics({ actor: actorOf(request), db, organizationId: request.params.id, range: organizationAnalyticsRange(request.query) });
    },
  );

  // spec §6: staff "may create organizations"; the creator becomes its Admin.
  app.post('/organizations', route({ body: createOrganizationRequest, response: { 201: organization } }, 'manager'), async (request, reply) => {
    const actor = actorOf(request);
    const organizationId = await createOrganization({ ctx, actor, input: request.body });
    request.audited = { target: { type: 'organization', id: organizationId }, details: { created: true, name: request.body.name } };
    return reply.status(201).send(presentOrganization(ctx, actor, await readOrganization({ actor, db, organizationId })));
  });

  // The settings form (spec §2 "Organization form"): the Admin (or a staff admin).
  app.post('/organizations/update', route({ body: updateOrganizationRequest, response: { 200: organization } }), async (request) => {
    const actor = actorOf(request);
    request.staffAudit = true;
    const changed = await updateOrganization({ ctx, actor, input: request.body });
    request.audited = { target: { type: 'organization', id: request.body.organization_id }, details: { fields: changed } };
    return presentOrganization(ctx, actor, await readOrganization({ actor, db, organizationId: request.body.organization_id }));
  });

  // spec §5: deletion requires typing the exact name ('Organization name does not match. Deletion aborted.').
  app.delete(
    '/organizations/:id',
    route({ params: organizationIdParams, querystring: deleteOrganizationConfirmation, response: { 200: deletedResponse } }),
    async (request) => {
      const actor = actorOf(request);
      request.staffAudit = true;
      const body = request.body as { name?: unknown } | undefined;
      const confirmation = typeof body?.name === 'string' ? body.name : request.query.name;
      const members = await deleteOrganization({ actor, db, organizationId: request.params.id, confirmation });
      request.audited = { target: { type: 'organization', id: request.params.id }, details: { deleted: true, members: members.length } };
      return { deleted: true as const };
    },
  );
}
