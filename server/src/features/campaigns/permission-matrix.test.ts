// The permission matrix of campaigns (issue 15 acceptance; spec part 2 §6; docs/decisions.md "Campaigns"):
// every /api/campaigns operation of the OpenAPI document must have a row here — a new route without one
// fails — and each row is called, on a fresh campaign owned by a Manager, as the organization's Admin, the
// owning Manager, another Manager, a Member granted directly, a Member granted through a group, a Member
// without a grant, a stranger to the organization, a staff manager who is a Member there, a staff admin who
// is not a member, and anonymously. Statuses are exact: success, 403 (sees it, may not change it) or 404
// (the organization or the campaign does not exist for the caller).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignGroups, campaignResources, campaigns, campaignUsers, groups, groupUsers, templates } from '../../db/schema';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

const ROLES = ['admin', 'owner', 'manager', 'memberDirect', 'memberGroup', 'member', 'nonMember', 'staffMember', 'staffAdmin', 'anonymous'] as const;
type Role = (typeof ROLES)[number];

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: object;
}

/** Sees it and may change it: Admin, owner, staff; 403 for granted Members; 404 for everyone else. */
const write = (ok: number): Record<Role, number> => ({
  admin: ok,
  owner: ok,
  manager: 404,
  memberDirect: 403,
  memberGroup: 403,
  member: 404,
  nonMember: 404,
  staffMember: ok,
  staffAdmin: ok,
  anonymous: 401,
});
const read: Record<Role, number> = { ...write(200), memberDirect: 200, memberGroup: 200 };

