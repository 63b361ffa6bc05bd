// The permission matrix of organizations and groups (issue 12 acceptance; spec part 2 §6; docs/decisions.md
// "Organizations"): every organization and group operation of the OpenAPI document (the route table the
// app serves) must have a row here — a new route without one fails — and each row is called as the
// organization's Admin, Manager and Member, an Admin of another organization, a signed-in non-member,
// a staff admin and a staff manager (neither a member), and anonymously. Each call runs against a fresh
// organization, so a change made by one caller never decides another's answer. A status is exactly the
// expected one: success, 403 (a member whose role lacks the right, or not staff) or 404 (the organization
// or the record does not exist for the caller).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, groups, groupUsers, organizationInvitations, organizations, userOrganizations, users } from '../../db/schema';
import { eq } from 'drizzle-orm';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

const ROLES = ['admin', 'manager', 'member', 'otherOrgAdmin', 'nonMember', 'staffAdmin', 'staffManager'] as const;
type Role = (typeof ROLES)[number];
type Expected = Record<Role, number>;

/** One organization per call: the cast in their roles, a further member, the Member's group and another group. */
interface World {
  organizationId: number;
  name: string;
  /** A Member of the organization in no group. */
  targetUserId: number;
  /** The cast's Member. */
  memberUserId: number;
  /** A group the Member is in. */
  groupId: number;
  /** A group the Member is not in. */
  otherGroupId: number;
  /** The signed-in non-member's pending invitation to the organization. */
  invitationId: number;
}

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: object;
}

/** Rights by kind (spec §6): success for `ok`, 403 for visible roles without the right, 404 for the rest. */
function rights(success: number, ok: Role[], forbidden: Role[] = []): Expected {
  return Object.fromEntries(ROLES.map((role) => [role, ok.includes(role) ? success : forbidden.includes(role) ? 403 : 404])) as Expected;
}
const everyone = (status: number) => rights(status, [...ROLES]);
const staffOnly = (success: number) => rights(success, ['staffAdmin', 'staffManager'], ['admin', 'manager', 'member', 'otherOrgAdmin', 'nonMember']);
/** Whoever sees the organization: its members and staff admins (who act as its Admin). */
const readers = (success: number) => rights(success, ['admin', 'manager', 'member', 'staffAdmin']);
/** Admins and Managers (spec §6: the admin panel, groups); a Member gets 403. */
const nonMembers = (success: number) => rights(success, ['admin', 'manager', 'staffAdmin'], ['member']);
/** The Admin alone (settings, delete, adding, editing and removing users). */
const adminOnly = (success: number) => rights(success, ['admin', 'staffAdmin'], ['manager', 'member']);

