// Products through the real app (spec part 1 §7 GET /products/available, GET /products/{id}): public for
// visitors, scoped to the request's context (DESIGN.md §7) — the operator's products in Personal, an
// organization's own inside it (member, non-member → 404, Personal), with the viewer's abilities.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganization, buildProduct, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

describe('products API', () => {
  let t: TestApp;
  let member: BuiltUser;
  let orgAdmin: BuiltUser;
  let stranger: BuiltUser;
  let staffAdmin: BuiltUser;
  let staffManager: BuiltUser;
  let organizationId: number;
  let otherOrganizationId: number;
  const ids = { operator: 0, operatorOffSale: 0, organization: 0, organizationOffSale: 0, otherOrganization: 0 };

  beforeAll(async () => {
    t = await createTestApp();
    member = await buildUser(t.ctx);
    orgAdmin = await buildUser(t.ctx);
    stranger = await buildUser(t.ctx);
    staffAdmin = await buildUser(t.ctx, { staffRole: 'admin' });
    staffManager = await buildUser(t.ctx, { staffRole: 'manager' });
    organizationId = (await buildOrganization(t.ctx, [
      { user: member, role: 'member' },
      { user: orgAdmin, role: 'admin' },
    ])).organizationId;
    otherOrganizationId = (await buildOrganization(t.ctx, [{ user: stranger, role: 'admin' }])).organizationId;
    ids.operator = (await buildProduct(t.ctx, { name: 'Operator plan', price: 19 })).productId;
    ids.operatorOffSale = (await buildProduct(t.ctx, { name: 'Retired plan', available: false })).productId;
    ids.organization = (await buildProduct(t.ctx, { name: 'Team plan', price: 5, organizationId })).productId;
    ids.organizationOffSale = (await buildProduct(t.ctx, { name: 'Old team plan', organizationId, available: false })).productId;
    ids.otherOrganization = (await buildProduct(t.ctx, { name: 'Their plan', organizationId: otherOrganizationId })).productId;
  });
  afterAll(() => t.close());

  const inOrg = () => `?organization_id=${organizationId}`;
  const get = (who: BuiltUser | null, url: string) => t.app.inject({ url, headers: who ? who.auth : {} });
  const listIds = async (who: BuiltUser | null, query = '') => {
    const res = await get(who, `/api/products/available${query}`);
    expect(res.statusCode).toBe(200);
    return (res.json() as { product_id: number }[]).map((p) => p.product_id);
  };

  it('a visitor sees the operator products on sale, with exactly the spec fields and abilities', async () => {
    const res = await get(null, '/api/products/available');
    expect(res.statusCode).toBe(200);
    const list = res.json() as Record<string, unknown>[];
    const listed = list.map((p) => p.product_id);
    expect(listed).toContain(ids.operator);
    for (const hidden of [ids.operatorOffSale, ids.organization, ids.organizationOffSale, ids.otherOrganization]) expect(listed).not.toContain(hidden);
    const operator = list.find((p) => p.product_id === ids.operator)!;
    expect(Object.keys(operator).sort()).toEqual(
      [
        'abilities', 'description', 'expiration_days', 'free_trial_length', 'image', 'is_subscription', 'name', 'organization_id', 'price',
        'product_id', 'sale_price', 'short_description', 'subscription_interval', 'subscription_period', 'word_amount',
      ].sort(),
    );
    expect(operator).toMatchObject({ name: 'Operator plan', price: 19, organization_id: null, abilities: { read: true, buy: true, update: false, delete: false } });

    const one = await get(null, `/api/products/${ids.operator}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(operator);
    for (const hidden of [ids.operatorOffSale, ids.organization, ids.otherOrganization, 2_000_000]) {
      expect((await get(null, `/api/products/${hidden}`)).statusCode).toBe(404);
    }
  });

  it('a visitor cannot act in an organization (401); bad ids are refused (400)', async () => {
    expect((await get(null, `/api/products/available${inOrg()}`)).statusCode).toBe(401);
    expect((await get(null, `/api/products/${ids.organization}${inOrg()}`)).statusCode).toBe(401);
    expect((await get(null, '/api/products/available?organization_id=abc')).statusCode).toBe(400);
    expect((await get(null, '/api/products/0')).statusCode).toBe(400);
    // A session that is sent is checked, as on every signed-in route.
    expect((await t.app.inject({ url: '/api/products/available', headers: { authorization: 'Bearer not-a-token' } })).statusCode).toBe(401);
  });

  it("a member sees the organization's products on sale there, and only those", async () => {
    expect(await listIds(member, inOrg())).toEqual([ids.organization]);
    const one = await get(member, `/api/products/${ids.organization}${inOrg()}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ name: 'Team plan', organization_id: organizationId, abilities: { read: true, buy: true, update: false, delete: false } });
    // Off sale, the operator's, another organization's: not found in this context.
    for (const hidden of [ids.organizationOffSale, ids.operator, ids.otherOrganization]) {
      expect((await get(member, `/api/products/${hidden}${inOrg()}`)).statusCode).toBe(404);
    }
  });

  it('a non-member naming the organization gets 404, as for one that does not exist', async () => {
    expect((await get(stranger, `/api/products/available${inOrg()}`)).statusCode).toBe(404);
    expect((await get(stranger, `/api/products/${ids.organization}${inOrg()}`)).statusCode).toBe(404);
    expect((await get(stranger, '/api/products/available?organization_id=2000000000')).statusCode).toBe(404);
    // A staff manager is no member either (staff admins act in any organization as its Admin).
    expect((await get(staffManager, `/api/products/available${inOrg()}`)).statusCode).toBe(404);
  });

  it('Personal shows no organization products, even to their members', async () => {
    for (const who of [member, orgAdmin, staffAdmin]) {
      const listed = await listIds(who);
      expect(listed).toContain(ids.operator);
      for (const hidden of [ids.organization, ids.organizationOffSale, ids.otherOrganization]) expect(listed).not.toContain(hidden);
      expect((await get(who, `/api/products/${ids.organization}`)).statusCode).toBe(404);
    }
  });

  it("the organization's Admin (or a staff admin acting as one) also reads products off sale, and may manage them", async () => {
    // The pricing list stays what is on sale.
    expect(await listIds(orgAdmin, inOrg())).toEqual([ids.organization]);
    for (const who of [orgAdmin, staffAdmin]) {
      const off = await get(who, `/api/products/${ids.organizationOffSale}${inOrg()}`);
      expect(off.statusCode).toBe(200);
      expect(off.json().abilities).toEqual({ read: true, buy: false, update: true, delete: true });
    }
    expect((await get(orgAdmin, `/api/products/${ids.otherOrganization}${inOrg()}`)).statusCode).toBe(404);
  });

  it('staff read the operator products off sale in Personal; only admins may manage them', async () => {
    const admin = await get(staffAdmin, `/api/products/${ids.operatorOffSale}`);
    expect(admin.statusCode).toBe(200);
    expect(admin.json().abilities).toEqual({ read: true, buy: false, update: true, delete: true });
    const manager = await get(staffManager, `/api/products/${ids.operatorOffSale}`);
    expect(manager.statusCode).toBe(200);
    expect(manager.json().abilities).toEqual({ read: true, buy: false, update: false, delete: false });
    expect((await get(member, `/api/products/${ids.operatorOffSale}`)).statusCode).toBe(404);
    expect(await listIds(staffAdmin)).not.toContain(ids.operatorOffSale);
  });
});
