// Managing products through the real app (spec part 1 §7 GET /products, POST /products, PUT /products; §5
// product rules with their exact messages in EN and ES): staff admins manage the operator's products, an
// organization's Admin its own (DESIGN.md §7: member → 403, non-member → 404, Personal); every change is
// audited. Also the buy-limit check checkout uses (assertCanBuy: spec §8 purchase 409/412).
import { translate, type MessageKey } from '@pluma/common/messages';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, products, purchases } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import type { AppError } from '../../platform/http/errors';
import { buildOrganization, buildProduct, buildPurchase, buildStaffCast, buildUser, type BuiltUser } from '../../test/factories';
import { testDbKind } from '../../test/test-db';
import { createTestApp, type TestApp } from '../../test/test-app';
import { assertCanBuy } from './purchase-limits';

const MANAGED_KEYS = [
  'abilities', 'available', 'createdAt', 'description', 'expiration_days', 'free_trial_end', 'free_trial_length', 'free_trial_period',
  'free_trial_words', 'image', 'is_subscription', 'limit_per_user', 'name', 'organization_id', 'price', 'product_id', 'product_sku',
  'sale_price', 'short_description', 'stripe_price_id', 'stripe_product_id', 'subscription_interval', 'subscription_period', 'thumbnail',
  'updatedAt', 'user_limit', 'video_src', 'webhook_url', 'word_amount',
].sort();

const valid = { name: 'Team', description: 'For teams', price: 29.99, word_amount: 20_000 };

