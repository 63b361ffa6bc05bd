// Groups through the real app and database (spec part 2 §2 "Groups list", "Group page"; §5; §6; §7
// "Groups"; docs/decisions.md "Organizations"). The rights of every role per route:
// organizations/permission-matrix.test.ts.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groups, groupUsers } from '../../db/schema';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

describe('groups API', () => {
  let t: TestApp;
  let admin: BuiltUser;
  let manager: BuiltUser;
  let member: BuiltUser;
  let otherMember: BuiltUser;
  let outsider: BuiltUser;
  let organizationId: number;
  let otherOrganizationId: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await buildUser(t.ctx, { name: 'Ana' });
    manager = await buildUser(t.ctx, { name: 'Mario' });
    member = await buildUser(t.ctx, { name: 'Mia' });
    otherMember = await buildUser(t.ctx, { name: 'Otto' });
    outsider = await buildUser(t.ctx, { name: 'Zoe' });
    organizationId = (
      await buildOrganization(t.ctx, [
        { user: admin, role: 'admin' },
        { user: manager, role: 'manager' },
        { user: member, role: 'member' },
        { user: otherMember, role: 'member' },
      ])
    ).organizationId;
    otherOrganizationId = (await buildOrganization(t.ctx, [{ user: outsider, role: 'admin' }])).organizationId;
  });
  afterAll(async () => t.close());

  const call = (who: BuiltUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
  const ids = (list: { groups: { group_id: number }[] }) => list.groups.map((g) => g.group_id);

  it('a Manager creates, renames and fills a group; candidates exclude its users; a Member sees only their groups, read-only', async () => {
    const created = await call(manager, 'POST', '/api/groups', { name: ' Writers ', organization_id: organizationId });
    expect(created.statusCode).toBe(201);
    const writers = created.json();
    expect(writers).toMatchObject({ name: 'Writers', organization_id: organizationId, users_count: 0, abilities: { read: true, update: true, delete: true, add_users: true } });
    const editors = (await call(admin, 'POST', '/api/groups', { name: 'Editors', organization_id: organizationId })).json();

    // Candidates: the organization's members (never an outsider), fewer each time one is added.
    const candidates = async () => ((await call(manager, 'GET', `/api/groups/${writers.group_id}/candidates`)).json().users as { user_id: number }[]).map((u) => u.user_id);
    expect((await candidates()).sort()).toEqual([admin, manager, member, otherMember].map((u) => u.user.userId).sort());
    expect((await call(manager, 'POST', `/api/groups/users/${member.user.userId}/${writers.group_id}`)).statusCode).toBe(201);
    expect(await candidates()).not.toContain(member.user.userId);
    const twice = await call(manager, 'POST', `/api/groups/users/${member.user.userId}/${writers.group_id}`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('This user is already in the group.');
    expect((await call(manager, 'POST', `/api/groups/users/${outsider.user.userId}/${writers.group_id}`)).statusCode).toBe(404);

    const renamed = await call(manager, 'PUT', '/api/groups', { group_id: writers.group_id, name: 'Authors' });
    expect(renamed.json()).toMatchObject({ name: 'Authors', users_count: 1, group_users: [{ user: { user_id: member.user.userId, name: 'Mia', user_type_id: 3 } }] });
    const bad = await call(manager, 'PUT', '/api/groups', { group_id: writers.group_id, name: '  ' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Please add a name to your group.');
    expect((await t.ctx.db.select().from(groups).where(eq(groups.groupId, writers.group_id)))[0].name).toBe('Authors');

    // Admins and Managers list every group (search by name); a Member only theirs, and may change nothing.
    expect(ids((await call(admin, 'GET', `/api/groups/organization/${organizationId}`)).json())).toEqual([writers.group_id, editors.group_id]);
    expect(ids((await call(admin, 'GET', `/api/groups/organization/${organizationId}?query=edit`)).json())).toEqual([editors.group_id]);
    const memberList = (await call(member, 'GET', `/api/groups/organization/${organizationId}`)).json();
    expect(ids(memberList)).toEqual([writers.group_id]);
    expect(memberList.groups[0].abilities).toEqual({ read: true, update: false, delete: false, add_users: false, remove_users: false });
    expect((await call(otherMember, 'GET', `/api/groups/organization/${organizationId}`)).json().total).toBe(0);
    expect((await call(member, 'GET', `/api/groups/${writers.group_id}`)).statusCode).toBe(200);
    expect((await call(member, 'GET', `/api/groups/${editors.group_id}`)).statusCode).toBe(404);
    expect((await call(member, 'PUT', '/api/groups', { group_id: writers.group_id, name: 'Mine' })).statusCode).toBe(403);
    expect((await call(member, 'POST', '/api/groups', { name: 'Mine', organization_id: organizationId })).statusCode).toBe(403);
    expect((await call(member, 'DELETE', `/api/groups/users/${member.user.userId}/${writers.group_id}`)).statusCode).toBe(403);

    // Another organization's admin, and a request in another organization, see no such group.
    expect((await call(outsider, 'GET', `/api/groups/${writers.group_id}`)).statusCode).toBe(404);
    expect((await call(outsider, 'GET', `/api/groups/organization/${organizationId}`)).statusCode).toBe(404);
    expect((await call(outsider, 'POST', '/api/groups', { name: 'Sneaky', organization_id: organizationId })).statusCode).toBe(404);
    expect((await call(admin, 'GET', `/api/groups/${writers.group_id}?organization_id=${otherOrganizationId}`)).statusCode).toBe(404);

    // Removing a user, then deleting the group (its links go with it).
    expect((await call(admin, 'DELETE', `/api/groups/users/${member.user.userId}/${writers.group_id}`)).statusCode).toBe(200);
    expect((await call(admin, 'DELETE', `/api/groups/users/${member.user.userId}/${writers.group_id}`)).statusCode).toBe(404);
    await call(admin, 'POST', `/api/groups/users/${otherMember.user.userId}/${writers.group_id}`);
    expect((await call(manager, 'DELETE', `/api/groups/${writers.group_id}`)).statusCode).toBe(200);
    expect(await t.ctx.db.select().from(groupUsers).where(eq(groupUsers.groupId, writers.group_id))).toHaveLength(0);
    expect((await call(admin, 'GET', `/api/groups/${writers.group_id}`)).statusCode).toBe(404);
  });
});
