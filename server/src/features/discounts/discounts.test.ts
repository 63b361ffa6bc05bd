// Discount codes through the real app (spec part 1 §3 Discount, §7 GET /discounts/code/{code}, §8 "Discount
// error"; docs/decisions.md "Discount codes"): the customer's lookup with the spec's errors in EN and ES, the
// staff admin API (audited; codes unique in any case, also under a race), redemptions, and the demo seed.
import { translate, type MessageKey } from '@pluma/common/messages';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, discounts, products } from '../../db/schema';
import { buildDiscount, buildOrganization, buildProduct, buildStaffCast, buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { seedSampleCatalog as seedProducts } from './seed';
import { DISCOUNT_LOOKUPS_PER_MINUTE } from './routes';
import { DEMO_DISCOUNT_CODE } from './seed';
import { redeemDiscount } from './redemption';

const RECORD_KEYS = [
  'active', 'amount', 'code', 'createdAt', 'discount_id', 'expires_at', 'first_invoice_only', 'is_percent', 'max_redemptions', 'product_id',
  'redemptions', 'updatedAt',
].sort();

describe('discounts', () => {
  let t: TestApp;
  let admin: BuiltUser;
  let spanishAdmin: BuiltUser;
  let manager: BuiltUser;
  let customer: BuiltUser;
  let spanishCustomer: BuiltUser;

  beforeAll(async () => {
    t = await createTestApp();
    ({ admin, spanishAdmin, manager, customer } = await buildStaffCast(t.ctx));
    spanishCustomer = await buildUser(t.ctx, { lang: 'es' });
  });
  afterAll(() => t.close());

  const lookup = (who: BuiltUser | null, code: string, productId: number | string, extra = '') =>
    t.app.inject({ url: `/api/discounts/code/${encodeURIComponent(code)}?product_id=${productId}${extra}`, headers: who ? who.auth : {} });
  const adminCall = (who: BuiltUser | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url: `/api/discounts/admin${url}`, headers: who ? who.auth : {}, payload });
  const auditRows = (discountId: number) =>
    t.ctx.db.select().from(auditLog).where(and(eq(auditLog.targetType, 'discount'), eq(auditLog.targetId, String(discountId)))).orderBy(asc(auditLog.auditId));

  // First: the seed runs only on an installation without products.
  it('seeds the demo code with the sample plans: on outside production, off in production', async () => {
    await seedProducts(t.ctx);
    const [starter] = await t.ctx.db.select().from(products).where(eq(products.name, 'Starter'));
    const on = await lookup(customer, DEMO_DISCOUNT_CODE.toLowerCase(), starter.productId);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({
      code: DEMO_DISCOUNT_CODE,
      is_percent: true,
      amount: 10,
      first_invoice_only: false,
      product_id: starter.productId,
      price_cents: 1900,
      discounted_price_cents: 1710,
    });
    // Only for the Starter plan.
    const [pro] = await t.ctx.db.select().from(products).where(eq(products.name, 'Pro'));
    expect((await lookup(customer, DEMO_DISCOUNT_CODE, pro.productId)).statusCode).toBe(404);

    await t.ctx.db.delete(products); // the demo code goes with its product
    expect(await t.ctx.db.select().from(discounts)).toEqual([]);
    await seedProducts({ ...t.ctx, env: { ...t.ctx.env, NODE_ENV: 'production' } });
    const [demo] = await t.ctx.db.select().from(discounts);
    expect(demo).toMatchObject({ code: DEMO_DISCOUNT_CODE, active: false });
    // Booting again seeds nothing more.
    await seedProducts(t.ctx);
    expect(await t.ctx.db.select().from(discounts)).toHaveLength(1);
  });

  it('looks a code up for a product: any case, percent or amount, from the sale price, in cents', async () => {
    const product = await buildProduct(t.ctx, { price: 49, salePrice: 39.99 });
    await buildDiscount(t.ctx, { code: 'Spring15', isPercent: true, amount: 15 });
    await buildDiscount(t.ctx, { code: 'five-off', isPercent: false, amount: 5.5, firstInvoiceOnly: true, productId: product.productId });
    const percent = await lookup(customer, ' spring15 ', product.productId);
    expect(percent.statusCode).toBe(200);
    expect(percent.json()).toMatchObject({ code: 'Spring15', is_percent: true, amount: 15, price_cents: 3999, discounted_price_cents: 3399 });
    const off = await lookup(customer, 'FIVE-OFF', product.productId);
    expect(off.json()).toMatchObject({ code: 'five-off', is_percent: false, amount: 5.5, first_invoice_only: true, discounted_price_cents: 3449 });
    // Never below 0.
    const cheap = await buildProduct(t.ctx, { price: 3 });
    await buildDiscount(t.ctx, { code: 'BIG', isPercent: false, amount: 50 });
    expect((await lookup(customer, 'big', cheap.productId)).json().discounted_price_cents).toBe(0);
  });

  it("an unknown code, or one for another product, is the spec's 'invalid' (EN and ES)", async () => {
    const product = await buildProduct(t.ctx);
    const other = await buildProduct(t.ctx);
    await buildDiscount(t.ctx, { code: 'ONLYOTHER', productId: other.productId });
    for (const code of ['NOPE', 'ONLYOTHER', 'has space', 'ü']) {
      const en = await lookup(customer, code, product.productId);
      expect(en.statusCode, code).toBe(404);
      expect(en.json()).toEqual({ error: 'discount_invalid', message: "We're sorry, that discount is invalid." });
      expect((await lookup(spanishCustomer, code, product.productId)).json().message).toBe('Lo sentimos, ese descuento no es válido.');
    }
  });

  it("a code switched off, expired or used up gives the spec's 412 (EN and ES)", async () => {
    const product = await buildProduct(t.ctx);
    await buildDiscount(t.ctx, { code: 'OFF-CODE', active: false });
    await buildDiscount(t.ctx, { code: 'OLD-CODE', expiresAt: new Date(Date.now() - 1000) });
    await buildDiscount(t.ctx, { code: 'USED-UP', maxRedemptions: 2, redemptions: 2 });
    await buildDiscount(t.ctx, { code: 'LATER', expiresAt: new Date(Date.now() + 3_600_000), maxRedemptions: 2, redemptions: 1 });
    for (const code of ['OFF-CODE', 'OLD-CODE', 'USED-UP']) {
      const en = await lookup(customer, code, product.productId);
      expect(en.statusCode, code).toBe(412);
      expect(en.json()).toEqual({ error: 'discount_unavailable', message: "We're sorry, you cannot use this discount code anymore." });
      expect((await lookup(spanishCustomer, code, product.productId)).json().message).toBe('Lo sentimos, ya no puedes usar este código de descuento.');
    }
    expect((await lookup(customer, 'LATER', product.productId)).statusCode).toBe(200);
  });

  it("the product must be one the customer may buy here; an organization's products take only their own codes", async () => {
    const member = await buildUser(t.ctx);
    const organization = await buildOrganization(t.ctx, [{ user: member, role: 'member' }]);
    const orgProduct = await buildProduct(t.ctx, { organizationId: organization.organizationId, price: 20 });
    await buildDiscount(t.ctx, { code: 'ANY-OPERATOR' });
    await buildDiscount(t.ctx, { code: 'ORG-ONLY', productId: orgProduct.productId });
    const inOrg = `&organization_id=${organization.organizationId}`;
    expect((await lookup(member, 'ORG-ONLY', orgProduct.productId, inOrg)).json().discounted_price_cents).toBe(1800);
    expect((await lookup(member, 'ANY-OPERATOR', orgProduct.productId, inOrg)).json().error).toBe('discount_invalid');
    // From Personal, or for someone outside the organization, the product is not found (the spec's message).
    const personal = await lookup(member, 'ORG-ONLY', orgProduct.productId);
    expect(personal.json()).toEqual({ error: 'not_found', message: 'This package was not found.' });
    expect((await lookup(customer, 'ORG-ONLY', orgProduct.productId, inOrg)).statusCode).toBe(404);
    const offSale = await buildProduct(t.ctx, { available: false });
    expect((await lookup(customer, 'ANY-OPERATOR', offSale.productId)).statusCode).toBe(404);
    expect((await lookup(customer, 'ANY-OPERATOR', 2_000_000_000)).statusCode).toBe(404);
  });

  it('the lookup needs a session and a product id, and is limited per customer', async () => {
    const product = await buildProduct(t.ctx);
    expect((await lookup(null, 'ANY', product.productId)).statusCode).toBe(401);
    for (const url of ['/api/discounts/code/ANY', '/api/discounts/code/ANY?product_id=abc', '/api/discounts/code/ANY?product_id=0']) {
      const res = await t.app.inject({ url, headers: customer.auth });
      expect(res.statusCode, url).toBe(400);
    }
    const guesser = await buildUser(t.ctx);
    for (let i = 0; i < DISCOUNT_LOOKUPS_PER_MINUTE; i++) expect((await lookup(guesser, `GUESS${i}`, product.productId)).statusCode).toBe(404);
    expect((await lookup(guesser, 'GUESS-MORE', product.productId)).statusCode).toBe(429);
    // Another customer is not held back.
    expect((await lookup(customer, 'GUESS-MORE', product.productId)).statusCode).toBe(404);
  });

  it('staff admins create, list, update and delete codes; each change is audited', async () => {
    const product = await buildProduct(t.ctx);
    const created = await adminCall(admin, 'POST', '', {
      code: ' Summer-25 ',
      is_percent: true,
      amount: 25,
      first_invoice_only: true,
      product_id: product.productId,
      expires_at: '2030-06-30T23:59:59Z',
      max_redemptions: 100,
    });
    expect(created.statusCode).toBe(201);
    const discount = created.json();
    expect(Object.keys(discount).sort()).toEqual(RECORD_KEYS);
    expect(discount).toMatchObject({
      code: 'Summer-25',
      is_percent: true,
      amount: 25,
      first_invoice_only: true,
      product_id: product.productId,
      active: true,
      expires_at: '2030-06-30T23:59:59.000Z',
      max_redemptions: 100,
      redemptions: 0,
    });

    const listed = await adminCall(admin, 'GET', '?query=summer');
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ total: 1, discounts: [{ discount_id: discount.discount_id }] });
    expect((await adminCall(admin, 'GET', '?limit=1&page=1')).json().discounts).toHaveLength(1);
    expect((await adminCall(admin, 'GET', '?query=%25_')).json().total).toBe(0);

    const updated = await adminCall(admin, 'PUT', '', { discount_id: discount.discount_id, active: false, expires_at: null });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ code: 'Summer-25', active: false, expires_at: null, amount: 25 });

    const deleted = await adminCall(admin, 'DELETE', `/${discount.discount_id}`);
    expect(deleted.json()).toEqual({ deleted: true });
    expect((await adminCall(admin, 'DELETE', `/${discount.discount_id}`)).statusCode).toBe(404);
    expect((await adminCall(admin, 'PUT', '', { discount_id: discount.discount_id, active: true })).statusCode).toBe(404);

    const audit = await auditRows(discount.discount_id);
    expect(audit.map((row) => row.action)).toEqual(['POST /api/discounts/admin', 'PUT /api/discounts/admin', 'DELETE /api/discounts/admin/:id']);
    expect(audit.every((row) => row.actorUserId === admin.user.userId)).toBe(true);
    expect(JSON.parse(audit[1].details!)).toEqual({ changes: { active: { from: true, to: false }, expires_at: { from: '2030-06-30T23:59:59.000Z', to: null } } });
    expect(JSON.parse(audit[2].details!)).toEqual({ code: 'Summer-25' });
  });

  it('a code is unique whatever its case: 409, also when two admins create it at once', async () => {
    await buildDiscount(t.ctx, { code: 'UNIQUE1' });
    const dup = await adminCall(admin, 'POST', '', { code: 'unique1', is_percent: false, amount: 1 });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ error: 'discount_code_exists', message: 'A discount with this code already exists.' });
    expect((await adminCall(spanishAdmin, 'POST', '', { code: 'Unique1', is_percent: false, amount: 1 })).json().message).toBe('Ya existe un descuento con este código.');

    const race = await Promise.all([
      adminCall(admin, 'POST', '', { code: 'RACE', is_percent: true, amount: 5 }),
      adminCall(spanishAdmin, 'POST', '', { code: 'race', is_percent: true, amount: 5 }),
    ]);
    expect(race.map((r) => r.statusCode).sort()).toEqual([201, 409]);

    // Renaming onto another code is refused too, and changes nothing.
    const other = await buildDiscount(t.ctx, { code: 'RENAME-ME' });
    const rename = await adminCall(admin, 'PUT', '', { discount_id: other.discountId, code: 'Race', amount: 3 });
    expect(rename.statusCode).toBe(409);
    const [row] = await t.ctx.db.select().from(discounts).where(eq(discounts.discountId, other.discountId));
    expect(row).toMatchObject({ code: 'RENAME-ME', amount: 10 });
  });

  it('refuses bad codes and amounts with translated messages', async () => {
    const cases: [Record<string, unknown>, string, MessageKey][] = [
      [{ code: 'has space', is_percent: true, amount: 5 }, 'code', 'discount_code_format'],
      [{ code: '', is_percent: true, amount: 5 }, 'code', 'discount_code_format'],
      [{ code: 'x'.repeat(51), is_percent: true, amount: 5 }, 'code', 'discount_code_format'],
      [{ code: 'OK', is_percent: true, amount: 101 }, 'amount', 'discount_percent_invalid'],
      [{ code: 'OK', is_percent: false, amount: 0 }, 'amount', 'discount_amount_invalid'],
      [{ code: 'OK', is_percent: false, amount: 1.001 }, 'amount', 'discount_amount_invalid'],
      [{ code: 'OK', is_percent: false }, 'amount', 'discount_amount_invalid'],
      [{ code: 'OK', is_percent: false, amount: 1, expires_at: 'soon' }, 'expires_at', 'invalid_date'],
    ];
    for (const [body, field, key] of cases) {
      for (const [who, lang] of [[admin, 'en'], [spanishAdmin, 'es']] as const) {
        const res = await adminCall(who, 'POST', '', body);
        expect(res.statusCode, `${field} ${lang}`).toBe(400);
        expect(res.json().details[field], `${field} ${lang}`).toBe(translate(lang, key));
      }
    }
    const missingProduct = await adminCall(admin, 'POST', '', { code: 'NOPRODUCT', is_percent: false, amount: 1, product_id: 2_000_000_000 });
    expect(missingProduct.statusCode).toBe(400);
    expect(missingProduct.json().details).toEqual({ product_id: 'The record named in product_id does not exist.' });
    // A change that would make a percentage over 100 is checked on the result.
    const dollars = await buildDiscount(t.ctx, { code: 'DOLLARS-150', isPercent: false, amount: 150 });
    const toPercent = await adminCall(spanishAdmin, 'PUT', '', { discount_id: dollars.discountId, is_percent: true });
    expect(toPercent.statusCode).toBe(400);
    expect(toPercent.json().message).toBe('Un descuento en porcentaje debe ser mayor que 0 y como máximo 100.');
    expect(await t.ctx.db.select().from(discounts).where(eq(discounts.code, 'OK'))).toEqual([]);
  });

  it('only staff admins manage codes: 401 signed out, 403 for customers and managers (who may read the list)', async () => {
    const discount = await buildDiscount(t.ctx);
    const attempts = (who: BuiltUser | null) => [
      adminCall(who, 'GET', ''),
      adminCall(who, 'POST', '', { code: '', amount: -1 }),
      adminCall(who, 'PUT', '', { discount_id: discount.discountId, active: false }),
      adminCall(who, 'DELETE', `/${discount.discountId}`),
    ];
    for (const res of await Promise.all(attempts(null))) expect(res.statusCode).toBe(401);
    for (const res of await Promise.all(attempts(customer))) expect(res.statusCode).toBe(403);
    const [managerList, ...managerChanges] = await Promise.all(attempts(manager));
    expect(managerList.statusCode).toBe(200);
    expect(managerList.json().discounts.map((d: { code: string }) => d.code)).toContain(discount.code);
    for (const res of managerChanges) expect(res.statusCode).toBe(403);
    const [row] = await t.ctx.db.select().from(discounts).where(eq(discounts.discountId, discount.discountId));
    expect(row.active).toBe(true);
  });

  it('redeems a code once per paid purchase, never past max_redemptions, also under concurrent purchases', async () => {
    const discount = await buildDiscount(t.ctx, { maxRedemptions: 3 });
    const results = await Promise.all(Array.from({ length: 6 }, () => t.ctx.db.transaction((tx) => redeemDiscount(tx, discount.discountId))));
    expect(results.filter(Boolean)).toHaveLength(3);
    const [row] = await t.ctx.db.select().from(discounts).where(eq(discounts.discountId, discount.discountId));
    expect(row.redemptions).toBe(3);
    const product = await buildProduct(t.ctx);
    expect((await lookup(customer, discount.code, product.productId)).statusCode).toBe(412);
    const off = await buildDiscount(t.ctx, { active: false });
    expect(await redeemDiscount(t.ctx.db, off.discountId)).toBe(false);
  });
});
