// Members of an organization through the real app and database (spec part 2 §2 "Organization admin user
// table", "User form", "User detail"; §4 saving a user; §6; §7): the table's words and LTV in a date
// range, adding existing and new users (the recovery mail), role changes and removal that never leave the
// organization without an Admin, and the recovery actions.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, groups, groupUsers, invoices, mailOutbox, organizationInvitations, organizations, userOrganizations, users } from '../../db/schema';
import { buildOrganization, buildProduct, buildPurchase, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

describe('organization members API', () => {
  let t: TestApp;
  let admin: BuiltUser;
  let manager: BuiltUser;
  let member: BuiltUser;
  let staffAdmin: BuiltUser;
  let organizationId: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await buildUser(t.ctx, { name: 'Ana', lastName: 'Admin' });
    manager = await buildUser(t.ctx, { name: 'Mario', lastName: 'Manager' });
    member = await buildUser(t.ctx, { name: 'Mia', lastName: 'Member' });
    staffAdmin = await buildUser(t.ctx, { staffRole: 'admin' });
    const org = await buildOrganization(t.ctx, [
      { user: admin, role: 'admin' },
      { user: manager, role: 'manager' },
      { user: member, role: 'member' },
    ]);
    organizationId = org.organizationId;
  });
  afterAll(async () => t.close());

  const call = (who: BuiltUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
  const memberships = async () => t.ctx.db.select().from(userOrganizations).where(eq(userOrganizations.organizationId, organizationId));

  it('the user table: Total Words and LTV count the date range (the current month by default); LTV only this organization’s sales', async () => {
    const now = new Date();
    const lastYear = new Date(Date.UTC(now.getUTCFullYear() - 1, 5, 15));
    await t.ctx.db.insert(creditLedger).values([
      { userId: member.user.userId, words: -120, balanceAfter: 0, sourceType: 'message', sourceId: `m-${member.user.userId}-1`, createdAt: now },
      { userId: member.user.userId, words: -30, balanceAfter: 0, sourceType: 'message', sourceId: `m-${member.user.userId}-2`, createdAt: lastYear },
      { userId: member.user.userId, words: 500, balanceAfter: 0, sourceType: 'purchase', sourceId: `p-${member.user.userId}`, createdAt: now },
    ]);
    const orgProduct = await buildProduct(t.ctx, { organizationId });
    const personalProduct = await buildProduct(t.ctx);
    const orgSale = await buildPurchase(t.ctx, { userId: member.user.userId, productId: orgProduct.productId, organizationId, totalPayment: 40 });
    await t.ctx.db.insert(invoices).values({ purchaseId: orgSale.purchaseId, userId: member.user.userId, status: 'paid', totalPayment: 40, amount: 40 });
    // Paid in Personal: not the organization's to see.
    await buildPurchase(t.ctx, { userId: member.user.userId, productId: personalProduct.productId, totalPayment: 99 });
    await t.ctx.db.update(userOrganizations).set({ lastUse: now }).where(and(eq(userOrganizations.userId, member.user.userId), eq(userOrganizations.organizationId, organizationId)));

    const res = await call(manager, 'GET', `/api/organizations/${organizationId}/users`);
    expect(res.statusCode).toBe(200);
    const { users: rows, total } = res.json();
    expect(total).toBe(3);
    expect(rows.map((r: { user_id: number }) => r.user_id)).toEqual([admin, manager, member].map((u) => u.user.userId).sort((a, b) => a - b));
    const mia = rows.find((r: { user_id: number }) => r.user_id === member.user.userId);
    expect(mia).toEqual({
      user_organization_id: expect.any(Number),
      user_id: member.user.userId,
      name: 'Mia',
      last_name: 'Member',
      email: member.user.email,
      role: 'member',
      user_type_id: 3,
      total_words: 120,
      word_count: 150,
      last_used: now.toISOString(),
      ltv: 40,
    });
    // 'Not used yet': no last use.
    expect(rows.find((r: { user_id: number }) => r.user_id === admin.user.userId)).toMatchObject({ last_used: null, total_words: 0, ltv: 0 });

    const year = lastYear.getUTCFullYear();
    const past = (await call(admin, 'GET', `/api/organizations/${organizationId}/users?start_date=${year}-01-01&end_date=${year}-12-31&query=mia`)).json();
    expect(past).toMatchObject({ total: 1, users: [{ user_id: member.user.userId, total_words: 30, ltv: 0 }] });
    expect((await call(admin, 'GET', `/api/organizations/${organizationId}/users?start_date=2026-13-01`)).statusCode).toBe(400);

    const detail = (await call(admin, 'GET', `/api/organizations/${organizationId}/users/${member.user.userId}`)).json();
    expect(detail).toMatchObject({ user_id: member.user.userId, email: member.user.email, role: 'member', total_words: 150, ltv: 40, last_use: now.toISOString(), groups: [] });
    // Only what the spec's organization user row lists: the account's phone stays its own (issue 30 item 12).
    expect(detail).not.toHaveProperty('phone');
    expect(JSON.stringify(detail)).not.toContain('5551234567');
    // Someone outside the organization is no member to read.
    expect((await call(admin, 'GET', `/api/organizations/${organizationId}/users/${staffAdmin.user.userId}`)).statusCode).toBe(404);
  });

  it('adds a new user by email: an account, this organization as its default, the recovery email; an existing one is invited', async () => {
    const email = `new-${Date.now()}@example.com`;
    const res = await call(admin, 'POST', '/api/organizations/users', { organization_id: organizationId, email: ` ${email.toUpperCase()} `, name: 'Nuevo', user_type_id: 3 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ organization_id: organizationId, role: 'member', user_type_id: 3, invited: true, user: { email, name: 'Nuevo' } });
    const [created] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    expect(created).toMatchObject({ defaultOrganizationId: organizationId, passwordHash: null });
    const mail = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toContain('/reset-password?token=');

    const again = await call(admin, 'POST', '/api/organizations/users', { organization_id: organizationId, email, user_type_id: 2 });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This user is already a member of the organization.');

    // An existing account is invited, not attached: no membership, and its name is not the Admin's to read.
    const existing = await buildUser(t.ctx, { name: 'Private', lastName: 'Person' });
    const added = await call(admin, 'POST', '/api/organizations/users', { organization_id: organizationId, email: existing.user.email, user_type_id: 2 });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ invited: false, pending: true, user_organization_id: null, role: 'manager', user: { user_id: existing.user.userId, name: '', last_name: '' } });
    expect((await memberships()).some((m) => m.userId === existing.user.userId)).toBe(false);
    expect(await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, existing.user.email))).toHaveLength(1);
  });

  it('the invitation names the organization and who added them, in the invitee’s language (issue 30 item 19)', async () => {
    const lucia = await buildUser(t.ctx, { name: 'Lucía', lastName: 'Pérez', lang: 'es' });
    const org = await buildOrganization(t.ctx, [{ user: lucia, role: 'admin' }]);
    const orgName = (await t.ctx.db.select().from(organizations).where(eq(organizations.organizationId, organizationId)))[0].name;
    const mailTo = async (email: string) => {
      const sent = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
      expect(sent).toHaveLength(1);
      return sent[0];
    };
    const add = async (who: BuiltUser, orgId: number, email: string) =>
      expect((await call(who, 'POST', '/api/organizations/users', { organization_id: orgId, email, user_type_id: 3 })).statusCode).toBe(201);

    // A new account: the link to choose its password, in the Admin's language (the account gets it too).
    const nuevo = `nuevo-${Date.now()}@example.com`;
    await add(lucia, org.organizationId, nuevo);
    const es = await mailTo(nuevo);
    expect(es.subject).toMatch(new RegExp(`^Lucía Pérez te añadió a ${org.name} en `));
    expect(es.text).toContain(`Lucía Pérez te añadió a la organización ${org.name}`);
    expect(es.text).toContain('elige tu contraseña');
    expect(es.text).toMatch(/\/reset-password\?token=[^&\s]+&lang=es/);
    expect(es.text).not.toContain('ignora este correo');
    expect((await t.ctx.db.select().from(users).where(eq(users.email, nuevo)))[0].lang).toBe('es');

    const fresh = `fresh-${Date.now()}@example.com`;
    await add(admin, organizationId, fresh);
    const en = await mailTo(fresh);
    expect(en.subject).toMatch(new RegExp(`^Ana Admin added you to ${orgName} on `));
    expect(en.text).toContain('choose your password');
    expect(en.text).toMatch(/\/reset-password\?token=[^&\s]+&lang=en/);
    expect(en.text).not.toContain('If you did not ask for this');

    // An existing account is invited (issue 30 item 12): sign in to accept, in its own language whoever invites.
    const english = await buildUser(t.ctx, { name: 'Eve' });
    await add(lucia, org.organizationId, english.user.email);
    const signIn = await mailTo(english.user.email);
    expect(signIn.subject).toMatch(new RegExp(`^Lucía Pérez invited you to ${org.name} on `));
    expect(signIn.text).toContain('Sign in with your account to accept or decline the invitation');
    expect(signIn.text).toMatch(/\/login\?next=%2Forganizations\b/);
    expect(signIn.text).not.toContain('reset-password');
    const spanish = await buildUser(t.ctx, { name: 'Sol', lang: 'es' });
    await add(admin, organizationId, spanish.user.email);
    const entrar = await mailTo(spanish.user.email);
    expect(entrar.subject).toMatch(new RegExp(`^Ana Admin te invitó a ${orgName} en `));
    expect(entrar.text).toContain('Inicia sesión con tu cuenta para aceptar o rechazar la invitación');
    expect(entrar.text).not.toContain('reset-password');
    // Staff add an existing account directly: the mail says so.
    const added = await buildUser(t.ctx, { name: 'Max' });
    await add(staffAdmin, organizationId, added.user.email);
    const staffMail = await mailTo(added.user.email);
    expect(staffMail.subject).toMatch(/ added you to /);
    expect(staffMail.text).toContain('Sign in with your account to work in it');
  });

  it('an invitation: only its account sees and answers it, once; until then it cannot act there nor be read', async () => {
    const invite = async (email: string, userTypeId = 2, who: BuiltUser = admin) =>
      call(who, 'POST', `/api/organizations/users?organization_id=${organizationId}`, { organization_id: organizationId, email, user_type_id: userTypeId });
    const guest = await buildUser(t.ctx, { name: 'Gina', lastName: 'Guest' });
    const other = await buildUser(t.ctx);
    expect((await invite(guest.user.email)).statusCode).toBe(201);
    const again = await invite(guest.user.email, 3);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This user already has a pending invitation to the organization.');
    const spanishAdmin = await buildUser(t.ctx, { lang: 'es' });
    const org2 = await buildOrganization(t.ctx, [{ user: spanishAdmin, role: 'admin' }]);
    await t.ctx.db.insert(organizationInvitations).values({ organizationId: org2.organizationId, userId: other.user.userId, userTypeId: 3 });
    const twice = await call(spanishAdmin, 'POST', `/api/organizations/users?organization_id=${org2.organizationId}`, { organization_id: org2.organizationId, email: other.user.email, user_type_id: 3 });
    expect(twice.json().message).toBe('Este usuario ya tiene una invitación pendiente a la organización.');

    // Not yet accepted: no member — the organization, its campaigns and its users are not theirs; the Admin cannot read them.
    expect((await call(guest, 'GET', `/api/organizations/${organizationId}`)).statusCode).toBe(404);
    expect((await call(guest, 'GET', `/api/organizations/${organizationId}/users`)).statusCode).toBe(404);
    expect((await call(guest, 'GET', `/api/campaigns/organization/${organizationId}`)).statusCode).toBe(404);
    expect((await call(guest, 'GET', `/api/groups/organization/${organizationId}?organization_id=${organizationId}`)).statusCode).toBe(404);
    expect((await call(admin, 'GET', `/api/organizations/${organizationId}/users/${guest.user.userId}`)).statusCode).toBe(404);
    const table = (await call(admin, 'GET', `/api/organizations/${organizationId}/users`)).json();
    expect(table.users.some((u: { user_id: number }) => u.user_id === guest.user.userId)).toBe(false);

    // The Admin sees what is pending (email and role only); Managers and Members do not.
    const pending = await call(admin, 'GET', `/api/organizations/${organizationId}/invitations`);
    expect(pending.statusCode).toBe(200);
    const mine = pending.json().invitations.find((i: { email: string }) => i.email === guest.user.email);
    expect(mine).toEqual({ invitation_id: expect.any(Number), email: guest.user.email, role: 'manager', user_type_id: 2, createdAt: expect.any(String) });
    expect((await call(manager, 'GET', `/api/organizations/${organizationId}/invitations`)).statusCode).toBe(403);
    expect((await call(member, 'GET', `/api/organizations/${organizationId}/invitations`)).statusCode).toBe(403);
    expect((await call(spanishAdmin, 'GET', `/api/organizations/${organizationId}/invitations`)).statusCode).toBe(404);

    // Only its account sees it and answers it.
    const orgName = (await t.ctx.db.select().from(organizations).where(eq(organizations.organizationId, organizationId)))[0].name;
    const listed = (await call(guest, 'GET', '/api/organizations/invitations')).json();
    expect(listed.invitations).toEqual([
      { invitation_id: mine.invitation_id, organization_id: organizationId, organization_name: orgName, thumbnail: null, role: 'manager', inviter: 'Ana Admin', createdAt: expect.any(String) },
    ]);
    expect((await call(other, 'GET', '/api/organizations/invitations')).json().invitations.map((i: { organization_id: number }) => i.organization_id)).toEqual([org2.organizationId]);
    expect((await call(other, 'POST', `/api/organizations/invitations/${mine.invitation_id}/accept`)).statusCode).toBe(404);
    expect((await call(other, 'POST', `/api/organizations/invitations/${mine.invitation_id}/decline`)).statusCode).toBe(404);
    expect((await call(admin, 'POST', `/api/organizations/invitations/${mine.invitation_id}/accept`)).statusCode).toBe(404);
    expect((await memberships()).some((m) => m.userId === other.user.userId || m.userId === guest.user.userId)).toBe(false);

    // Accepted: a member with the invited role; a second accept finds nothing.
    const accepted = await call(guest, 'POST', `/api/organizations/invitations/${mine.invitation_id}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ organization_id: organizationId, role: 'manager', user_type_id: 2 });
    expect((await call(guest, 'POST', `/api/organizations/invitations/${mine.invitation_id}/accept`)).statusCode).toBe(404);
    expect((await call(guest, 'GET', `/api/organizations/${organizationId}`)).json()).toMatchObject({ role: 'manager' });
    expect((await call(admin, 'GET', `/api/organizations/${organizationId}/users/${guest.user.userId}`)).json()).toMatchObject({ name: 'Gina', role: 'manager' });
    expect((await call(guest, 'GET', '/api/organizations/invitations')).json().invitations).toEqual([]);

    // Declined: gone, nothing joined.
    const shy = await buildUser(t.ctx);
    const shyInvitation = (await invite(shy.user.email, 3)).json().invitation_id;
    expect((await call(shy, 'POST', `/api/organizations/invitations/${shyInvitation}/decline`)).json()).toEqual({ deleted: true });
    expect((await call(shy, 'POST', `/api/organizations/invitations/${shyInvitation}/accept`)).statusCode).toBe(404);
    expect((await memberships()).some((m) => m.userId === shy.user.userId)).toBe(false);

    // Revoked by the Admin only (a Manager: 403; another organization's Admin: 404); then it cannot be accepted.
    const late = await buildUser(t.ctx);
    const lateInvitation = (await invite(late.user.email, 3)).json().invitation_id;
    expect((await call(manager, 'DELETE', `/api/organizations/${organizationId}/invitations/${lateInvitation}`)).statusCode).toBe(403);
    expect((await call(spanishAdmin, 'DELETE', `/api/organizations/${org2.organizationId}/invitations/${lateInvitation}`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `/api/organizations/${organizationId}/invitations/${lateInvitation}`)).statusCode).toBe(200);
    expect((await call(late, 'POST', `/api/organizations/invitations/${lateInvitation}/accept`)).statusCode).toBe(404);
    expect((await memberships()).some((m) => m.userId === late.user.userId)).toBe(false);

    // Put the table back as the next tests expect it.
    await t.ctx.db.delete(userOrganizations).where(and(eq(userOrganizations.organizationId, organizationId), eq(userOrganizations.userId, guest.user.userId)));
  });

  it('refuses bad input and lesser roles without changing anything', async () => {
    const before = await memberships();
    const stranger = await buildUser(t.ctx);
    const cases: [BuiltUser, object, number][] = [
      [admin, { organization_id: organizationId, user_type_id: 3 }, 400],
      [admin, { organization_id: organizationId, email: 'not-an-email', user_type_id: 3 }, 400],
      [admin, { organization_id: organizationId, email: stranger.user.email, user_type_id: 4 }, 400],
      // An organization Admin may not add by id (it would reveal anyone's email); staff may.
      [admin, { organization_id: organizationId, user_id: stranger.user.userId, user_type_id: 3 }, 404],
      [manager, { organization_id: organizationId, email: stranger.user.email, user_type_id: 3 }, 403],
      [member, { organization_id: organizationId, email: stranger.user.email, user_type_id: 3 }, 403],
    ];
    for (const [who, body, status] of cases) expect((await call(who, 'POST', '/api/organizations/users', body)).statusCode).toBe(status);
    expect((await call(admin, 'POST', '/api/organizations/users', { organization_id: organizationId, user_type_id: 3 })).json().details.email).toBe('Choose a user or type an email.');
    expect(await memberships()).toEqual(before);

    const byStaff = await call(staffAdmin, 'POST', '/api/organizations/users', { organization_id: organizationId, user_id: stranger.user.userId, user_type_id: 3 });
    expect(byStaff.statusCode).toBe(201);
    expect(byStaff.json().user.email).toBe(stranger.user.email);
  });

  it('role changes and removal are the Admin’s; the last Admin can be neither demoted nor removed', async () => {
    const promoted = await call(admin, 'PUT', '/api/organizations/users', { organization_id: organizationId, user_id: member.user.userId, user_type_id: 2 });
    expect(promoted.json()).toMatchObject({ role: 'manager', user_type_id: 2 });
    expect((await call(manager, 'PUT', '/api/organizations/users', { organization_id: organizationId, user_id: member.user.userId, user_type_id: 1 })).statusCode).toBe(403);
    await call(admin, 'PUT', '/api/organizations/users', { organization_id: organizationId, user_id: member.user.userId, user_type_id: 3 });

    const lastAdmin = await call(admin, 'PUT', '/api/organizations/users', { organization_id: organizationId, user_id: admin.user.userId, user_type_id: 3 });
    expect(lastAdmin.statusCode).toBe(409);
    expect(lastAdmin.json().message).toBe('An organization must always have an admin: make another member admin first.');
    expect((await call(admin, 'DELETE', `/api/organizations/${organizationId}/${admin.user.userId}`)).statusCode).toBe(409);
    expect((await call(admin, 'PUT', '/api/organizations/users', { organization_id: organizationId, user_id: staffAdmin.user.userId, user_type_id: 2 })).statusCode).toBe(404);

    // Removal takes the user out of the organization's groups and back to Personal; the account stays.
    const [group] = await t.ctx.db.insert(groups).values({ organizationId, name: 'Writers' }).returning();
    await t.ctx.db.insert(groupUsers).values({ groupId: group.groupId, userId: manager.user.userId });
    await t.ctx.db.update(users).set({ defaultOrganizationId: organizationId }).where(eq(users.userId, manager.user.userId));
    expect((await call(manager, 'DELETE', `/api/organizations/${organizationId}/${member.user.userId}`)).statusCode).toBe(403);
    const removed = await call(admin, 'DELETE', `/api/organizations/${organizationId}/${manager.user.userId}`);
    expect(removed.statusCode).toBe(200);
    expect(await t.ctx.db.select().from(groupUsers).where(eq(groupUsers.groupId, group.groupId))).toHaveLength(0);
    const [account] = await t.ctx.db.select().from(users).where(eq(users.userId, manager.user.userId));
    expect(account.defaultOrganizationId).toBeNull();
    expect((await call(manager, 'GET', `/api/organizations/${organizationId}`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `/api/organizations/${organizationId}/${manager.user.userId}`)).statusCode).toBe(404);
    // Put the manager back for the next test.
    await t.ctx.db.insert(userOrganizations).values({ organizationId, userId: manager.user.userId, userTypeId: 2 });
  });

  it('recovery: the Admin sends a member the reset email; only staff get the link', async () => {
    const sent = await call(admin, 'POST', `/api/organizations/${organizationId}/users/${member.user.userId}/send-reset-email`);
    expect(sent.statusCode).toBe(200);
    expect(sent.json().message).toBe("We've sent you a password reset email.");
    expect(await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, member.user.email))).toHaveLength(1);
    expect((await call(manager, 'POST', `/api/organizations/${organizationId}/users/${member.user.userId}/send-reset-email`)).statusCode).toBe(403);
    expect((await call(admin, 'POST', `/api/organizations/${organizationId}/users/${staffAdmin.user.userId}/send-reset-email`)).statusCode).toBe(404);

    expect((await call(admin, 'POST', `/api/organizations/${organizationId}/users/${member.user.userId}/reset-link`)).statusCode).toBe(403);
    const link = await call(staffAdmin, 'POST', `/api/organizations/${organizationId}/users/${member.user.userId}/reset-link`);
    expect(link.statusCode).toBe(200);
    expect(link.json().link).toContain('/reset-password?token=');
  });
});