describe('managing products', () => {
  let t: TestApp;
  let admin: BuiltUser;
  let spanishAdmin: BuiltUser;
  let manager: BuiltUser;
  let customer: BuiltUser;
  let orgAdmin: BuiltUser;
  let orgMember: BuiltUser;
  let organizationId: number;
  let otherOrganizationId: number;

  beforeAll(async () => {
    t = await createTestApp();
    ({ admin, spanishAdmin, manager, customer } = await buildStaffCast(t.ctx));
    orgAdmin = await buildUser(t.ctx);
    orgMember = await buildUser(t.ctx);
    organizationId = (await buildOrganization(t.ctx, [
      { user: orgAdmin, role: 'admin' },
      { user: orgMember, role: 'member' },
    ])).organizationId;
    otherOrganizationId = (await buildOrganization(t.ctx, [{ user: customer, role: 'admin' }])).organizationId;
  });
  afterAll(() => t.close());

  const post = (who: BuiltUser | null, payload: Record<string, unknown>, query = '') =>
    t.app.inject({ method: 'POST', url: `/api/products${query}`, headers: who ? who.auth : {}, payload });
  const put = (who: BuiltUser | null, payload: Record<string, unknown>, query = '') =>
    t.app.inject({ method: 'PUT', url: `/api/products${query}`, headers: who ? who.auth : {}, payload });
  const list = (who: BuiltUser | null, query = '') => t.app.inject({ url: `/api/products${query}`, headers: who ? who.auth : {} });
  const auditRows = (productId: number) =>
    t.ctx.db.select().from(auditLog).where(and(eq(auditLog.targetType, 'product'), eq(auditLog.targetId, String(productId)))).orderBy(asc(auditLog.auditId));

  it('a staff admin creates a product with every field of the form, and the creation is audited', async () => {
    const res = await post(admin, {
      name: '  Pro yearly ',
      description: 'Everything, for a year',
      short_description: '',
      price: 199,
      sale_price: 149.5,
      word_amount: null,
      is_subscription: true,
      subscription_period: 'year',
      subscription_interval: 1,
      free_trial_length: 7,
      free_trial_words: 500,
      limit_per_user: 1,
      user_limit: 100,
      stripe_product_id: 'prod_123',
      stripe_price_id: 'price_123',
      webhook_url: 'https://hooks.example.com/lead',
      product_sku: 'PRO-Y',
      image: '/api/files/abc.png',
      video_src: 'https://video.example.com/intro.mp4',
    });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(Object.keys(created).sort()).toEqual(MANAGED_KEYS);
    expect(created).toMatchObject({
      name: 'Pro yearly',
      short_description: null,
      price: 199,
      sale_price: 149.5,
      word_amount: null,
      is_subscription: true,
      subscription_period: 'year',
      subscription_interval: 1,
      free_trial_period: 'days',
      free_trial_length: 7,
      free_trial_end: null,
      free_trial_words: 500,
      limit_per_user: 1,
      user_limit: 100,
      available: true,
      organization_id: null,
      abilities: { read: true, buy: true, update: true, delete: true },
    });
    const [audit] = await auditRows(created.product_id);
    expect(audit).toMatchObject({ actorUserId: admin.user.userId, action: 'POST /api/products' });

    // The customer's view of it stays the pricing fields.
    const asCustomer = await t.app.inject({ url: `/api/products/${created.product_id}`, headers: customer.auth });
    expect(asCustomer.statusCode).toBe(200);
    expect(asCustomer.json()).not.toHaveProperty('webhook_url');
    expect(asCustomer.json().abilities).toEqual({ read: true, buy: true, update: false, delete: false });
    // Its manager reads every field.
    const asAdmin = await t.app.inject({ url: `/api/products/${created.product_id}`, headers: admin.auth });
    expect(asAdmin.json()).toEqual(created);
  });

  it('a subscription gets month and interval 1 by default; a trial by end date is stored as such', async () => {
    const res = await post(admin, { ...valid, is_subscription: true, free_trial_end: '2030-01-31' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ subscription_period: 'month', subscription_interval: 1, free_trial_period: 'date', free_trial_end: '2030-01-31', free_trial_length: null });
  });

  it("refuses each of the spec's product rules with its exact message, in English and Spanish", async () => {
    const cases: [Record<string, unknown>, string, MessageKey][] = [
      [{ ...valid, name: undefined }, 'name', 'product_name_required'],
      [{ ...valid, name: '   ' }, 'name', 'product_name_required'],
      [{ ...valid, description: undefined }, 'description', 'product_description_required'],
      [{ ...valid, description: '' }, 'description', 'product_description_required'],
      [{ ...valid, price: 0 }, 'price', 'product_price_invalid'],
      [{ ...valid, price: -5 }, 'price', 'product_price_invalid'],
      [{ ...valid, price: undefined }, 'price', 'product_price_invalid'],
      [{ ...valid, price: '10' }, 'price', 'product_price_invalid'],
      [{ ...valid, price: 10.005 }, 'price', 'product_price_invalid'],
      [{ ...valid, word_amount: 0 }, 'word_amount', 'product_word_amount_invalid'],
      [{ ...valid, word_amount: 2.5 }, 'word_amount', 'product_word_amount_invalid'],
      [{ ...valid, word_amount: undefined }, 'word_amount', 'product_word_amount_invalid'],
      [{ ...valid, stripe_product_id: 'prod_1' }, 'stripe_price_id', 'product_stripe_price_required'],
      [{ ...valid, stripe_price_id: 'price_1', subscription_period: 'month' }, 'subscription_interval', 'product_subscription_interval_required'],
      [{ ...valid, stripe_price_id: 'price_1', subscription_interval: 1 }, 'subscription_period', 'product_subscription_period_required'],
      [{ ...valid, sale_price: 40 }, 'sale_price', 'product_sale_price_invalid'],
      [{ ...valid, free_trial_length: 7, free_trial_end: '2030-01-01' }, 'free_trial_end', 'product_trial_conflict'],
      [{ ...valid, webhook_url: 'javascript:alert(1)' }, 'webhook_url', 'product_webhook_url_invalid'],
      [{ ...valid, image: '//evil.example.com/x.png' }, 'image', 'product_url_invalid'],
    ];
    const before = await t.ctx.db.select().from(products);
    for (const [body, field, key] of cases) {
      for (const [who, lang] of [[admin, 'en'], [spanishAdmin, 'es']] as const) {
        const res = await post(who, body);
        expect(res.statusCode, `${field} ${lang}`).toBe(400);
        expect(res.json().details[field], `${field} ${lang}`).toBe(translate(lang, key));
      }
    }
    // The spec's own texts, verbatim.
    expect((await post(admin, { ...valid, name: '' })).json().message).toBe('Product must have a name.');
    expect((await post(admin, { ...valid, price: 0 })).json().message).toBe('Product must have a valid price greater than 0.');
    expect((await post(admin, { ...valid, word_amount: -1 })).json().message).toBe('Product must have a valid word amount greater than 0.');
    expect((await post(admin, { ...valid, stripe_product_id: 'prod_1' })).json().message).toBe('If stripe_product_id is provided, stripe_price_id must also be provided.');
    expect((await post(spanishAdmin, { ...valid, description: '' })).json().message).toBe('El producto debe tener una descripción.');
    // A stripe price with both terms is fine; a subscription gets its terms by default.
    expect((await post(admin, { ...valid, stripe_product_id: 'p', stripe_price_id: 'pr', subscription_period: 'month', subscription_interval: 1 })).statusCode).toBe(201);
    expect((await post(admin, { ...valid, stripe_price_id: 'pr', is_subscription: true })).statusCode).toBe(201);
    expect((await t.ctx.db.select().from(products)).length).toBe(before.length + 2);
  });

  it('PUT changes only the fields sent, checks the rules on the result, and audits what changed', async () => {
    const product = await buildProduct(t.ctx, { name: 'Editable', price: 20, stripeProductId: null });
    const res = await put(admin, { product_id: product.productId, price: 25, available: false, word_amount: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Editable', price: 25, available: false, word_amount: null });
    const audit = (await auditRows(product.productId)).find((row) => row.action === 'PUT /api/products');
    expect(JSON.parse(audit!.details!)).toEqual({
      changes: { price: { from: 20, to: 25 }, available: { from: true, to: false }, word_amount: { from: 10_000, to: null } },
    });

    // A sale price above the price already stored, a Stripe product without its price: refused, nothing changed.
    const above = await put(admin, { product_id: product.productId, sale_price: 30 });
    expect(above.statusCode).toBe(400);
    expect(above.json()).toMatchObject({ message: 'The sale price must be greater than 0 and not above the price.', details: { sale_price: 'The sale price must be greater than 0 and not above the price.' } });
    const stripe = await put(spanishAdmin, { product_id: product.productId, stripe_product_id: 'prod_9' });
    expect(stripe.json().message).toBe('Si se indica stripe_product_id, también se debe indicar stripe_price_id.');
    expect((await put(admin, { product_id: product.productId, name: '' })).json().message).toBe('Product must have a name.');
    const [row] = await t.ctx.db.select().from(products).where(eq(products.productId, product.productId));
    expect(row).toMatchObject({ price: 25, salePrice: null, stripeProductId: null, name: 'Editable' });

    // Unknown, and another context's product: the spec's "package not found".
    const org = await buildProduct(t.ctx, { organizationId });
    for (const id of [2_000_000_000, org.productId]) {
      const missing = await put(admin, { product_id: id, price: 5 });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ error: 'not_found', message: 'This package was not found.' });
    }
    expect((await put(spanishAdmin, { product_id: 2_000_000_000, price: 5 })).json().message).toBe('No se encontró el paquete.');
  });

  it("renaming a product shows at once in its buyers' current user (the auth cache is dropped)", async () => {
    const product = await buildProduct(t.ctx, { name: 'Old name' });
    const buyer = await buildUser(t.ctx);
    await buildPurchase(t.ctx, { userId: buyer.user.userId, productId: product.productId });
    const me = async () => (await t.app.inject({ url: '/api/users', headers: buyer.auth })).json().purchase.product.name;
    expect(await me()).toBe('Old name');
    expect((await put(admin, { product_id: product.productId, name: 'New name' })).statusCode).toBe(200);
    expect(await me()).toBe('New name');
  });

  it('lists the products of the context: searched, sorted, paged, with the total; off sale included', async () => {
    const tag = `zz${Date.now().toString(36)}`;
    const made = [
      await buildProduct(t.ctx, { name: `${tag} banana`, price: 30, wordAmount: 100 }),
      await buildProduct(t.ctx, { name: `${tag} Apple`, price: 10, wordAmount: null, available: false }),
      await buildProduct(t.ctx, { name: `${tag} cherry`, price: 20, wordAmount: 5000, productSku: 'SKU-1' }),
    ];
    await buildProduct(t.ctx, { name: `${tag} theirs`, organizationId });
    const names = async (query: string) => {
      const res = await list(admin, `?query=${tag}${query}`);
      expect(res.statusCode).toBe(200);
      const body = res.json() as { products: { name: string }[]; total: number };
      expect(body.total).toBe(3);
      return body.products.map((p) => p.name.replace(`${tag} `, ''));
    };
    // Default: name ascending, any case.
    expect(await names('')).toEqual(['Apple', 'banana', 'cherry']);
    expect(await names('&sort=price&direction=desc')).toEqual(['banana', 'cherry', 'Apple']);
    // Unlimited (null) words sort as the most.
    expect(await names('&sort=word_amount')).toEqual(['banana', 'cherry', 'Apple']);
    expect(await names('&sort=word_amount&direction=DESC')).toEqual(['Apple', 'cherry', 'banana']);
    expect(await names('&sort=product_id')).toEqual(['banana', 'Apple', 'cherry']);
    expect(await names('&limit=2&page=2')).toEqual(['cherry']);
    const sku = (await list(admin, '?query=sku-1')).json();
    expect(sku.products.map((p: { product_id: number }) => p.product_id)).toContain(made[2].productId);
    const first = (await list(admin, `?query=${tag}`)).json().products[0];
    expect(Object.keys(first).sort()).toEqual(MANAGED_KEYS);
    // % and _ are literal in the search.
    expect((await list(admin, '?query=%25%25%25')).json().total).toBe(0);
    for (const bad of ['?sort=random', '?direction=up', '?page=0', '?limit=101', '?organization_id=abc']) {
      expect((await list(admin, bad)).statusCode, bad).toBe(400);
    }
  });

  it('refuses anyone who does not manage the products of the context', async () => {
    const product = await buildProduct(t.ctx);
    const attempts = (who: BuiltUser | null, query = '') => [
      list(who, query),
      post(who, { ...valid, name: '' }, query),
      put(who, { product_id: product.productId, price: 1 }, query),
    ];
    // Not signed in: 401 before validation (a bad body is still a 401).
    for (const res of await Promise.all(attempts(null))) expect(res.statusCode).toBe(401);
    // Signed in, not a manager of the operator's products: 403 (a customer, an organization's Admin in Personal).
    for (const who of [customer, orgAdmin]) {
      for (const res of await Promise.all(attempts(who))) {
        expect(res.statusCode).toBe(403);
        expect(res.json().error).toBe('forbidden');
      }
    }
    // A staff manager reads the list (with every product's update ability off) and changes nothing: 403.
    const [managerList, ...managerChanges] = await Promise.all(attempts(manager));
    expect(managerList.statusCode).toBe(200);
    expect(managerList.json().products.map((p: { abilities: { update: boolean } }) => p.abilities.update)).not.toContain(true);
    for (const res of managerChanges) expect(res.statusCode).toBe(403);
    // A member of the organization who is not its Admin: 403; not a member (nor staff admin): 404.
    for (const res of await Promise.all(attempts(orgMember, `?organization_id=${organizationId}`))) expect(res.statusCode).toBe(403);
    for (const who of [customer, manager]) {
      for (const res of await Promise.all(attempts(who, `?organization_id=${organizationId}`))) expect(res.statusCode).toBe(404);
    }
    const [row] = await t.ctx.db.select().from(products).where(eq(products.productId, product.productId));
    expect(row.price).toBe(10);
  });

  it("an organization's Admin manages its own products, and only there", async () => {
    const inOrg = `?organization_id=${organizationId}`;
    const created = await post(orgAdmin, { ...valid, name: 'Org plan', organization_id: organizationId });
    expect(created.statusCode).toBe(201);
    const product = created.json();
    expect(product).toMatchObject({ organization_id: organizationId, abilities: { update: true } });
    // The organization comes from the request's context, in the query or the body alike.
    const viaQuery = await post(orgAdmin, { ...valid, name: 'Org plan 2' }, inOrg);
    expect(viaQuery.json().organization_id).toBe(organizationId);

    const listed = (await list(orgAdmin, inOrg)).json();
    expect(listed.products.every((p: { organization_id: number }) => p.organization_id === organizationId)).toBe(true);
    expect(listed.products.map((p: { product_id: number }) => p.product_id)).toContain(product.product_id);
    // The operator's products are not the organization's; nor are another organization's.
    const operators = await buildProduct(t.ctx);
    const theirs = await buildProduct(t.ctx, { organizationId: otherOrganizationId });
    for (const id of [operators.productId, theirs.productId]) expect((await put(orgAdmin, { product_id: id, price: 1 }, inOrg)).statusCode).toBe(404);

    const updated = await put(orgAdmin, { product_id: product.product_id, organization_id: organizationId, name: 'Org plan, renamed' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().name).toBe('Org plan, renamed');
    // A staff admin acts in the organization as its Admin; from Personal the product is not found.
    expect((await put(admin, { product_id: product.product_id, available: false }, inOrg)).statusCode).toBe(200);
    expect((await put(admin, { product_id: product.product_id, available: true })).statusCode).toBe(404);
    // Organization Admins' changes are audited too.
    expect((await auditRows(product.product_id)).map((row) => row.actorUserId)).toEqual([orgAdmin.user.userId, orgAdmin.user.userId, admin.user.userId]);
  });

  it('keeps the public routes: the pricing list and one product', async () => {
    const product = await buildProduct(t.ctx, { name: 'Public plan' });
    const available = await t.app.inject({ url: '/api/products/available' });
    expect(available.statusCode).toBe(200);
    expect(available.json().map((p: { product_id: number }) => p.product_id)).toContain(product.productId);
    const one = await t.app.inject({ url: `/api/products/${product.productId}` });
    expect(one.statusCode).toBe(200);
    expect(one.json()).not.toHaveProperty('available');
    const missing = await t.app.inject({ url: '/api/products/2000000000', headers: { 'accept-language': 'es' } });
    expect(missing.json()).toEqual({ error: 'not_found', message: 'No se encontró el paquete.' });
  });
});

describe('assertCanBuy (spec part 1 §8: purchase 412 and 409)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const actorOf = (built: BuiltUser, organizationId: number | null = null): Pick<Actor, 'user' | 'organization'> => ({
    user: built.user,
    organization: organizationId === null ? null : { organizationId, role: 'member', asStaff: false },
  });
  const refusal = async (promise: Promise<void>) => {
    try {
      await promise;
    } catch (err) {
      const e = err as AppError;
      return { status: e.status, error: e.errorId, en: translate('en', e.messageKey), es: translate('es', e.messageKey) };
    }
    return null;
  };

  it('lets anyone buy a product on sale without limits', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx);
    await buildPurchase(t.ctx, { userId: buyer.user.userId, productId: product.productId });
    expect(await refusal(assertCanBuy({ db: t.ctx.db, actor: actorOf(buyer), product }))).toBeNull();
  });

  it('off sale: 412 "this product cannot be purchase anymore"', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx);
    // Taken off sale after the caller read it: the check reads it again.
    await t.ctx.db.update(products).set({ available: false }).where(eq(products.productId, product.productId));
    expect(await refusal(assertCanBuy({ db: t.ctx.db, actor: actorOf(buyer), product }))).toEqual({
      status: 412,
      error: 'product_unavailable',
      en: "We're sorry, this product cannot be purchase anymore.",
      es: 'Lo sentimos, este producto ya no se puede comprar.',
    });
  });

  it('user_limit: 412 for a new buyer once that many customers bought it; an earlier buyer is not counted twice', async () => {
    const [first, second, third] = [await buildUser(t.ctx), await buildUser(t.ctx), await buildUser(t.ctx)];
    const product = await buildProduct(t.ctx, { userLimit: 2 });
    await buildPurchase(t.ctx, { userId: first.user.userId, productId: product.productId, status: 'completed' });
    await buildPurchase(t.ctx, { userId: first.user.userId, productId: product.productId, status: 'cancelled' });
    // Pending (unpaid) and revoked purchases do not count.
    await buildPurchase(t.ctx, { userId: third.user.userId, productId: product.productId, status: 'pending' });
    await buildPurchase(t.ctx, { userId: third.user.userId, productId: product.productId, status: 'revoked' });
    expect(await refusal(assertCanBuy({ db: t.ctx.db, actor: actorOf(second), product }))).toBeNull();
    await buildPurchase(t.ctx, { userId: second.user.userId, productId: product.productId });
    expect((await refusal(assertCanBuy({ db: t.ctx.db, actor: actorOf(third), product })))?.status).toBe(412);
    expect(await refusal(assertCanBuy({ db: t.ctx.db, actor: actorOf(first), product }))).toBeNull();
  });

  it('limit_per_user: 409 "you cannot purchase this product anymore" once the customer bought it that many times', async () => {
    const buyer = await buildUser(t.ctx);
    const product = await buildProduct(t.ctx, { limitPerUser: 2 });
    await buildPurchase(t.ctx, { userId: buyer.user.userId, productId: product.productId, status: 'completed' });
    expect(await refusal(assertCanBuy({ db: t.ctx.db, actor: actorOf(buyer), product }))).toBeNull();
    await buildPurchase(t.ctx, { userId: buyer.user.userId, productId: product.productId, status: 'cancelled' });
    expect(await refusal(assertCanBuy({ db: t.ctx.db, actor: actorOf(buyer), product }))).toEqual({
      status: 409,
      error: 'purchase_limit_reached',
      en: "We're sorry, you cannot purchase this product anymore.",
      es: 'Lo sentimos, ya no puedes comprar este producto.',
    });
    // Another customer is not limited by this one's purchases.
    expect(await refusal(assertCanBuy({ db: t.ctx.db, actor: actorOf(await buildUser(t.ctx)), product }))).toBeNull();
  });

  it("a product of another context is not found (an organization's product from Personal, and the reverse)", async () => {
    const buyer = await buildUser(t.ctx);
    const organization = await buildOrganization(t.ctx, [{ user: buyer, role: 'member' }]);
    const orgProduct = await buildProduct(t.ctx, { organizationId: organization.organizationId });
    const operators = await buildProduct(t.ctx);
    expect((await refusal(assertCanBuy({ db: t.ctx.db, actor: actorOf(buyer), product: orgProduct })))?.status).toBe(404);
    expect((await refusal(assertCanBuy({ db: t.ctx.db, actor: actorOf(buyer, organization.organizationId), product: operators })))?.status).toBe(404);
    expect(await refusal(assertCanBuy({ db: t.ctx.db, actor: actorOf(buyer, organization.organizationId), product: orgProduct }))).toBeNull();
  });

  it('two customers racing for the last place: the product row lock lets one buy, the other gets 412', async () => {
    const [a, b] = [await buildUser(t.ctx), await buildUser(t.ctx)];
    const product = await buildProduct(t.ctx, { userLimit: 1 });
    // On PostgreSQL both transactions are open before either checks (a barrier), so the checks really
    // overlap; PGlite has one connection and runs transactions one after the other anyway.
    const overlap = testDbKind() === 'postgres';
    let arrived = 0;
    let release: () => void = () => undefined;
    const bothOpen = new Promise<void>((resolve) => (release = resolve));
    const buy = (who: BuiltUser) =>
      refusal(
        t.ctx.db.transaction(async (tx) => {
          if (overlap) {
            await tx.execute(sql`select 1`);
            if (++arrived === 2) release();
            await bothOpen;
          }
          await assertCanBuy({ db: tx, actor: actorOf(who), product });
          await tx.insert(purchases).values({ userId: who.user.userId, productId: product.productId, status: 'completed' });
        }),
      );
    const results = await Promise.all([buy(a), buy(b)]);
    expect(results.filter((r) => r === null)).toHaveLength(1);
    expect(results.find((r) => r !== null)?.status).toBe(412);
    expect(await t.ctx.db.select().from(purchases).where(eq(purchases.productId, product.productId))).toHaveLength(1);
  });
});