const MATRIX: Record<string, { call: (w: World) => Call; expected: Expected; variants?: { name: string; call: (w: World) => Call; expected: Expected }[] }> = {
  'GET /api/organizations/admin/all': { call: () => ({ method: 'GET', url: '/api/organizations/admin/all' }), expected: staffOnly(200) },
  'GET /api/organizations': { call: () => ({ method: 'GET', url: '/api/organizations' }), expected: everyone(200) },
  'GET /api/organizations/{id}': { call: (w) => ({ method: 'GET', url: `/api/organizations/${w.organizationId}` }), expected: readers(200) },
  'GET /api/organizations/{id}/welcome-video': {
    call: (w) => ({ method: 'GET', url: `/api/organizations/${w.organizationId}/welcome-video` }),
    expected: readers(200),
  },
  'GET /api/organizations/{id}/analytics': { call: (w) => ({ method: 'GET', url: `/api/organizations/${w.organizationId}/analytics` }), expected: nonMembers(200) },
  'POST /api/organizations': { call: () => ({ method: 'POST', url: '/api/organizations', payload: { name: 'Created' } }), expected: staffOnly(201) },
  'POST /api/organizations/update': {
    call: (w) => ({ method: 'POST', url: '/api/organizations/update', payload: { organization_id: w.organizationId, name: 'Renamed' } }),
    expected: adminOnly(200),
  },
  'DELETE /api/organizations/{id}': {
    call: (w) => ({ method: 'DELETE', url: `/api/organizations/${w.organizationId}?name=${encodeURIComponent(w.name)}` }),
    expected: adminOnly(200),
  },
  'GET /api/organizations/{id}/users': { call: (w) => ({ method: 'GET', url: `/api/organizations/${w.organizationId}/users` }), expected: nonMembers(200) },
  'GET /api/organizations/{orgId}/users/{userId}': {
    call: (w) => ({ method: 'GET', url: `/api/organizations/${w.organizationId}/users/${w.targetUserId}` }),
    expected: nonMembers(200),
  },
  'POST /api/organizations/users': {
    call: (w) => ({ method: 'POST', url: '/api/organizations/users', payload: { organization_id: w.organizationId, email: `added-${w.organizationId}@example.com`, user_type_id: 3 } }),
    expected: adminOnly(201),
  },
  'PUT /api/organizations/users': {
    call: (w) => ({ method: 'PUT', url: '/api/organizations/users', payload: { organization_id: w.organizationId, user_id: w.targetUserId, user_type_id: 2 } }),
    expected: adminOnly(200),
  },
  'DELETE /api/organizations/{orgId}/{userId}': {
    call: (w) => ({ method: 'DELETE', url: `/api/organizations/${w.organizationId}/${w.targetUserId}` }),
    expected: adminOnly(200),
  },
  'POST /api/organizations/{orgId}/users/{userId}/send-reset-email': {
    call: (w) => ({ method: 'POST', url: `/api/organizations/${w.organizationId}/users/${w.targetUserId}/send-reset-email` }),
    expected: adminOnly(200),
  },
  // The link signs into the member's whole account: staff only (an organization Admin sends the email).
  'POST /api/organizations/{orgId}/users/{userId}/reset-link': {
    call: (w) => ({ method: 'POST', url: `/api/organizations/${w.organizationId}/users/${w.targetUserId}/reset-link` }),
    expected: rights(200, ['staffAdmin'], ['admin', 'manager', 'member']),
  },
  // Invitations (issue 30 item 12): the invited account alone answers its own; the Admin lists and revokes.
  'GET /api/organizations/invitations': { call: () => ({ method: 'GET', url: '/api/organizations/invitations' }), expected: everyone(200) },
  'POST /api/organizations/invitations/{id}/accept': {
    call: (w) => ({ method: 'POST', url: `/api/organizations/invitations/${w.invitationId}/accept` }),
    expected: rights(200, ['nonMember']),
  },
  'POST /api/organizations/invitations/{id}/decline': {
    call: (w) => ({ method: 'POST', url: `/api/organizations/invitations/${w.invitationId}/decline` }),
    expected: rights(200, ['nonMember']),
  },
  'GET /api/organizations/{id}/invitations': { call: (w) => ({ method: 'GET', url: `/api/organizations/${w.organizationId}/invitations` }), expected: adminOnly(200) },
  'DELETE /api/organizations/{orgId}/invitations/{invitationId}': {
    call: (w) => ({ method: 'DELETE', url: `/api/organizations/${w.organizationId}/invitations/${w.invitationId}` }),
    expected: adminOnly(200),
  },
  'GET /api/groups/organization/{id}': { call: (w) => ({ method: 'GET', url: `/api/groups/organization/${w.organizationId}` }), expected: readers(200) },
  'GET /api/groups/{id}': {
    call: (w) => ({ method: 'GET', url: `/api/groups/${w.groupId}` }),
    expected: readers(200),
    // A Member sees only the groups they are in.
    variants: [{ name: 'a group the Member is not in', call: (w) => ({ method: 'GET', url: `/api/groups/${w.otherGroupId}` }), expected: rights(200, ['admin', 'manager', 'staffAdmin']) }],
  },
  'GET /api/groups/{id}/candidates': { call: (w) => ({ method: 'GET', url: `/api/groups/${w.groupId}/candidates` }), expected: nonMembers(200) },
  'POST /api/groups': {
    call: (w) => ({ method: 'POST', url: '/api/groups', payload: { name: 'New group', organization_id: w.organizationId } }),
    expected: nonMembers(201),
  },
  'PUT /api/groups': { call: (w) => ({ method: 'PUT', url: '/api/groups', payload: { group_id: w.groupId, name: 'Renamed' } }), expected: nonMembers(200) },
  'DELETE /api/groups/{id}': { call: (w) => ({ method: 'DELETE', url: `/api/groups/${w.groupId}` }), expected: nonMembers(200) },
  'POST /api/groups/users/{userId}/{groupId}': {
    call: (w) => ({ method: 'POST', url: `/api/groups/users/${w.targetUserId}/${w.groupId}` }),
    expected: nonMembers(201),
  },
  'DELETE /api/groups/users/{userId}/{groupId}': {
    call: (w) => ({ method: 'DELETE', url: `/api/groups/users/${w.memberUserId}/${w.groupId}` }),
    expected: nonMembers(200),
    variants: [
      {
        name: 'from a group the Member is not in',
        call: (w) => ({ method: 'DELETE', url: `/api/groups/users/${w.targetUserId}/${w.otherGroupId}` }),
        expected: rights(200, ['admin', 'manager', 'staffAdmin']),
      },
    ],
  },
};

