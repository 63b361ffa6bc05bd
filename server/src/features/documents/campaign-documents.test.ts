// GET /documents/{id}/campaigns/{campaignId} through the real app and database (spec part 2 §2 "Campaign
// document page", §7 "Documents"; docs/decisions.md "Documents", "Campaigns"): a Member granted the campaign
// reads a document it links, read-only; the author may edit it; an ungranted Member, a document the campaign
// does not link, another campaign, another organization and Personal all answer 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';

describe(`campaign documents API (${testDbKind()})`, () => {
  let t: TestApp;
  let author: BuiltUser; // the organization's Admin, who writes the document
  let granted: BuiltUser;
  let ungranted: BuiltUser;
  let outsider: BuiltUser;
  let organizationId: number;
  let otherOrganizationId: number;

  const call = (who: BuiltUser, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
  const ok = async (who: BuiltUser, method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await call(who, method, url, payload);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json();
  };
  const inOrg = (id = organizationId) => `?organization_id=${id}`;
  const newDocument = (who: BuiltUser, name: string, orgId = organizationId) =>
    ok(who, 'POST', `/api/documents${inOrg(orgId)}`, {
      name,
      organization_id: orgId,
      blocks: [{ type: 'paragraph', props: {}, content: [{ type: 'text', text: `${name} text`, styles: {} }], children: [] }],
      content: `<p>${name} text</p>`,
    });
  const link = (campaignId: number, documentId: number) =>
    ok(author, 'POST', `/api/campaigns/campaign-resource/${inOrg()}`, { campaign_id: campaignId, resource_id: documentId, type: 'document' });

  beforeAll(async () => {
    t = await createTestApp();
    author = await buildUser(t.ctx, { name: 'Ana', access: true });
    granted = await buildUser(t.ctx, { name: 'Gina', access: true });
    ungranted = await buildUser(t.ctx, { name: 'Pia', access: true });
    outsider = await buildUser(t.ctx, { name: 'Zoe', access: true });
    organizationId = (
      await buildOrganization(t.ctx, [
        { user: author, role: 'admin' },
        { user: granted, role: 'member' },
        { user: ungranted, role: 'member' },
      ])
    ).organizationId;
    otherOrganizationId = (await buildOrganization(t.ctx, [{ user: outsider, role: 'admin' }])).organizationId;
  });
  afterAll(async () => t?.close());

  it('gives a granted Member the linked document read-only, the author with edit, and 404 to everyone else', async () => {
    const campaign = await ok(author, 'POST', `/api/campaigns${inOrg()}`, { organization_id: organizationId, name: 'Launch' });
    const otherCampaign = await ok(author, 'POST', `/api/campaigns${inOrg()}`, { organization_id: organizationId, name: 'Other' });
    const brief = await newDocument(author, 'Brief');
    const unlinked = await newDocument(author, 'Unlinked');
    await link(campaign.campaign_id, brief.document_id);
    await ok(author, 'POST', `/api/campaigns/give-access/${campaign.campaign_id}${inOrg()}`, { user_id: granted.user.userId });
    await ok(author, 'POST', `/api/campaigns/give-access/${otherCampaign.campaign_id}${inOrg()}`, { user_id: granted.user.userId });
    const url = (documentId: number, campaignId: number, orgId = organizationId) => `/api/documents/${documentId}/campaigns/${campaignId}${inOrg(orgId)}`;

    const read = await call(granted, 'GET', url(brief.document_id, campaign.campaign_id));
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ document_id: brief.document_id, name: 'Brief', content: '<p>Brief text</p>', organization_id: organizationId, user_id: author.user.userId });
    expect(read.json().blocks).toHaveLength(1);
    expect(read.json().abilities).toEqual({ edit: false, delete: false, export: false });
    // Read-only: the document's own routes stay the author's.
    expect((await call(granted, 'GET', `/api/documents/${brief.document_id}${inOrg()}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: `/api/documents${inOrg()}`, headers: granted.auth, payload: { document_id: brief.document_id, name: 'Taken' } })).statusCode).toBe(404);

    const byAuthor = await call(author, 'GET', url(brief.document_id, campaign.campaign_id));
    expect(byAuthor.statusCode).toBe(200);
    expect(byAuthor.json().abilities).toEqual({ edit: true, delete: true, export: true });

    // Not granted the campaign.
    expect((await call(ungranted, 'GET', url(brief.document_id, campaign.campaign_id))).statusCode).toBe(404);
    // A document the campaign does not link, or linked to another campaign than the one named.
    expect((await call(granted, 'GET', url(unlinked.document_id, campaign.campaign_id))).statusCode).toBe(404);
    expect((await call(granted, 'GET', url(brief.document_id, otherCampaign.campaign_id))).statusCode).toBe(404);
    expect((await call(granted, 'GET', url(brief.document_id, campaign.campaign_id + 10_000))).statusCode).toBe(404);
    // Another organization: its admin, and the granted Member acting in Personal.
    expect((await call(outsider, 'GET', url(brief.document_id, campaign.campaign_id, otherOrganizationId))).statusCode).toBe(404);
    expect((await call(outsider, 'GET', url(brief.document_id, campaign.campaign_id))).statusCode).toBe(404);
    expect((await call(granted, 'GET', `/api/documents/${brief.document_id}/campaigns/${campaign.campaign_id}`)).statusCode).toBe(404);
    const theirs = await newDocument(outsider, 'Theirs', otherOrganizationId);
    expect((await call(granted, 'GET', url(theirs.document_id, campaign.campaign_id))).statusCode).toBe(404);

    // Revoking the grant closes it again.
    await ok(author, 'POST', `/api/campaigns/revoke-access/${campaign.campaign_id}${inOrg()}`, { user_id: granted.user.userId });
    expect((await call(granted, 'GET', url(brief.document_id, campaign.campaign_id))).statusCode).toBe(404);
  });
});
