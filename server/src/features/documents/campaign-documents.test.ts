// GET /documents/{id}/campaigns/{campaignId} and PUT /documents?campaign_id= through the real app and database
// (spec part 2 §2 "Campaign document page", §6, §7 "Documents"; docs/decisions.md "Documents", "Campaigns"):
// a Member granted the campaign reads a document it links, read-only; the author may edit it; an ungranted
// Member, a document the campaign does not link, another campaign, another organization and Personal all
// answer 404. The role matrix of reading and editing through a campaign: Admin, Managers seeing or not
// seeing it, Members granted (directly, through a group) or not, the author as a Member, a non-member, staff.
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groups, groupUsers } from '../../db/schema';
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

  describe('the role matrix of a campaign document', () => {
    let admin: BuiltUser;
    let owner: BuiltUser; // Manager who made the campaign
    let grantedManager: BuiltUser;
    let otherManager: BuiltUser;
    let writer: BuiltUser; // a Member, the document's author, granted through the group
    let member: BuiltUser; // granted directly
    let groupMember: BuiltUser;
    let plainMember: BuiltUser;
    let staffMember: BuiltUser; // staff role manager, a Member of the organization
    let staffAdmin: BuiltUser; // staff admin, not a member (acts as the organization's Admin)
    let stranger: BuiltUser;
    let orgId: number;
    let strangerOrgId: number;
    let campaignId: number;
    let otherCampaignId: number;
    let documentId: number;
    let unlinkedId: number;

    const q = (extra = '') => `?organization_id=${orgId}${extra}`;
    const send = (who: BuiltUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
    const blocksOf = (text: string) => [{ type: 'paragraph', props: {}, content: [{ type: 'text', text, styles: {} }], children: [] }];
    const save = (who: BuiltUser, text: string, { campaign = campaignId as number | string | null, doc = documentId } = {}) =>
      send(who, 'PUT', `/api/documents${q(campaign === null ? '' : `&campaign_id=${campaign}`)}`, { document_id: doc, blocks: blocksOf(text), content: `<p>${text}</p>` });
    const read = (who: BuiltUser, campaign = campaignId, doc = documentId) => send(who, 'GET', `/api/documents/${doc}/campaigns/${campaign}${q()}`);

    beforeAll(async () => {
      admin = await buildUser(t.ctx, { name: 'Ada', access: true });
      owner = await buildUser(t.ctx, { name: 'Omar', access: true });
      grantedManager = await buildUser(t.ctx, { name: 'Gema', access: true });
      otherManager = await buildUser(t.ctx, { name: 'Otto', access: true });
      writer = await buildUser(t.ctx, { name: 'Wendy', access: true });
      member = await buildUser(t.ctx, { name: 'Mia', access: true });
      groupMember = await buildUser(t.ctx, { name: 'Gus', access: true });
      plainMember = await buildUser(t.ctx, { name: 'Pablo', access: true });
      staffMember = await buildUser(t.ctx, { name: 'Sam', access: true, staffRole: 'manager' });
      staffAdmin = await buildUser(t.ctx, { name: 'Sara', access: true, staffRole: 'admin' });
      stranger = await buildUser(t.ctx, { name: 'Xena', access: true });
      orgId = (
        await buildOrganization(t.ctx, [
          { user: admin, role: 'admin' },
          { user: owner, role: 'manager' },
          { user: grantedManager, role: 'manager' },
          { user: otherManager, role: 'manager' },
          { user: writer, role: 'member' },
          { user: member, role: 'member' },
          { user: groupMember, role: 'member' },
          { user: plainMember, role: 'member' },
          { user: staffMember, role: 'member' },
        ])
      ).organizationId;
      strangerOrgId = (await buildOrganization(t.ctx, [{ user: stranger, role: 'admin' }])).organizationId;
      const [{ groupId }] = await t.ctx.db.insert(groups).values({ organizationId: orgId, name: 'Writers' }).returning();
      await t.ctx.db.insert(groupUsers).values([
        { groupId, userId: writer.user.userId },
        { groupId, userId: groupMember.user.userId },
      ]);
      const made = async (who: BuiltUser, method: 'POST', url: string, payload: object) => {
        const res = await send(who, method, url, payload);
        expect(res.statusCode, res.body).toBeLessThan(300);
        return res.json();
      };
      campaignId = (await made(owner, 'POST', `/api/campaigns${q()}`, { organization_id: orgId, name: 'Spring' })).campaign_id;
      otherCampaignId = (await made(admin, 'POST', `/api/campaigns${q()}`, { organization_id: orgId, name: 'Autumn' })).campaign_id;
      documentId = (await made(writer, 'POST', `/api/documents${q()}`, { name: 'Plan', blocks: blocksOf('First'), content: '<p>First</p>' })).document_id;
      unlinkedId = (await made(writer, 'POST', `/api/documents${q()}`, { name: 'Notes', blocks: blocksOf('Mine'), content: '<p>Mine</p>' })).document_id;
      await made(owner, 'POST', `/api/campaigns/campaign-resource/${q()}`, { campaign_id: campaignId, resource_id: documentId, type: 'document' });
      await made(owner, 'POST', `/api/campaigns/give-access/${campaignId}${q()}`, { group_id: groupId });
      await made(owner, 'POST', `/api/campaigns/give-access/${campaignId}${q()}`, { user_id: member.user.userId });
      await made(owner, 'POST', `/api/campaigns/give-access/${campaignId}${q()}`, { user_id: grantedManager.user.userId });
      // Granted the other campaign, which does not link the document.
      await made(admin, 'POST', `/api/campaigns/give-access/${otherCampaignId}${q()}`, { user_id: plainMember.user.userId });
    });

    const author = { edit: true, delete: true, export: true };
    const editor = { edit: true, delete: false, export: false };
    const reader = { edit: false, delete: false, export: false };
    const rows: [string, () => BuiltUser, number, typeof author | null, number][] = [
      ['the Admin', () => admin, 200, editor, 200],
      ['the Manager who owns the campaign', () => owner, 200, editor, 200],
      ['a Manager granted the campaign', () => grantedManager, 200, editor, 200],
      ['a Manager who does not see the campaign', () => otherManager, 404, null, 404],
      ['the author, a Member granted through a group', () => writer, 200, author, 200],
      ['a Member granted directly', () => member, 200, reader, 403],
      ['a Member granted through a group', () => groupMember, 200, reader, 403],
      ['a Member granted only another campaign', () => plainMember, 404, null, 404],
      ['staff who are Members of the organization', () => staffMember, 200, editor, 200],
      ['a staff admin who is not a member', () => staffAdmin, 200, editor, 200],
      ['a stranger to the organization', () => stranger, 404, null, 404],
    ];
    it.each(rows)('%s: read %i, edit %i through the campaign', async (_who, who, readStatus, abilities, editStatus) => {
      const res = await read(who());
      expect(res.statusCode, res.body).toBe(readStatus);
      if (abilities) expect(res.json().abilities).toEqual(abilities);
      const text = `Edited by ${who().user.userId}`;
      const saved = await save(who(), text);
      expect(saved.statusCode, saved.body).toBe(editStatus);
      if (editStatus === 200) {
        // Saved through the campaign, still the author's document, with the abilities it has there.
        expect(saved.json()).toMatchObject({ document_id: documentId, user_id: writer.user.userId, organization_id: orgId, content: `<p>${text}</p>`, abilities });
        expect((await read(admin)).json().content).toBe(`<p>${text}</p>`);
      } else {
        expect((await read(admin)).json().content).not.toBe(`<p>${text}</p>`);
      }
    });

    it('keeps everything else as it was: no campaign named, another campaign, an unlinked document, deleting, another organization', async () => {
      // Without campaign_id only the author's own routes apply.
      expect((await save(admin, 'x', { campaign: null })).statusCode).toBe(404);
      expect((await send(admin, 'GET', `/api/documents/${documentId}${q()}`)).statusCode).toBe(404);
      expect((await send(admin, 'DELETE', `/api/documents/${documentId}${q()}`)).statusCode).toBe(404);
      expect((await send(admin, 'GET', `/api/documents/doc-converted/${documentId}${q()}`)).statusCode).toBe(404);
      // A campaign that does not link it (the Admin sees it), one that does not exist, one that is not an id.
      expect((await save(admin, 'x', { campaign: otherCampaignId })).statusCode).toBe(404);
      expect((await save(admin, 'x', { campaign: 999_999 })).statusCode).toBe(404);
      expect((await save(admin, 'x', { campaign: 'abc' })).statusCode).toBe(400);
      // The campaign does not link this other document of the author.
      expect((await save(admin, 'x', { doc: unlinkedId })).statusCode).toBe(404);
      // The stranger's own organization and Personal do not reach it.
      const strangerSave = await send(stranger, 'PUT', `/api/documents?organization_id=${strangerOrgId}&campaign_id=${campaignId}`, { document_id: documentId, name: 'Taken' });
      expect(strangerSave.statusCode).toBe(404);
      expect((await send(admin, 'PUT', `/api/documents?campaign_id=${campaignId}`, { document_id: documentId, name: 'Taken' })).statusCode).toBe(404);
      // The body's organization must agree with the query's.
      expect((await send(admin, 'PUT', `/api/documents${q(`&campaign_id=${campaignId}`)}`, { document_id: documentId, name: 'Taken', organization_id: strangerOrgId })).statusCode).toBe(400);
      // The 65000 rule holds through the campaign too.
      const long = 'a'.repeat(65_000);
      const tooLong = await save(admin, long);
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json().message).toBe('The file length is too large, please remove text to save');
      expect((await read(admin)).json().name).toBe('Plan');
      // A Member's 'Save as my document' from the campaign page: Personal, the organization left out of the query.
      const mine = await send(member, 'POST', '/api/documents?organization_id=', { name: 'Plan', organization_id: null, blocks: blocksOf('Copy'), content: '<p>Copy</p>' });
      expect(mine.statusCode, mine.body).toBe(201);
      expect(mine.json()).toMatchObject({ organization_id: null, user_id: member.user.userId, abilities: author });
      expect((await send(member, 'GET', `/api/documents/${mine.json().document_id}`)).statusCode).toBe(200);
      expect((await send(member, 'GET', `/api/documents/${mine.json().document_id}${q()}`)).statusCode).toBe(404);
    });

    it("exports a Member's unsaved copy as Word (POST /documents/doc-converted): the blocks made safe, nothing stored", async () => {
      const blocks = [
        ...blocksOf('Copied words'),
        { type: 'paragraph', content: [{ type: 'link', href: 'javascript:alert(1)', content: [{ type: 'text', text: 'bad link', styles: {} }] }], children: [] },
      ];
      const res = await send(member, 'POST', `/api/documents/doc-converted${q()}`, { name: 'Plan: copy', blocks });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
      expect(res.headers['content-disposition']).toContain('Plan  copy.docx');
      const files = unzipSync(new Uint8Array(res.rawPayload));
      expect(strFromU8(files['word/document.xml'])).toContain('Copied words');
      expect(strFromU8(files['word/document.xml'])).toContain('bad link');
      expect(Object.values(files).map((f) => strFromU8(f)).join('')).not.toContain('javascript:');
      expect((await send(member, 'POST', `/api/documents/doc-converted${q()}`, { name: ' ', blocks })).statusCode).toBe(400);
      expect((await send(member, 'POST', `/api/documents/doc-converted${q()}`, { name: 'x', blocks: 'nope' })).statusCode).toBe(400);
      expect((await t.app.inject({ method: 'POST', url: '/api/documents/doc-converted', payload: { name: 'x', blocks } })).statusCode).toBe(401);
      // A stranger to the organization cannot act in it.
      expect((await send(stranger, 'POST', `/api/documents/doc-converted${q()}`, { name: 'x', blocks })).statusCode).toBe(404);
    });

    it('saves concurrent edits one after the other and stops once the campaign no longer links the document', async () => {
      const [a, b] = await Promise.all([save(admin, 'From Ada'), save(owner, 'From Omar')]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect(['<p>From Ada</p>', '<p>From Omar</p>']).toContain((await read(member)).json().content);
      const removed = await send(owner, 'DELETE', `/api/campaigns/campaign-resource/document/${documentId}/${campaignId}${q()}`);
      expect(removed.statusCode, removed.body).toBeLessThan(300);
      expect((await save(admin, 'Late')).statusCode).toBe(404);
      expect((await read(admin)).statusCode).toBe(404);
      // The author keeps their document.
      expect((await send(writer, 'GET', `/api/documents/${documentId}${q()}`)).statusCode).toBe(200);
    });
  });
});
