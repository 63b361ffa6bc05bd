// /api/campaigns (spec part 2 §7 "Campaigns", every call). Thin: authenticate → organizations_enabled gate →
// validate → service (which authorizes through policy.ts) → present. Rights: docs/decisions.md "Campaigns".
// Changes are audited.
import {
  campaign as campaignResponse,
  campaignAccessParams,
  campaignAccessRequest,
  campaignAccessCandidates as campaignAccessCandidatesResponse,
  campaignAccessCandidatesQuery,
  campaignAccessResponse,
  campaignCandidatesQuery,
  campaignCandidates as campaignCandidatesResponse,
  campaignDeletedResponse,
  campaignDetail,
  campaignDocumentRequest,
  campaignResourceCreated,
  campaignIdParams,
  campaignList,
  campaignListParams,
  campaignListQuery,
  campaignResourceLink,
  campaignResourceList,
  campaignResourceParams,
  campaignResourceRequest,
  campaignResourcesQuery,
  createCampaignRequest,
  updateCampaignRequest,
} from '@pluma/common/campaigns';
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { parseForm } from '../../platform/http/parse-form';
import { organizationsEnabledGate } from '../organizations';
import { readCampaignForm } from './multipart-http';
import { presentCampaign, presentCampaignDetail } from './present';
import {
  addCampaignResource,
  campaignAccessCandidates,
  campaignCandidates,
  createCampaign,
  deleteCampaign,
  giveCampaignAccess,
  listCampaignResources,
  listCampaigns,
  readCampaign,
  removeCampaignResource,
  revokeCampaignAccess,
  updateCampaign,
  createCampaignDocument,
} from './service';

const tags = ['campaigns'];
const formTypes = ['multipart/form-data', 'application/json'];

