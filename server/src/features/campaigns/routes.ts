// /api/campaigns (spec part 2 §7 "Campaigns", every call). Thin: authenticate → organizations_enabled gate →
// validate → policy.ts → service → present. Rights: docs/decisions.md "Campaigns". Changes are audited.
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
import { badRequest, forbidden } from '../../platform/http/errors';
import { organizationsEnabledGate } from '../organizations';
import { readCampaignForm } from './multipart';
import { campaignOrganization, canCreate, requireCampaign } from './policy';
import { presentCampaign, presentCampaignDetail } from './present';
import {
  addCampaignResource,
  campaignAccessCandidates,
  campaignCandidates,
  campaignGrants,
  createCampaign,
  deleteCampaign,
  giveCampaignAccess,
  listCampaignResources,
  listCampaigns,
  readCampaign,
  removeCampaignResource,
  revokeCampaignAccess,
  updateCampaign,
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
    const actor = actorOf(request);
    const access = await campaignOrganization(db, actor, Number.parseInt(request.params.orgRef, 10));
    const { rows, total } = await listCampaigns({ db, actor, access, query: request.query });
    return { campaigns: rows.map((row) => presentCampaign(actor, access, row)), total };
  });

  // The campaign with its grants (the users page; not in spec §7, whose clients read them from the list).
  app.get('/campaigns/:id', route({ params: campaignIdParams, response: { 200: campaignDetail } }), async (request) => {
    const actor = actorOf(request);
    const { campaign, access } = await requireCampaign(db, actor, request.params.id, 'read');
    return presentCampaignDetail(actor, access, await readCampaign(db, campaign.campaignId), await campaignGrants(db, campaign));
  });

  app.get(
    '/campaigns/:id/resources',
    route({ params: campaignIdParams, querystring: campaignResourcesQuery, response: { 200: campaignResourceList } }),
    async (request) => {
      const { campaign } = await requireCampaign(db, actorOf(request), request.params.id, 'read');
      const { rows, total } = await listCampaignResources({ db, campaign, query: request.query });
      return { resources: rows, total };
    },
  );

  // The "Add" picker of the campaign page (not in spec §7): for who may add resources.
  app.get(
    '/campaigns/:id/candidates',
    route({ params: campaignIdParams, querystring: campaignCandidatesQuery, response: { 200: campaignCandidatesResponse } }),
    async (request) => {
      const { campaign } = await requireCampaign(db, actorOf(request), request.params.id, 'manage_resources');
      return { resources: await campaignCandidates({ db, campaign, type: request.query.resources, query: request.query.query }) };
    },
  );

  app.post('/campaigns', route({ consumes: formTypes, response: { 201: campaignResponse } }), async (request, reply) => {
    const actor = actorOf(request);
    const form = await readCampaignForm(request);
    const input = parseForm(createCampaignRequest, form.campaign);
    const access = await campaignOrganization(db, actor, input.organization_id);
    if (!canCreate(actor, access)) throw forbidden();
    request.staffAudit = true;
    const created = await createCampaign({ ctx, actor, organizationId: access.organizationId, input, thumbnail: form.thumbnail });
    request.audited = { target: { type: 'campaign', id: created.campaignId }, details: { organization_id: created.organizationId, name: created.name } };
    return reply.status(201).send(presentCampaign(actor, access, await readCampaign(db, created.campaignId)));
  });

  app.put('/campaigns', route({ consumes: formTypes, response: { 200: campaignResponse } }), async (request) => {
    const actor = actorOf(request);
    const form = await readCampaignForm(request);
    const input = parseForm(updateCampaignRequest, form.campaign);
    const { campaign: before, access } = await requireCampaign(db, actor, input.campaign_id, 'update');
    // A campaign stays in its organization: naming another one finds no such campaign.
    if (input.organization_id !== undefined && input.organization_id !== before.organizationId) throw badRequest('campaign_organization_required');
    request.staffAudit = true;
    const updated = await updateCampaign({ ctx, actor, campaign: before, input, thumbnail: form.thumbnail });
    request.audited = { target: { type: 'campaign', id: updated.campaignId }, changes: { name: { from: before.name, to: updated.name } } };
    return presentCampaign(actor, access, await readCampaign(db, updated.campaignId));
  });

  app.delete('/campaigns/campaign/:id', route({ params: campaignIdParams, response: { 200: campaignDeletedResponse } }), async (request) => {
    const { campaign } = await requireCampaign(db, actorOf(request), request.params.id, 'delete');
    request.staffAudit = true;
    await deleteCampaign({ db, campaignId: campaign.campaignId });
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
        const { campaign } = await requireCampaign(db, actorOf(request), campaignId, 'manage_resources');
        request.staffAudit = true;
        const { created } = await addCampaignResource({ db, campaign, type, resourceId, idempotent: method === 'put' });
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
      const { campaign } = await requireCampaign(db, actorOf(request), campaignId, 'manage_resources');
      request.staffAudit = true;
      await removeCampaignResource({ db, campaign, type, resourceId });
      request.audited = { target: { type: 'campaign', id: campaignId }, details: { removed_resource: { type, resource_id: resourceId } } };
      return { campaign_id: campaignId, resource_id: resourceId, type };
    },
  );

  // The users page's pickers (not in spec §7): members and groups of the organization without a grant yet.
  app.get(
    '/campaigns/:id/access-candidates',
    route({ params: campaignIdParams, querystring: campaignAccessCandidatesQuery, response: { 200: campaignAccessCandidatesResponse } }),
    async (request) => {
      const { campaign } = await requireCampaign(db, actorOf(request), request.params.id, 'manage_access');
      return campaignAccessCandidates({ db, campaign, query: request.query.query });
    },
  );

  app.post(
    '/campaigns/give-access/:campaign_id',
    route({ params: campaignAccessParams, body: campaignAccessRequest, response: { 201: campaignAccessResponse } }),
    async (request, reply) => {
      const { campaign } = await requireCampaign(db, actorOf(request), request.params.campaign_id, 'manage_access');
      const { user_id: userId, group_id: groupId } = request.body;
      request.staffAudit = true;
      await giveCampaignAccess({ db, campaign, userId, groupId });
      request.audited = { target: { type: 'campaign', id: campaign.campaignId }, details: { granted: { user_id: userId ?? null, group_id: groupId ?? null } } };
      return reply.status(201).send({ campaign_id: campaign.campaignId, user_id: userId ?? null, group_id: groupId ?? null });
    },
  );

  app.post(
    '/campaigns/revoke-access/:campaign_id',
    route({ params: campaignAccessParams, body: campaignAccessRequest, response: { 200: campaignAccessResponse } }),
    async (request) => {
      const { campaign } = await requireCampaign(db, actorOf(request), request.params.campaign_id, 'manage_access');
      const { user_id: userId, group_id: groupId } = request.body;
      request.staffAudit = true;
      await revokeCampaignAccess({ db, campaign, userId, groupId });
      request.audited = { target: { type: 'campaign', id: campaign.campaignId }, details: { revoked: { user_id: userId ?? null, group_id: groupId ?? null } } };
      return { campaign_id: campaign.campaignId, user_id: userId ?? null, group_id: groupId ?? null };
    },
  );
}