describe('organizations and groups: permission matrix', () => {
  let t: TestApp;
  let cast: Record<Role, BuiltUser>;
  let address = 0;

  beforeAll(async () => {
    t = await createTestApp();
    const [admin, manager, member, otherOrgAdmin, nonMember] = [await buildUser(t.ctx), await buildUser(t.ctx), await buildUser(t.ctx), await buildUser(t.ctx), await buildUser(t.ctx)];
    cast = {
      admin,
      manager,
      member,
      otherOrgAdmin,
      nonMember,
      staffAdmin: await buildUser(t.ctx, { staffRole: 'admin' }),
      staffManager: await buildUser(t.ctx, { staffRole: 'manager' }),
    };
    await buildOrganization(t.ctx, [{ user: otherOrgAdmin, role: 'admin' }]);
  });
  afterAll(async () => t.close());

  async function buildWorld(): Promise<World> {
    const org = await buildOrganization(t.ctx, [
      { user: cast.admin, role: 'admin' },
      { user: cast.manager, role: 'manager' },
      { user: cast.member, role: 'member' },
    ]);
    const [target] = await t.ctx.db
      .insert(users)
      .values({ name: 'Target', email: `target-${org.organizationId}@example.com` })
      .returning();
    await t.ctx.db.insert(userOrganizations).values({ organizationId: org.organizationId, userId: target.userId, userTypeId: 3 });
    const [group] = await t.ctx.db.insert(groups).values({ organizationId: org.organizationId, name: 'Members' }).returning();
    const [otherGroup] = await t.ctx.db.insert(groups).values({ organizationId: org.organizationId, name: 'Others' }).returning();
    await t.ctx.db.insert(groupUsers).values([
      { groupId: group.groupId, userId: cast.member.user.userId },
      { groupId: otherGroup.groupId, userId: target.userId },
    ]);
    // An uploaded welcome video (GET /organizations/{id}/welcome-video).
    const storageKey = `uploads/matrix-video-${org.organizationId}`;
    await t.ctx.services.storage!.put(storageKey, Buffer.from('video'), 'video/mp4');
    const [video] = await t.ctx.db
      .insert(files)
      .values({ userId: cast.admin.user.userId, name: 'welcome.mp4', type: 'mp4', mime: 'video/mp4', size: 5, storageKey })
      .returning();
    await t.ctx.db.update(organizations).set({ welcomeVideoFileId: video.fileId }).where(eq(organizations.organizationId, org.organizationId));
    const [invitation] = await t.ctx.db.insert(organizationInvitations).values({ organizationId: org.organizationId, userId: cast.nonMember.user.userId, userTypeId: 3 }).returning();
    return {
      organizationId: org.organizationId,
      name: org.name,
      memberUserId: cast.member.user.userId,
      targetUserId: target.userId,
      groupId: group.groupId,
      otherGroupId: otherGroup.groupId,
      invitationId: invitation.invitationId,
    };
  }

  // Each request from its own address, so the per-address rate limits (recovery routes) never answer 429.
  const send = (who: BuiltUser | null, c: Call) =>
    t.app.inject({
      method: c.method,
      url: c.url,
      headers: who ? who.auth : {},
      remoteAddress: `10.9.${Math.floor(++address / 250)}.${(address % 250) + 1}`,
      ...(c.payload ? { payload: c.payload } : {}),
    });

  it('has a row for every organization and group route the app serves', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    const served: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!/^\/api\/(organizations|groups)(\/|$)/.test(path)) continue;
      for (const method of Object.keys(operations)) if (['get', 'post', 'put', 'delete', 'patch'].includes(method)) served.push(`${method.toUpperCase()} ${path}`);
    }
    expect(served.sort()).toEqual(Object.keys(MATRIX).sort());
  });

  for (const [operation, row] of Object.entries(MATRIX)) {
    const cases = [{ name: '', call: row.call, expected: row.expected }, ...(row.variants ?? []).map((v) => ({ ...v, name: ` (${v.name})` }))];
    for (const { name, call, expected } of cases) {
      it(`${operation}${name}`, async () => {
        const got: Record<string, number> = {};
        for (const role of ROLES) got[role] = (await send(cast[role], call(await buildWorld()))).statusCode;
        got.anonymous = (await send(null, call(await buildWorld()))).statusCode;
        expect(got).toEqual({ ...expected, anonymous: 401 });
      });
    }
  }
});