describe('campaigns permission matrix', () => {
  let t: TestApp;
  const cast = {} as Record<Exclude<Role, 'anonymous'>, BuiltUser>;
  let organizationId: number;
  let groupId: number;
  let linkedTemplateId: number;
  let freeTemplateId: number;

  beforeAll(async () => {
    t = await createTestApp();
    for (const role of ROLES) {
      if (role === 'anonymous') continue;
      cast[role] = await buildUser(t.ctx, role === 'staffMember' ? { staffRole: 'manager' } : role === 'staffAdmin' ? { staffRole: 'admin' } : {});
    }
    organizationId = (
      await buildOrganization(t.ctx, [
        { user: cast.admin, role: 'admin' },
        { user: cast.owner, role: 'manager' },
        { user: cast.manager, role: 'manager' },
        { user: cast.memberDirect, role: 'member' },
        { user: cast.memberGroup, role: 'member' },
        { user: cast.member, role: 'member' },
        { user: cast.staffMember, role: 'member' },
      ])
    ).organizationId;
    await buildOrganization(t.ctx, [{ user: cast.nonMember, role: 'admin' }]);
    [{ groupId }] = await t.ctx.db.insert(groups).values({ organizationId, name: 'Writers' }).returning();
    await t.ctx.db.insert(groupUsers).values({ groupId, userId: cast.memberGroup.user.userId });
    [{ templateId: linkedTemplateId }, { templateId: freeTemplateId }] = await t.ctx.db
      .insert(templates)
      .values([
        { userId: cast.admin.user.userId, organizationId, name: 'Linked', content: 'x' },
        { userId: cast.admin.user.userId, organizationId, name: 'Free', content: 'y' },
      ])
      .returning();
  });
  afterAll(async () => t.close());

  /** A fresh campaign owned by the Manager, granted to one Member and to the group, with one template. */
  async function freshCampaign() {
    const [c] = await t.ctx.db.insert(campaigns).values({ organizationId, userId: cast.owner.user.userId, name: 'Fresh' }).returning();
    await t.ctx.db.insert(campaignUsers).values({ campaignId: c.campaignId, userId: cast.memberDirect.user.userId });
    await t.ctx.db.insert(campaignGroups).values({ campaignId: c.campaignId, groupId });
    await t.ctx.db.insert(campaignResources).values({ campaignId: c.campaignId, resourceId: linkedTemplateId, type: 'template' });
    return c.campaignId;
  }

  const MATRIX: Record<string, { call: (id: number) => Call; expected: Record<Role, number> }> = {
    'GET /api/campaigns/organization/{orgRef}': {
      call: () => ({ method: 'GET', url: `/api/campaigns/organization/${organizationId}query?query=&sortBy=name_asc` }),
      expected: { ...read, manager: 200, member: 200 },
    },
    'GET /api/campaigns/{id}': { call: (id) => ({ method: 'GET', url: `/api/campaigns/${id}` }), expected: read },
    'GET /api/campaigns/{id}/resources': { call: (id) => ({ method: 'GET', url: `/api/campaigns/${id}/resources?resources=template&query=` }), expected: read },
    'GET /api/campaigns/{id}/candidates': { call: (id) => ({ method: 'GET', url: `/api/campaigns/${id}/candidates?resources=template` }), expected: write(200) },
    'POST /api/campaigns/{id}/documents': { call: (id) => ({ method: 'POST', url: `/api/campaigns/${id}/documents`, payload: { name: 'Made here' } }), expected: write(201) },
    'GET /api/campaigns/{id}/access-candidates': { call: (id) => ({ method: 'GET', url: `/api/campaigns/${id}/access-candidates` }), expected: write(200) },
    'POST /api/campaigns': {
      call: () => ({ method: 'POST', url: '/api/campaigns', payload: { organization_id: organizationId, name: 'New' } }),
      expected: { ...write(201), manager: 201, memberDirect: 403, memberGroup: 403, member: 403 },
    },
    'PUT /api/campaigns': { call: (id) => ({ method: 'PUT', url: '/api/campaigns', payload: { campaign_id: id, name: 'Renamed' } }), expected: write(200) },
    'DELETE /api/campaigns/campaign/{id}': { call: (id) => ({ method: 'DELETE', url: `/api/campaigns/campaign/${id}` }), expected: write(200) },
    'POST /api/campaigns/campaign-resource/': {
      call: (id) => ({ method: 'POST', url: '/api/campaigns/campaign-resource/', payload: { campaign_id: id, resource_id: freeTemplateId, type: 'template' } }),
      expected: write(201),
    },
    'PUT /api/campaigns/campaign-resource/': {
      call: (id) => ({ method: 'PUT', url: '/api/campaigns/campaign-resource/', payload: { campaign_id: id, resource_id: freeTemplateId, type: 'template' } }),
      expected: write(201),
    },
    'DELETE /api/campaigns/campaign-resource/{type}/{resource_id}/{campaign_id}': {
      call: (id) => ({ method: 'DELETE', url: `/api/campaigns/campaign-resource/template/${linkedTemplateId}/${id}` }),
      expected: write(200),
    },
    'POST /api/campaigns/give-access/{campaign_id}': {
      call: (id) => ({ method: 'POST', url: `/api/campaigns/give-access/${id}`, payload: { user_id: cast.member.user.userId } }),
      expected: write(201),
    },
    'POST /api/campaigns/revoke-access/{campaign_id}': {
      call: (id) => ({ method: 'POST', url: `/api/campaigns/revoke-access/${id}`, payload: { group_id: groupId } }),
      expected: write(200),
    },
  };

  it('has a row for every campaigns route the app serves', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    const served: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!/^\/api\/campaigns(\/|$)/.test(path)) continue;
      for (const method of Object.keys(operations)) if (['get', 'post', 'put', 'delete', 'patch'].includes(method)) served.push(`${method.toUpperCase()} ${path}`);
    }
    expect(served.sort()).toEqual(Object.keys(MATRIX).sort());
  });

  for (const [operation, row] of Object.entries(MATRIX)) {
    it(operation, async () => {
      const got = {} as Record<Role, number>;
      for (const role of ROLES) {
        const c = row.call(await freshCampaign());
        const headers = role === 'anonymous' ? {} : cast[role].auth;
        const res = await t.app.inject({ method: c.method, url: c.url, headers, ...(c.payload ? { payload: c.payload } : {}) });
        got[role] = res.statusCode;
      }
      expect(got).toEqual(row.expected);
    });
  }
});
