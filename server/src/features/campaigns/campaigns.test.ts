// Campaigns through the real app and database (spec part 2 §2 "Campaigns list", "Campaign detail", "Campaign
// users page"; §5; §6; §7 "Campaigns"; §9; docs/decisions.md "Campaigns"). The permission matrix: Admin,
// Manager (own and granted), Member with and without a grant (direct and through a group), a stranger to the
// organization, staff who are members, over the list, the reads and every write.
import { and, eq, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor';
import { sharedThroughCampaigns } from './policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignResources, campaigns, campaignUsers, documents, groups, groupUsers, templates } from '../../db/schema';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { multipartBody, pdfBytes, pngBytes } from '../files/test-fixtures';

describe('campaigns API', () => {
  let t: TestApp;
  let admin: BuiltUser;
  let manager: BuiltUser;
  let otherManager: BuiltUser;
  let grantedMember: BuiltUser;
  let groupMember: BuiltUser;
  let plainMember: BuiltUser;
  let staffMember: BuiltUser;
  let staffAdmin: BuiltUser;
  let outsider: BuiltUser;
  let organizationId: number;
  let otherOrganizationId: number;
  let groupId: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await buildUser(t.ctx, { name: 'Ana', lastName: 'Admin' });
    manager = await buildUser(t.ctx, { name: 'Mario', lastName: 'Manager' });
    otherManager = await buildUser(t.ctx, { name: 'Marta' });
    grantedMember = await buildUser(t.ctx, { name: 'Gina' });
    groupMember = await buildUser(t.ctx, { name: 'Gus' });
    plainMember = await buildUser(t.ctx, { name: 'Pia' });
    staffMember = await buildUser(t.ctx, { name: 'Sam', staffRole: 'manager' });
    staffAdmin = await buildUser(t.ctx, { name: 'Sara', staffRole: 'admin' });
    outsider = await buildUser(t.ctx, { name: 'Zoe' });
    organizationId = (
      await buildOrganization(t.ctx, [
        { user: admin, role: 'admin' },
        { user: manager, role: 'manager' },
        { user: otherManager, role: 'manager' },
        { user: grantedMember, role: 'member' },
        { user: groupMember, role: 'member' },
        { user: plainMember, role: 'member' },
        { user: staffMember, role: 'member' },
      ])
    ).organizationId;
    otherOrganizationId = (await buildOrganization(t.ctx, [{ user: outsider, role: 'admin' }])).organizationId;
    [{ groupId }] = await t.ctx.db.insert(groups).values({ organizationId, name: 'Writers' }).returning();
    await t.ctx.db.insert(groupUsers).values({ groupId, userId: groupMember.user.userId });
  });
  afterAll(async () => t.close());

  const call = (who: BuiltUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
  const form = (who: BuiltUser, method: 'POST' | 'PUT', campaign: object, thumbnail?: { name: string; bytes: Buffer }) => {
    const { payload, headers } = multipartBody(thumbnail ? { field: 'thumbnail', ...thumbnail } : null, { campaign: JSON.stringify(campaign) });
    return t.app.inject({ method, url: '/api/campaigns', headers: { ...who.auth, ...headers }, payload });
  };
  const list = async (who: BuiltUser, params = '') => {
    const res = await call(who, 'GET', `/api/campaigns/organization/${organizationId}query${params}`);
    return res.statusCode === 200 ? (res.json().campaigns as { campaign_id: number; name: string }[]).map((c) => c.name) : res.statusCode;
  };

  it('creates with a thumbnail through the multipart form, lists in the four sorts with search, edits and deletes', async () => {
    const created = await form(manager, 'POST', { organization_id: organizationId, name: ' Spring ', description: 'Launch' }, { name: 'cover.png', bytes: pngBytes() });
    expect(created.statusCode).toBe(201);
    const spring = created.json();
    expect(spring).toMatchObject({ name: 'Spring', description: 'Launch', organization_id: organizationId, user_id: manager.user.userId, user: { name: 'Mario', last_name: 'Manager' } });
    expect(spring.thumbnail).toMatch(/^\/api\/files\/[\w-]+\.png$/);
    expect((await t.app.inject({ method: 'GET', url: spring.thumbnail })).statusCode).toBe(200);

    const noOrganization = await form(manager, 'POST', { name: 'Lost' });
    expect(noOrganization.statusCode).toBe(400);
    expect(noOrganization.json().message).toBe('Please select an organization');
    const notImage = await form(manager, 'POST', { organization_id: organizationId, name: 'Pdf' }, { name: 'a.pdf', bytes: pdfBytes() });
    expect(notImage.statusCode).toBe(400);
    const noName = await form(manager, 'POST', { organization_id: organizationId, name: ' ' });
    expect(noName.json().message).toBe('Please add a name to your campaign.');
    // A plain JSON body works too (no thumbnail).
    const autumn = (await call(admin, 'POST', '/api/campaigns', { organization_id: organizationId, name: 'autumn' })).json();
    expect(autumn.thumbnail).toBeNull();
    const winter = (await form(admin, 'POST', { organization_id: organizationId, name: 'Winter' })).json();

    expect(await list(admin)).toEqual(['Winter', 'autumn', 'Spring']);
    expect(await list(admin, '?sortBy=name_asc')).toEqual(['autumn', 'Spring', 'Winter']);
    expect(await list(admin, '?sortBy=name_desc')).toEqual(['Winter', 'Spring', 'autumn']);
    expect(await list(admin, '?query=TUM')).toEqual(['autumn']);
    // The id alone works too.
    expect((await call(admin, 'GET', `/api/campaigns/organization/${organizationId}`)).json().total).toBe(3);

    const renamed = await form(admin, 'PUT', { campaign_id: autumn.campaign_id, name: 'Autumn', description: 'Leaves' }, { name: 'c.png', bytes: pngBytes() });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Autumn', description: 'Leaves' });
    expect(renamed.json().thumbnail).not.toBeNull();
    expect(await list(admin, '?sortBy=updatedAt_desc')).toEqual(['Autumn', 'Winter', 'Spring']);
    const cleared = await form(admin, 'PUT', { campaign_id: autumn.campaign_id, name: 'Autumn', remove_thumbnail: true });
    expect(cleared.json().thumbnail).toBeNull();

    expect((await call(admin, 'DELETE', `/api/campaigns/campaign/${winter.campaign_id}`)).statusCode).toBe(200);
    expect((await call(admin, 'GET', `/api/campaigns/${winter.campaign_id}`)).statusCode).toBe(404);
    await call(admin, 'DELETE', `/api/campaigns/campaign/${autumn.campaign_id}`);
    await call(admin, 'DELETE', `/api/campaigns/campaign/${spring.campaign_id}`);
    expect(await t.ctx.db.select().from(campaigns).where(eq(campaigns.organizationId, organizationId))).toHaveLength(0);
  });

  it('New document: a named, empty document made in the campaign’s organization and added to it; Add tells “none yet” from “all in” (issue 30 item 17)', async () => {
    const lead = await buildUser(t.ctx, { name: 'Lea' });
    const writer = await buildUser(t.ctx, { name: 'Wes' });
    const spanish = await buildUser(t.ctx, { name: 'Eva', lang: 'es' });
    const team = await buildOrganization(t.ctx, [
      { user: lead, role: 'admin' },
      { user: writer, role: 'member' },
      { user: spanish, role: 'manager' },
    ]);
    const c = (await call(lead, 'POST', '/api/campaigns', { organization_id: team.organizationId, name: 'Launch' })).json();
    const candidates = async () => (await call(lead, 'GET', `/api/campaigns/${c.campaign_id}/candidates?resources=document`)).json();
    // A new team: no document at all (not "every document is in the campaign already").
    expect(await candidates()).toEqual({ resources: [], organization_total: 0 });

    const created = await call(lead, 'POST', `/api/campaigns/${c.campaign_id}/documents`, { name: '  Launch plan  ' });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toEqual({ resource_id: expect.any(Number), campaign_id: c.campaign_id, type: 'document', name: 'Launch plan' });
    const [row] = await t.ctx.db.select().from(documents).where(eq(documents.documentId, body.resource_id));
    expect(row).toMatchObject({ userId: lead.user.userId, organizationId: team.organizationId, name: 'Launch plan', content: '', blocks: [] });
    const listed = (await call(lead, 'GET', `/api/campaigns/${c.campaign_id}/resources?resources=document`)).json();
    expect(listed.resources.map((r: { name: string }) => r.name)).toEqual(['Launch plan']);
    expect(await candidates()).toEqual({ resources: [], organization_total: 1 });

    // A name is required, in the user's language; a Member may not add; a stranger does not see the campaign.
    const before = (await t.ctx.db.select().from(documents).where(eq(documents.organizationId, team.organizationId))).length;
    const unnamed = await call(lead, 'POST', `/api/campaigns/${c.campaign_id}/documents`, { name: '   ' });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().message).toBe('Please give the document a name.');
    expect((await call(spanish, 'POST', `/api/campaigns/${c.campaign_id}/documents`, {})).json().message).toBe('Por favor ponle un nombre al documento.');
    // A Member who does not see the campaign: 404; granted it, they read but may not add (403).
    expect((await call(writer, 'POST', `/api/campaigns/${c.campaign_id}/documents`, { name: 'Sneaky' })).statusCode).toBe(404);
    expect((await call(lead, 'POST', `/api/campaigns/give-access/${c.campaign_id}`, { user_id: writer.user.userId })).statusCode).toBe(201);
    expect((await call(writer, 'POST', `/api/campaigns/${c.campaign_id}/documents`, { name: 'Sneaky' })).statusCode).toBe(403);
    expect((await call(outsider, 'POST', `/api/campaigns/${c.campaign_id}/documents`, { name: 'Sneaky' })).statusCode).toBe(404);
    expect((await call(admin, 'POST', `/api/campaigns/${c.campaign_id}/documents`, { name: 'Sneaky' })).statusCode).toBe(404);
    expect(await t.ctx.db.select().from(documents).where(eq(documents.organizationId, team.organizationId))).toHaveLength(before);
  });

  it('links the organization’s templates and documents, lists them by type with search, and unlinks them', async () => {
    const c = (await call(manager, 'POST', '/api/campaigns', { organization_id: organizationId, name: 'Resources' })).json();
    const [template] = await t.ctx.db.insert(templates).values({ userId: admin.user.userId, organizationId, name: 'Press release', content: 'Write [topic]' }).returning();
    const [personalTemplate] = await t.ctx.db.insert(templates).values({ userId: manager.user.userId, name: 'Mine', content: 'x' }).returning();
    const [document] = await t.ctx.db.insert(documents).values({ userId: manager.user.userId, organizationId, name: 'Brief' }).returning();
    const [foreignDocument] = await t.ctx.db.insert(documents).values({ userId: outsider.user.userId, organizationId: otherOrganizationId, name: 'Theirs' }).returning();

    const candidates = async (type: string) => ((await call(manager, 'GET', `/api/campaigns/${c.campaign_id}/candidates?resources=${type}`)).json().resources as { name: string }[]).map((r) => r.name);
    expect(await candidates('template')).toContain('Press release');
    expect(await candidates('template')).not.toContain('Mine');
    expect(await candidates('document')).toEqual(['Brief']);
    const add = (who: BuiltUser, body: object, method: 'POST' | 'PUT' = 'POST') => call(who, method, '/api/campaigns/campaign-resource/', body);
    expect((await add(manager, { campaign_id: c.campaign_id, resource_id: template.templateId, type: 'template' })).statusCode).toBe(201);
    expect((await add(manager, { campaign_id: c.campaign_id, resource_id: document.documentId, type: 'document' })).statusCode).toBe(201);
    expect((await add(manager, { campaign_id: c.campaign_id, resource_id: template.templateId, type: 'template' })).statusCode).toBe(409);
    expect((await add(manager, { campaign_id: c.campaign_id, resource_id: template.templateId, type: 'template' }, 'PUT')).statusCode).toBe(200);
    expect(await candidates('template')).not.toContain('Press release');
    const noCampaign = await add(manager, { resource_id: template.templateId, type: 'template' });
    expect(noCampaign.statusCode).toBe(400);
    expect(noCampaign.json().message).toBe('Please select a campaign');
    // Only the campaign organization's own resources.
    expect((await add(manager, { campaign_id: c.campaign_id, resource_id: personalTemplate.templateId, type: 'template' })).statusCode).toBe(400);
    expect((await add(manager, { campaign_id: c.campaign_id, resource_id: foreignDocument.documentId, type: 'document' })).statusCode).toBe(400);
    expect((await add(manager, { campaign_id: c.campaign_id, resource_id: document.documentId, type: 'video' })).statusCode).toBe(400);

    const resources = async (type: string, query = '') => (await call(manager, 'GET', `/api/campaigns/${c.campaign_id}/resources?resources=${type}&query=${query}`)).json();
    expect(await resources('template')).toMatchObject({ total: 1, resources: [{ resource_id: template.templateId, type: 'template', name: 'Press release' }] });
    expect(await resources('document')).toMatchObject({ total: 1, resources: [{ resource_id: document.documentId, type: 'document', name: 'Brief' }] });
    expect((await resources('template', 'zzz')).total).toBe(0);
    // Totals stop at the cap (100 when searching), exact below it; pages of 100.
    const bulk = await t.ctx.db.insert(documents).values(Array.from({ length: 101 }, (_, i) => ({ userId: manager.user.userId, organizationId, name: `Bulk ${String(i).padStart(3, '0')}` }))).returning();
    await t.ctx.db.insert(campaignResources).values(bulk.map((d) => ({ campaignId: c.campaign_id, resourceId: d.documentId, type: 'document' as const })));
    expect(await resources('document')).toMatchObject({ total: 102, total_capped: false });
    expect(await resources('document', 'bulk')).toMatchObject({ total: 100, total_capped: true });
    const secondPage = (await call(manager, 'GET', `/api/campaigns/${c.campaign_id}/resources?resources=document&page=2`)).json();
    expect(secondPage.resources.map((r: { name: string }) => r.name)).toEqual(['Bulk 099', 'Bulk 100']);
    expect(secondPage).toMatchObject({ total: 102, total_capped: false });
    // An empty page past the end carries no count of its own (capped-count.ts countColumn): counted alone.
    expect((await call(manager, 'GET', `/api/campaigns/${c.campaign_id}/resources?resources=document&page=4`)).json()).toMatchObject({ resources: [], total: 102 });
    // A link lives while its resource does, in the campaign's organization (migration 0042's triggers), so the
    // total counts links alone: a deleted document and one moved to another organization lose theirs; a rename
    // (or an update that keeps the organization) keeps it; so does a deleted template.
    const linked = async (type: 'document' | 'template') =>
      (await t.ctx.db.select({ id: campaignResources.resourceId }).from(campaignResources).where(and(eq(campaignResources.campaignId, c.campaign_id), eq(campaignResources.type, type)))).map((l) => l.id);
    await t.ctx.db.delete(documents).where(eq(documents.documentId, bulk[0].documentId));
    await t.ctx.db.update(documents).set({ organizationId: otherOrganizationId }).where(eq(documents.documentId, bulk[1].documentId));
    await t.ctx.db.update(documents).set({ name: 'Bulk renamed', organizationId }).where(eq(documents.documentId, bulk[2].documentId));
    expect(await resources('document')).toMatchObject({ total: 100, total_capped: false });
    expect(await linked('document')).not.toEqual(expect.arrayContaining([bulk[0].documentId]));
    expect(await linked('document')).not.toEqual(expect.arrayContaining([bulk[1].documentId]));
    expect(await linked('document')).toEqual(expect.arrayContaining([bulk[2].documentId, document.documentId]));
    const [gone] = await t.ctx.db.insert(templates).values({ userId: admin.user.userId, organizationId, name: 'Gone soon', content: 'x' }).returning();
    await t.ctx.db.insert(campaignResources).values({ campaignId: c.campaign_id, resourceId: gone.templateId, type: 'template' });
    expect((await resources('template')).total).toBe(2);
    await t.ctx.db.delete(templates).where(eq(templates.templateId, gone.templateId));
    expect(await linked('template')).toEqual([template.templateId]);

    // The campaigns list's pages of 60: page 2 from page 1's next_cursor is page 2 by number, ties included; the
    // cursor is ignored for another sort, and a member of another organization gets 404 with it.
    await t.ctx.db.insert(campaigns).values(Array.from({ length: 62 }, (_, i) => ({ organizationId, userId: manager.user.userId, name: i < 58 ? `Bulk ${String(i).padStart(2, '0')}` : 'Bulk 57' })));
    type Page = { campaigns: { campaign_id: number }[]; total: number; next_cursor: string | null };
    const page = async (query: string) => (await call(admin, 'GET', `/api/campaigns/organization/${organizationId}query?query=bulk&${query}`)).json() as Page;
    const ids = (p: Page) => p.campaigns.map((x) => x.campaign_id);
    for (const sortBy of ['name_asc', 'name_desc', 'createdAt_desc', 'updatedAt_desc']) {
      const first = await page(`sortBy=${sortBy}`);
      expect(first.campaigns, sortBy).toHaveLength(60);
      const byCursor = await page(`sortBy=${sortBy}&page=2&cursor=${encodeURIComponent(first.next_cursor!)}`);
      expect(ids(byCursor), sortBy).toEqual(ids(await page(`sortBy=${sortBy}&page=2`)));
      expect(new Set([...ids(first), ...ids(byCursor)]).size, sortBy).toBe(62);
      expect([byCursor.total, byCursor.next_cursor], sortBy).toEqual([62, null]);
    }
    const nameCursor = encodeURIComponent((await page('sortBy=name_asc')).next_cursor!);
    expect(ids(await page(`sortBy=createdAt_desc&page=2&cursor=${nameCursor}`))).toEqual(ids(await page('sortBy=createdAt_desc&page=2')));
    expect((await call(outsider, 'GET', `/api/campaigns/organization/${organizationId}query?page=2&cursor=${nameCursor}`)).statusCode).toBe(404);
    await t.ctx.db.delete(campaigns).where(and(eq(campaigns.organizationId, organizationId), eq(campaigns.userId, manager.user.userId), sql`${campaigns.name} like 'Bulk%'`));

    expect((await call(manager, 'DELETE', `/api/campaigns/campaign-resource/template/${template.templateId}/${c.campaign_id}`)).statusCode).toBe(200);
    expect((await call(manager, 'DELETE', `/api/campaigns/campaign-resource/template/${template.templateId}/${c.campaign_id}`)).statusCode).toBe(404);
    expect((await resources('template')).total).toBe(0);
    await call(manager, 'DELETE', `/api/campaigns/campaign/${c.campaign_id}`);
    expect(await t.ctx.db.select().from(campaignResources).where(eq(campaignResources.campaignId, c.campaign_id))).toHaveLength(0);
  });

  it('matrix: who sees which campaign and who may change it', async () => {
    const own = (await call(manager, 'POST', '/api/campaigns', { organization_id: organizationId, name: 'M-own' })).json();
    const forUser = (await call(admin, 'POST', '/api/campaigns', { organization_id: organizationId, name: 'U-granted' })).json();
    const forGroup = (await call(admin, 'POST', '/api/campaigns', { organization_id: organizationId, name: 'G-granted' })).json();
    const hidden = (await call(otherManager, 'POST', '/api/campaigns', { organization_id: organizationId, name: 'Hidden' })).json();

    // Grants: a user (Admin), a group (the Manager, who owns none of these).
    const give = (who: BuiltUser, id: number, body: object) => call(who, 'POST', `/api/campaigns/give-access/${id}`, body);
    expect((await give(admin, forUser.campaign_id, { user_id: grantedMember.user.userId })).statusCode).toBe(201);
    expect((await give(admin, forUser.campaign_id, { user_id: grantedMember.user.userId })).statusCode).toBe(409);
    expect((await give(admin, forGroup.campaign_id, { group_id: groupId })).statusCode).toBe(201);
    expect((await give(admin, forGroup.campaign_id, { user_id: manager.user.userId })).statusCode).toBe(201);
    const accessCandidates = (await call(admin, 'GET', `/api/campaigns/${forGroup.campaign_id}/access-candidates`)).json();
    expect(accessCandidates.groups).toEqual([]);
    expect(accessCandidates.users.map((u: { user_id: number }) => u.user_id)).not.toContain(manager.user.userId);
    expect(accessCandidates.users.map((u: { user_id: number }) => u.user_id)).toContain(plainMember.user.userId);
    expect(accessCandidates.users.map((u: { user_id: number }) => u.user_id)).not.toContain(outsider.user.userId);
    expect((await call(groupMember, 'GET', `/api/campaigns/${forGroup.campaign_id}/access-candidates`)).statusCode).toBe(403);
    expect((await give(admin, forGroup.campaign_id, {})).json().message).toBe('Choose a user or a group.');
    expect((await give(admin, forGroup.campaign_id, { user_id: outsider.user.userId })).statusCode).toBe(404);

    const all = ['Hidden', 'G-granted', 'U-granted', 'M-own'];
    expect(await list(admin)).toEqual(all);
    expect(await list(staffMember)).toEqual(all);
    expect(await list(staffAdmin)).toEqual(all);
    expect(await list(manager)).toEqual(['G-granted', 'M-own']);
    expect(await list(otherManager)).toEqual(['Hidden']);
    expect(await list(grantedMember)).toEqual(['U-granted']);
    expect(await list(groupMember)).toEqual(['G-granted']);
    expect(await list(plainMember)).toEqual([]);
    expect(await list(outsider)).toBe(404);

    // Reads of one campaign follow the same scope; a stranger or another organization's context: 404.
    const read = async (who: BuiltUser, id: number) => (await call(who, 'GET', `/api/campaigns/${id}`)).statusCode;
    const readResources = async (who: BuiltUser, id: number) => (await call(who, 'GET', `/api/campaigns/${id}/resources?resources=template`)).statusCode;
    expect(await read(groupMember, forGroup.campaign_id)).toBe(200);
    expect(await readResources(groupMember, forGroup.campaign_id)).toBe(200);
    expect(await read(groupMember, forUser.campaign_id)).toBe(404);
    expect(await readResources(plainMember, forGroup.campaign_id)).toBe(404);
    expect(await read(manager, hidden.campaign_id)).toBe(404);
    expect(await read(outsider, own.campaign_id)).toBe(404);
    expect(await readResources(outsider, own.campaign_id)).toBe(404);
    expect((await call(admin, 'GET', `/api/campaigns/${own.campaign_id}?organization_id=${otherOrganizationId}`)).statusCode).toBe(404);

    // The detail carries the grants (the users page).
    const detail = (await call(admin, 'GET', `/api/campaigns/${forGroup.campaign_id}`)).json();
    expect(detail.campaign_users).toMatchObject([{ user_id: manager.user.userId, name: 'Mario', user_type_id: 2 }]);
    expect(detail.campaign_groups).toEqual([{ group_id: groupId, name: 'Writers' }]);

    // Abilities: a Member reads only; Managers, Admins and staff change.
    const abilities = async (who: BuiltUser, id: number) => (await call(who, 'GET', `/api/campaigns/${id}`)).json().abilities;
    expect(await abilities(groupMember, forGroup.campaign_id)).toEqual({ read: true, update: false, delete: false, manage_resources: false, manage_access: false });
    expect(await abilities(manager, forGroup.campaign_id)).toEqual({ read: true, update: true, delete: true, manage_resources: true, manage_access: true });
    expect((await abilities(staffMember, hidden.campaign_id)).update).toBe(true);

    // Writes: a Member's are 403 on what they see and 404 on what they do not; a stranger's are 404.
    const [template] = await t.ctx.db.insert(templates).values({ userId: admin.user.userId, organizationId, name: 'T', content: 'x' }).returning();
    const writes = (who: BuiltUser, id: number) => [
      () => form(who, 'PUT', { campaign_id: id, name: 'Changed' }),
      () => call(who, 'POST', '/api/campaigns/campaign-resource/', { campaign_id: id, resource_id: template.templateId, type: 'template' }),
      () => call(who, 'POST', `/api/campaigns/give-access/${id}`, { user_id: plainMember.user.userId }),
      () => call(who, 'POST', `/api/campaigns/revoke-access/${id}`, { group_id: groupId }),
      () => call(who, 'GET', `/api/campaigns/${id}/candidates?resources=template`),
      () => call(who, 'DELETE', `/api/campaigns/campaign/${id}`),
    ];
    for (const write of writes(groupMember, forGroup.campaign_id)) expect((await write()).statusCode).toBe(403);
    for (const write of writes(plainMember, forGroup.campaign_id)) expect((await write()).statusCode).toBe(404);
    for (const write of writes(outsider, forGroup.campaign_id)) expect((await write()).statusCode).toBe(404);
    for (const write of writes(manager, hidden.campaign_id)) expect((await write()).statusCode).toBe(404);
    expect((await call(grantedMember, 'POST', '/api/campaigns', { organization_id: organizationId, name: 'Nope' })).statusCode).toBe(403);
    expect((await call(outsider, 'POST', '/api/campaigns', { organization_id: organizationId, name: 'Nope' })).statusCode).toBe(404);
    expect(await t.ctx.db.select().from(campaigns).where(eq(campaigns.name, 'Nope'))).toHaveLength(0);
    expect((await call(staffMember, 'POST', '/api/campaigns', { organization_id: organizationId, name: 'Staff made' })).statusCode).toBe(201);

    // The Manager (granted) changes, the staff member changes, then the Manager runs all the writes in turn.
    expect((await form(staffMember, 'PUT', { campaign_id: hidden.campaign_id, name: 'Hidden 2' })).statusCode).toBe(200);
    const results = [];
    for (const write of writes(manager, forGroup.campaign_id)) results.push((await write()).statusCode);
    expect(results).toEqual([200, 201, 201, 200, 200, 200]);
    // Revoking the group took it from its member; the revoke of something not granted is a 404.
    expect(await list(groupMember)).toEqual([]);
    expect((await call(admin, 'POST', `/api/campaigns/revoke-access/${forUser.campaign_id}`, { group_id: groupId })).statusCode).toBe(404);
    expect((await call(admin, 'POST', `/api/campaigns/revoke-access/${forUser.campaign_id}`, { user_id: grantedMember.user.userId })).statusCode).toBe(200);
    expect(await t.ctx.db.select().from(campaignUsers).where(eq(campaignUsers.campaignId, forUser.campaign_id))).toHaveLength(0);
    expect(await list(grantedMember)).toEqual([]);
  });

  it('sharedThroughCampaigns: the documents a campaign shares with the actor, in the organization they act in', async () => {
    const c = (await call(admin, 'POST', '/api/campaigns', { organization_id: organizationId, name: 'Shared' })).json();
    const [doc] = await t.ctx.db.insert(documents).values({ userId: admin.user.userId, organizationId, name: 'Shared doc' }).returning();
    await call(admin, 'POST', '/api/campaigns/campaign-resource/', { campaign_id: c.campaign_id, resource_id: doc.documentId, type: 'document' });
    await call(admin, 'POST', `/api/campaigns/give-access/${c.campaign_id}`, { group_id: groupId });
    const actorOf = (who: BuiltUser, role: 'admin' | 'member', inOrganization = true): Actor =>
      ({ user: who.user, staffRole: null, sessionId: 0, familyId: '', organization: inOrganization ? { organizationId, role, asStaff: false } : null }) as Actor;
    const shared = async (actor: Actor, campaignId?: number) =>
      (
        await t.ctx.db
          .select({ id: documents.documentId })
          .from(documents)
          .where(and(eq(documents.documentId, doc.documentId), sharedThroughCampaigns(actor, 'document', documents.documentId, campaignId)))
      ).length;
    expect(await shared(actorOf(groupMember, 'member'))).toBe(1);
    expect(await shared(actorOf(groupMember, 'member'), c.campaign_id)).toBe(1);
    expect(await shared(actorOf(groupMember, 'member'), c.campaign_id + 1000)).toBe(0);
    expect(await shared(actorOf(plainMember, 'member'))).toBe(0);
    expect(await shared(actorOf(groupMember, 'member', false))).toBe(0);
    expect(await shared(actorOf(admin, 'admin'))).toBe(1);
  });
});
