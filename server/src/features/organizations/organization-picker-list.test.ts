// The list behind the sidebar's organization picker (GET /organizations): a staff admin with more
// organizations than a page (50) finds any of them by `query`, and their own memberships come first.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations } from '../../db/schema';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

describe('GET /organizations for the picker', () => {
  let t: TestApp;
  let staffAdmin: BuiltUser;
  let member: BuiltUser;
  const ids: number[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    staffAdmin = await buildUser(t.ctx, { staffRole: 'admin' });
    member = await buildUser(t.ctx);
    // 60 organizations the staff admin is not in, named so that the 60th sorts last.
    for (let n = 1; n <= 60; n++) {
      const org = await buildOrganization(t.ctx, n === 7 ? [{ user: member, role: 'member' }] : []);
      await t.ctx.db.update(organizations).set({ name: `Client ${String(n).padStart(2, '0')}` }).where(eq(organizations.organizationId, org.organizationId));
      ids.push(org.organizationId);
    }
    // Two of their own, named to sort after every client.
    for (const name of ['Zeta Team', 'Omega Team']) {
      const own = await buildOrganization(t.ctx, [{ user: staffAdmin, role: 'admin' }]);
      await t.ctx.db.update(organizations).set({ name }).where(eq(organizations.organizationId, own.organizationId));
    }
  }, 120_000);
  afterAll(async () => t.close());

  const list = async (who: BuiltUser, url: string) => {
    const res = await t.app.inject({ url, headers: who.auth });
    expect(res.statusCode).toBe(200);
    return res.json() as { total: number; organizations: { name: string; role: string | null }[] };
  };

  it("a staff admin's own organizations come first, then every other by name, 50 a page", async () => {
    const first = await list(staffAdmin, '/api/organizations?organization_id=');
    expect(first.total).toBe(62);
    expect(first.organizations).toHaveLength(50);
    expect(first.organizations.slice(0, 3).map((o) => [o.name, o.role])).toEqual([
      ['Omega Team', 'admin'],
      ['Zeta Team', 'admin'],
      ['Client 01', null],
    ]);
    expect(first.organizations.map((o) => o.name)).not.toContain('Client 60');
    const second = await list(staffAdmin, '/api/organizations?organization_id=&page=2');
    expect(second.organizations.map((o) => o.name)).toEqual([49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60].map((n) => `Client ${n}`));
    // On the staff page (/admin/all) the order stays the name's.
    const all = await list(staffAdmin, '/api/organizations/admin/all?organization_id=&page=2');
    expect(all.organizations.map((o) => o.name).slice(-2)).toEqual(['Omega Team', 'Zeta Team']);
  });

  it('the query finds the 60th organization; members only find their own', async () => {
    expect((await list(staffAdmin, '/api/organizations?organization_id=&query=client%2060')).organizations.map((o) => o.name)).toEqual(['Client 60']);
    // Memberships first also among the matches.
    expect((await list(staffAdmin, '/api/organizations?organization_id=&query=team')).organizations.map((o) => o.name)).toEqual(['Omega Team', 'Zeta Team']);
    expect((await list(member, '/api/organizations?organization_id=&query=client')).organizations.map((o) => o.name)).toEqual(['Client 07']);
    expect((await list(member, '/api/organizations?organization_id=&query=client%2060')).total).toBe(0);
    // A hostile pattern matches literally.
    expect((await list(staffAdmin, '/api/organizations?organization_id=&query=%25')).total).toBe(0);
  });
});
