// Organizations through the real app and database (spec part 2 §2, §4, §5, §6, §7; docs/decisions.md
// "Organizations"): create, lists, settings with sealed and masked secrets, delete by exact name, and the
// organizations_enabled switch. The rights of every role per route: permission-matrix.test.ts.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appConfig, auditLog, files, organizations, products, userOrganizations, users } from '../../db/schema';
import { buildOrganization, buildProduct, buildPurchase, buildUser, type BuiltUser } from '../../test/factories';
import { SoftAuthenticator } from '../../test/soft-authenticator';
import { createTestApp, type TestApp } from '../../test/test-app';

describe('organizations API', () => {
  let t: TestApp;
  let staffAdmin: BuiltUser;
  let staffManager: BuiltUser;
  let customer: BuiltUser;

  beforeAll(async () => {
    t = await createTestApp();
    staffAdmin = await buildUser(t.ctx, { staffRole: 'admin' });
    staffManager = await buildUser(t.ctx, { staffRole: 'manager' });
    customer = await buildUser(t.ctx);
  });
  afterAll(async () => t.close());

  const call = (who: BuiltUser | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who ? who.auth : {}, ...(payload ? { payload } : {}) });
  const orgRow = async (id: number) => (await t.ctx.db.select().from(organizations).where(eq(organizations.organizationId, id)))[0];

  it('staff create an organization and become its Admin; others may not; a missing name is the spec message', async () => {
    const res = await call(staffManager, 'POST', '/api/organizations', { name: '  Acme  ', tagline: 'We write' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        'abilities', 'createdAt', 'domain', 'members_count', 'name', 'openai_api_key', 'organization_id', 'role', 'slug', 'require_two_factor_admins', 'stripe_public', 'stripe_secret',
        'stripe_webhook_secret', 'tagline', 'thumbnail', 'thumbnail_file_id', 'user_type_id', 'welcome_video', 'welcome_video_file_id', 'welcome_video_url',
        // Its own web search (issue 32), for who may update it.
        'web_search', 'web_search_api_key', 'web_search_provider', 'web_search_url',
      ].sort(),
    );
    expect(body).toMatchObject({ name: 'Acme', tagline: 'We write', role: 'admin', user_type_id: 1, members_count: 1, stripe_secret: '' });
    expect(body.abilities).toMatchObject({ update: true, delete: true, manage_users: true, manage_groups: true });
    const [membership] = await t.ctx.db.select().from(userOrganizations).where(eq(userOrganizations.organizationId, body.organization_id));
    expect(membership).toMatchObject({ userId: staffManager.user.userId, userTypeId: 1 });
    const [audit] = await t.ctx.db.select().from(auditLog).where(eq(auditLog.targetId, String(body.organization_id)));
    expect(audit).toMatchObject({ actorUserId: staffManager.user.userId, targetType: 'organization' });

    expect((await call(customer, 'POST', '/api/organizations', { name: 'Mine' })).statusCode).toBe(403);
    expect((await call(null, 'POST', '/api/organizations', { name: 'Mine' })).statusCode).toBe(401);

    const before = await t.ctx.db.select().from(organizations);
    // The message is in the user's language (common/messages.ts).
    const spanishAdmin = await buildUser(t.ctx, { staffRole: 'admin', lang: 'es' });
    for (const who of [staffAdmin, spanishAdmin]) {
      const bad = await call(who, 'POST', '/api/organizations', { name: '   ' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(who === staffAdmin ? 'Please add a name to your organization' : 'Por favor agrega un nombre a tu organización');
    }
    expect((await call(staffAdmin, 'POST', '/api/organizations', { tagline: 'no name' })).json().details.name).toBe('Please add a name to your organization');
    expect(await t.ctx.db.select().from(organizations)).toHaveLength(before.length);
  });

  it('every field of the form can be given at creation, checked as an update checks them (issue 30 item 20)', async () => {
    const [image] = await t.ctx.db
      .insert(files)
      .values({ userId: staffAdmin.user.userId, name: 'logo.png', type: 'png', mime: 'image/png', size: 1, storageKey: 'uploads/create-logo', publicName: 'publicnamecreatelogo01' })
      .returning();
    const created = await call(staffAdmin, 'POST', '/api/organizations', {
      name: 'Full at once',
      tagline: 'All fields',
      domain: 'full-at-once.example.com',
      stripe_public: 'pk_test_full',
      stripe_secret: 'sk_test_full_secret_1234',
      stripe_webhook_secret: 'whsec_full_9876',
      openai_api_key: 'sk-org-full-abcd',
      thumbnail_file_id: image.fileId,
      welcome_video_url: 'https://videos.example.com/welcome',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Full at once',
      tagline: 'All fields',
      domain: 'full-at-once.example.com',
      stripe_public: 'pk_test_full',
      stripe_secret: '••••••••1234',
      stripe_webhook_secret: '••••••••9876',
      openai_api_key: '••••••••abcd',
      thumbnail: '/api/files/publicnamecreatelogo01.png',
      welcome_video: 'https://videos.example.com/welcome',
      role: 'admin',
    });
    const row = await orgRow(created.json().organization_id);
    expect(row.openaiApiKeySealed).not.toContain('sk-org-full-abcd');
    // A file that is not the creator's is refused, and nothing is created.
    const before = (await t.ctx.db.select().from(organizations)).length;
    const [strangers] = await t.ctx.db
      .insert(files)
      .values({ userId: customer.user.userId, name: 'x.png', type: 'png', mime: 'image/png', size: 1, storageKey: 'uploads/create-x', publicName: 'publicnamecreatexx0001' })
      .returning();
    const refused = await call(staffAdmin, 'POST', '/api/organizations', { name: 'Stolen logo', thumbnail_file_id: strangers.fileId });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details.thumbnail_file_id).toBe('The thumbnail must be an image you uploaded as public.');
    expect(await t.ctx.db.select().from(organizations)).toHaveLength(before);
  });

  it('lists: the caller’s organizations (search by name), all of them for staff admins and on /admin/all for staff', async () => {
    const admin = await buildUser(t.ctx);
    const member = await buildUser(t.ctx);
    const alpha = await buildOrganization(t.ctx, [{ user: admin, role: 'admin' }, { user: member, role: 'member' }]);
    await t.ctx.db.update(organizations).set({ name: 'Alpha Writers' }).where(eq(organizations.organizationId, alpha.organizationId));
    const beta = await buildOrganization(t.ctx, [{ user: admin, role: 'manager' }]);
    await buildOrganization(t.ctx, []);

    const mine = (await call(admin, 'GET', '/api/organizations')).json();
    expect(mine.organizations.map((o: { organization_id: number }) => o.organization_id).sort()).toEqual([alpha.organizationId, beta.organizationId].sort());
    const memberView = (await call(member, 'GET', '/api/organizations?query=alpha')).json();
    expect(memberView).toMatchObject({ total: 1, organizations: [{ organization_id: alpha.organizationId, role: 'member', members_count: 2 }] });
    // A Member gets no secrets and no admin abilities (spec §6: no admin icons).
    expect(memberView.organizations[0]).not.toHaveProperty('stripe_secret');
    expect(memberView.organizations[0].abilities).toMatchObject({ read: true, update: false, view_users: false, manage_groups: false });
    expect((await call(member, 'GET', '/api/organizations?query=beta')).json().total).toBe(0);

    const all = await t.ctx.db.select().from(organizations);
    expect((await call(staffAdmin, 'GET', '/api/organizations')).json().total).toBe(all.length);
    expect((await call(staffManager, 'GET', '/api/organizations/admin/all')).json().total).toBe(all.length);
    expect((await call(customer, 'GET', '/api/organizations/admin/all')).statusCode).toBe(403);
    // A query that names an organization the caller is not in is a 404 (the groundwork's resolution).
    expect((await call(member, 'GET', `/api/organizations?organization_id=${beta.organizationId}`)).statusCode).toBe(404);
  });

  it('settings: the Admin saves them; secrets are sealed at rest, masked for the Admin, absent for others; a masked value keeps the secret', async () => {
    const admin = await buildUser(t.ctx);
    const manager = await buildUser(t.ctx);
    const org = await buildOrganization(t.ctx, [{ user: admin, role: 'admin' }, { user: manager, role: 'manager' }]);
    const id = org.organizationId;
    const saved = await call(admin, 'POST', '/api/organizations/update', {
      organization_id: id,
      name: 'Team One',
      tagline: 'Words together',
      slug: 'Team-One',
      domain: 'Team.Example.com',
      stripe_public: 'pk_test_123',
      stripe_secret: 'sk_test_secret_value_1234',
      stripe_webhook_secret: 'whsec_abcdefghijkl',
      openai_api_key: 'sk-openai-key-9876',
      welcome_video_url: 'https://videos.example.com/welcome.mp4',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      name: 'Team One',
      slug: 'team-one',
      domain: 'team.example.com',
      stripe_public: 'pk_test_123',
      stripe_secret: '••••••••1234',
      stripe_webhook_secret: '••••••••ijkl',
      openai_api_key: '••••••••9876',
      welcome_video: 'https://videos.example.com/welcome.mp4',
    });
    const row = await orgRow(id);
    expect(row.stripeSecretSealed).toMatch(/^v1:/);
    expect(JSON.stringify(row)).not.toContain('sk_test_secret_value_1234');

    const managerView = (await call(manager, 'GET', `/api/organizations/${id}`)).json();
    expect(managerView).not.toHaveProperty('stripe_secret');
    expect(managerView).not.toHaveProperty('openai_api_key');
    expect(JSON.stringify(managerView)).not.toContain('1234');

    // The form saved as shown (masked) keeps the secrets; '' clears one.
    const again = await call(admin, 'POST', '/api/organizations/update', {
      organization_id: id,
      name: 'Team One',
      stripe_secret: '••••••••1234',
      openai_api_key: '',
    });
    expect(again.json()).toMatchObject({ stripe_secret: '••••••••1234', openai_api_key: '' });
    expect((await orgRow(id)).stripeSecretSealed).toBe(row.stripeSecretSealed);
    expect((await orgRow(id)).openaiApiKeySealed).toBeNull();

    // Bad input changes nothing: empty name, a taken slug, someone else's or a private file.
    const other = await buildOrganization(t.ctx, []);
    await t.ctx.db.update(organizations).set({ slug: 'taken' }).where(eq(organizations.organizationId, other.organizationId));
    const snapshot = await orgRow(id);
    const empty = await call(admin, 'POST', '/api/organizations/update', { organization_id: id, name: '', tagline: 'changed' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Please add a name to your organization');
    expect((await call(admin, 'POST', '/api/organizations/update', { organization_id: id, name: 'X', slug: 'taken' })).statusCode).toBe(409);
    const [privateImage] = await t.ctx.db
      .insert(files)
      .values({ userId: admin.user.userId, name: 'a.png', type: 'png', mime: 'image/png', size: 1, storageKey: 'uploads/none' })
      .returning();
    const [strangersImage] = await t.ctx.db
      .insert(files)
      .values({ userId: customer.user.userId, name: 'b.png', type: 'png', mime: 'image/png', size: 1, storageKey: 'uploads/none2', publicName: 'publicnamepublicname01' })
      .returning();
    for (const fileId of [privateImage.fileId, strangersImage.fileId]) {
      const res = await call(admin, 'POST', '/api/organizations/update', { organization_id: id, name: 'X', thumbnail_file_id: fileId });
      expect(res.statusCode).toBe(400);
      expect(res.json().details.thumbnail_file_id).toBe('The thumbnail must be an image you uploaded as public.');
    }
    const [mine] = await t.ctx.db
      .insert(files)
      .values({ userId: admin.user.userId, name: 'c.png', type: 'png', mime: 'image/png', size: 1, storageKey: 'uploads/none3', publicName: 'publicnamepublicname02' })
      .returning();
    expect(await orgRow(id)).toEqual(snapshot);
    const withThumb = await call(admin, 'POST', '/api/organizations/update', { organization_id: id, name: 'Team One', thumbnail_file_id: mine.fileId });
    expect(withThumb.json()).toMatchObject({ thumbnail: '/api/files/publicnamepublicname02.png', thumbnail_file_id: mine.fileId });

    // A welcome video by upload replaces the URL (the form's toggle) and is served to the members.
    await t.ctx.services.storage!.put('uploads/org-video-test', Buffer.from('fake video bytes'), 'video/mp4');
    const [video] = await t.ctx.db
      .insert(files)
      .values({ userId: admin.user.userId, name: 'hello.mp4', type: 'mp4', mime: 'video/mp4', size: 16, storageKey: 'uploads/org-video-test' })
      .returning();
    const withVideo = (await call(admin, 'POST', '/api/organizations/update', { organization_id: id, name: 'Team One', welcome_video_file_id: video.fileId })).json();
    expect(withVideo).toMatchObject({ welcome_video: `/api/organizations/${id}/welcome-video`, welcome_video_file_id: video.fileId, welcome_video_url: null });
    const played = await call(manager, 'GET', `/api/organizations/${id}/welcome-video`);
    expect(played.statusCode).toBe(200);
    expect(played.headers['content-type']).toBe('video/mp4');
    expect(played.body).toBe('fake video bytes');
    expect((await call(customer, 'GET', `/api/organizations/${id}/welcome-video`)).statusCode).toBe(404);

    // The Manager may read but not save the settings.
    expect((await call(manager, 'POST', '/api/organizations/update', { organization_id: id, name: 'Mine now' })).statusCode).toBe(403);
    expect((await orgRow(id)).name).toBe('Team One');
  });

  it('delete: only by the exact name; memberships, groups and defaults go; an organization with sales stays', async () => {
    const admin = await buildUser(t.ctx);
    const member = await buildUser(t.ctx);
    const org = await buildOrganization(t.ctx, [{ user: admin, role: 'admin' }, { user: member, role: 'member' }]);
    const id = org.organizationId;
    await t.ctx.db.update(users).set({ defaultOrganizationId: id }).where(eq(users.userId, member.user.userId));
    const unsold = await buildProduct(t.ctx, { organizationId: id });

    for (const name of [undefined, org.name.toLowerCase(), `${org.name} `]) {
      const res = await call(admin, 'DELETE', `/api/organizations/${id}${name === undefined ? '' : `?name=${encodeURIComponent(name)}`}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Organization name does not match. Deletion aborted.');
    }
    expect(await orgRow(id)).toBeDefined();
    expect((await call(member, 'DELETE', `/api/organizations/${id}?name=${encodeURIComponent(org.name)}`)).statusCode).toBe(403);

    const res = await t.app.inject({ method: 'DELETE', url: `/api/organizations/${id}`, headers: admin.auth, payload: { name: org.name } });
    expect(res.statusCode).toBe(200);
    expect(await orgRow(id)).toBeUndefined();
    expect(await t.ctx.db.select().from(userOrganizations).where(eq(userOrganizations.organizationId, id))).toHaveLength(0);
    expect((await t.ctx.db.select().from(users).where(eq(users.userId, member.user.userId)))[0].defaultOrganizationId).toBeNull();
    expect(await t.ctx.db.select().from(products).where(eq(products.productId, unsold.productId))).toHaveLength(0);
    expect((await call(member, 'GET', `/api/organizations/${id}`)).statusCode).toBe(404);

    const sold = await buildOrganization(t.ctx, [{ user: admin, role: 'admin' }]);
    const product = await buildProduct(t.ctx, { organizationId: sold.organizationId });
    await buildPurchase(t.ctx, { userId: member.user.userId, productId: product.productId, organizationId: sold.organizationId });
    const refused = await call(admin, 'DELETE', `/api/organizations/${sold.organizationId}?name=${encodeURIComponent(sold.name)}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('conflict');
    expect(await orgRow(sold.organizationId)).toBeDefined();
  });

  it('a membership’s last use is recorded by a request in the organization that succeeds, never by a refused one', async () => {
    const member = await buildUser(t.ctx);
    const org = await buildOrganization(t.ctx, [{ user: member, role: 'member' }]);
    const lastUse = async () => (await t.ctx.db.select().from(userOrganizations).where(eq(userOrganizations.userId, member.user.userId)))[0].lastUse;
    expect((await call(member, 'POST', '/api/organizations/update', { organization_id: org.organizationId, name: 'Taken over' })).statusCode).toBe(403);
    expect((await call(member, 'GET', `/api/organizations/${org.organizationId}`)).statusCode).toBe(200);
    expect(await lastUse()).toBeNull();
    expect((await call(member, 'GET', `/api/organizations?organization_id=${org.organizationId}`)).statusCode).toBe(200);
    expect(await lastUse()).toBeInstanceOf(Date);
  });

  it('organizations_enabled off: every organization and group call is a 404, for staff too', async () => {
    const admin = await buildUser(t.ctx);
    const org = await buildOrganization(t.ctx, [{ user: admin, role: 'admin' }]);
    await t.ctx.db.insert(appConfig).values({ key: 'organizations_enabled', value: 'false' }).onConflictDoUpdate({ target: appConfig.key, set: { value: 'false' } });
    try {
      for (const [who, method, url] of [
        [admin, 'GET', '/api/organizations'],
        [admin, 'GET', `/api/organizations/${org.organizationId}`],
        [admin, 'GET', `/api/organizations/${org.organizationId}/users`],
        [admin, 'GET', `/api/groups/organization/${org.organizationId}`],
        [staffAdmin, 'GET', '/api/organizations/admin/all'],
        [staffAdmin, 'POST', '/api/organizations'],
      ] as const) {
        expect((await call(who, method, url, method === 'POST' ? { name: 'New' } : undefined)).statusCode).toBe(404);
      }
    } finally {
      await t.ctx.db.update(appConfig).set({ value: 'true' }).where(eq(appConfig.key, 'organizations_enabled'));
    }
    expect((await call(admin, 'GET', `/api/organizations/${org.organizationId}`)).statusCode).toBe(200);
  });

  it('an organization may require a second factor of its Admins: without one its admin routes answer two_factor_required (issue 33)', async () => {
    const admin = await buildUser(t.ctx);
    const member = await buildUser(t.ctx);
    const org = await buildOrganization(t.ctx, [{ user: admin, role: 'admin' }, { user: member, role: 'member' }]);
    const id = org.organizationId;
    const turnOn = (who: BuiltUser) => call(who, 'POST', '/api/organizations/update', { organization_id: id, name: org.name, require_two_factor_admins: true });
    const users = () => call(admin, 'GET', `/api/organizations/${id}/users`);
    // An Admin who has not passed one cannot turn it on (it would shut them out); staff acting as its Admin can.
    expect((await turnOn(admin)).json().error).toBe('two_factor_required');
    expect((await users()).statusCode).toBe(200);
    expect((await turnOn(staffAdmin)).statusCode).toBe(200);
    expect((await orgRow(id)).requireTwoFactorAdmins).toBe(true);
    const refused = await users();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('two_factor_required');
    expect((await call(admin, 'POST', '/api/organizations/update', { organization_id: id, name: 'Renamed' })).json().error).toBe('two_factor_required');
    // Reading the organization stays open, and Members are not concerned.
    const read = await call(admin, 'GET', `/api/organizations/${id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().require_two_factor_admins).toBe(true);
    expect((await call(member, 'GET', `/api/organizations/${id}`)).statusCode).toBe(200);
    // The abilities offer only what the server allows (as a Member's), here and in the list; no secrets are shown.
    const memberAbilities = (await call(member, 'GET', `/api/organizations/${id}`)).json().abilities;
    expect(read.json().abilities).toEqual(memberAbilities);
    expect(read.json().stripe_secret).toBeUndefined();
    const listed = (await call(admin, 'GET', '/api/organizations')).json();
    const inList = listed.organizations.find((o: { organization_id: number }) => o.organization_id === id);
    expect(inList.abilities).toEqual(memberAbilities);
    // Other features that read the role refuse an Admin's powers too: the organization's products (403, as a Member).
    const products = () => call(admin, 'GET', `/api/products?organization_id=${id}`);
    expect((await products()).statusCode).toBe(403);
    // A passkey is a second factor: registering one passes it for this sign-in, and the admin routes open.
    const device = new SoftAuthenticator('http://localhost');
    const options = (await call(admin, 'POST', '/api/auth/passkeys/register/options')).json();
    expect((await call(admin, 'POST', '/api/auth/passkeys/register', { name: 'Key', credential: device.create(options) })).statusCode).toBe(201);
    expect((await users()).statusCode).toBe(200);
    expect((await call(admin, 'GET', `/api/organizations/${id}`)).json().abilities).toMatchObject({ update: true, manage_users: true, view_users: true });
    expect((await products()).statusCode).toBe(200);
  });
});