export async function campaignRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  const enabled = organizationsEnabledGate(app);
  const route = <S extends FastifySchema>(schema: S) => signedIn(app, { tags, ...schema }, { gates: [enabled] });

  // spec §7: GET /campaigns/organization/{orgId}query?query=&sortBy= — the literal 'query' follows the id.
  app.get('/campaigns/organization/:orgRef', route({ params: campaignListParams, querystring: campaignListQuery, response: { 200: campaignList } }), async (request) => {
    const organizationId = Number.parseInt(request.params.orgRef, 10);
    const { rows, total, nextCursor, actor } = await listCampaigns({ actor: actorOf(request), db, organizationId, query: request.query });
    return { campaigns: rows.map((row) => presentCampaign(actor, row)), total: total.total, total_capped: total.capped, next_cursor: nextCursor };
  });

  // The campaign with its grants (the users page; not in spec §7, whose clients read them from the list).
  app.get('/campaigns/:id', route({ params: campaignIdParams, response: { 200: campaignDetail } }), async (request) => {
    const { campaign, grants, actor } = await readCampaign({ actor: actorOf(request), db, campaignId: request.params.id });
    return presentCampaignDetail(actor, campaign, grants);
  });

  app.get(
    '/campaigns/:id/resources',
    route({ params: campaignIdParams, querystring: campaignResourcesQuery, response: { 200: campaignResourceList } }),
    async (request) => {
      const { rows, total } = await listCampaignResources({ actor: actorOf(request), db, campaignId: request.params.id, query: request.query });
      return { resources: rows, total: total.total, total_capped: total.capped };
    },
  );

  // The "Add" picker of the campaign page (not in spec §7): for who may add resources.
  app.get(
    '/campaigns/:id/candidates',
    route({ params: campaignIdParams, querystring: campaignCandidatesQuery, response: { 200: campaignCandidatesResponse } }),
    async (request) => {
      const { resources: type, query } = request.query;
      return campaignCandidates({ actor: actorOf(request), db, campaignId: request.params.id, type, query });
    },
  );

  // "New document" of the campaign page (issue 30 item 17): a named, empty document made in the campaign.
  app.post(
    '/campaigns/:id/documents',
    route({ params: campaignIdParams, body: campaignDocumentRequest, response: { 201: campaignResourceCreated } }),
    async (request, reply) => {
      request.staffAudit = true;
      const created = await createCampaignDocument({ actor: actorOf(request), db, campaignId: request.params.id, name: request.body.name });
      request.audited = { target: { type: 'campaign', id: created.campaign_id }, details: { document_id: created.resource_id, created: true } };
      return reply.status(201).send(created);
    },
  );

  app.post('/campaigns', route({ consumes: formTypes, response: { 201: campaignResponse } }), async (request, reply) => {
    const form = await readCampaignForm(request);
    const input = parseForm(createCampaignRequest, form.campaign);
    request.staffAudit = true;
    const { campaign, actor } = await createCampaign({ ctx, actor: actorOf(request), organizationId: input.organization_id, input, thumbnail: form.thumbnail });
    const created = campaign.campaign;
    request.audited = { target: { type: 'campaign', id: created.campaignId }, details: { organization_id: created.organizationId, name: created.name } };
    return reply.status(201).send(presentCampaign(actor, campaign));
  });

  app.put('/campaigns', route({ consumes: formTypes, response: { 200: campaignResponse } }), async (request) => {
    const form = await readCampaignForm(request);
    const input = parseForm(updateCampaignRequest, form.campaign);
    request.staffAudit = true;
    const { campaign, previousName, actor } = await updateCampaign({ ctx, actor: actorOf(request), input, thumbnail: form.thumbnail });
    const updated = campaign.campaign;
    request.audited = { target: { type: 'campaign', id: updated.campaignId }, changes: { name: { from: previousName, to: updated.name } } };
    return presentCampaign(actor, campaign);
  });

  app.delete('/campaigns/campaign/:id', route({ params: campaignIdParams, response: { 200: campaignDeletedResponse } }), async (request) => {
    request.staffAudit = true;
    const campaign = await deleteCampaign({ actor: actorOf(request), db, campaignId: request.params.id });
    request.audited = { target: { type: 'campaign', id: campaign.campaignId }, details: { organization_id: campaign.organizationId, name: campaign.name, deleted: true } };
    return { deleted: true as const };
  });

  // POST links (409 when linked already); PUT is the same link, kept when it exists (spec §7 lists both).
  for (const method of ['post', 'put'] as const) {
    app[method](
      '/campaigns/campaign-resource/',
      route({ body: campaignResourceRequest, response: { 200: campaignResourceLink, 201: campaignResourceLink } }),
      async (request, reply) => {
        const { campaign_id: campaignId, resource_id: resourceId, type } = request.body;
        request.staffAudit = true;
        const { created } = await addCampaignResource({ actor: actorOf(request), db, campaignId, type, resourceId, idempotent: method === 'put' });
        request.audited = { target: { type: 'campaign', id: campaignId }, details: { added_resource: { type, resource_id: resourceId } } };
        return reply.status(created ? 201 : 200).send({ campaign_id: campaignId, resource_id: resourceId, type });
      },
    );
  }

  app.delete(
    '/campaigns/campaign-resource/:type/:resource_id/:campaign_id',
    route({ params: campaignResourceParams, response: { 200: campaignResourceLink } }),
    async (request) => {
      const { type, resource_id: resourceId, campaign_id: campaignId } = request.params;
      request.staffAudit = true;
      await removeCampaignResource({ actor: actorOf(request), db, campaignId, type, resourceId });
      request.audited = { target: { type: 'campaign', id: campaignId }, details: { removed_resource: { type, resource_id: resourceId } } };
      return { campaign_id: campaignId, resource_id: resourceId, type };
    },
  );

  // The users page's pickers (not in spec §7): members and groups of the organization without a grant yet.
  app.get(
    '/campaigns/:id/access-candidates',
    route({ params: campaignIdParams, querystring: campaignAccessCandidatesQuery, response: { 200: campaignAccessCandidatesResponse } }),
    async (request) => campaignAccessCandidates({ actor: actorOf(request), db, campaignId: request.params.id, query: request.query.query }),
  );

  app.post(
    '/campaigns/give-access/:campaign_id',
    route({ params: campaignAccessParams, body: campaignAccessRequest, response: { 201: campaignAccessResponse } }),
    async (request, reply) => {
      const campaignId = request.params.campaign_id;
      const { user_id: userId, group_id: groupId } = request.body;
      request.staffAudit = true;
      await giveCampaignAccess({ actor: actorOf(request), db, campaignId, userId, groupId });
      request.audited = { target: { type: 'campaign', id: campaignId }, details: { granted: { user_id: userId ?? null, group_id: groupId ?? null } } };
      return reply.status(201).send({ campaign_id: campaignId, user_id: userId ?? null, group_id: groupId ?? null });
    },
  );

  app.post(
    '/campaigns/revoke-access/:campaign_id',
    route({ params: campaignAccessParams, body: campaignAccessRequest, response: { 200: campaignAccessResponse } }),
    async (request) => {
      const campaignId = request.params.campaign_id;
      const { user_id: userId, group_id: groupId } = request.body;
      request.staffAudit = true;
      await revokeCampaignAccess({ actor: actorOf(request), db, campaignId, userId, groupId });
      request.audited = { target: { type: 'campaign', id: campaignId }, details: { revoked: { user_id: userId ?? null, group_id: groupId ?? null } } };
      return { campaign_id: campaignId, user_id: userId ?? null, group_id: groupId ?? null };
    },
  );
}
