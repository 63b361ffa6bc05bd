// Products as customers see them (spec part 1 §7 GET /products/available, GET /products/{id}), scoped by
// policy.ts visibleTo: the operator's in Personal, an organization's own inside it; and managed by staff admins
// and organization Admins (GET, POST, PUT /products). Framework-free.
import {
  productRuleIssues,
  withSubscriptionDefaults,
  type CreateProductRequest,
  type ListProductsQuery,
  type ProductSortKey,
  type UpdateProductRequest,
} from '@pluma/common/products';
import { VALID_PURCHASE_STATUSES } from '@pluma/common/rules/purchase-expiry';
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { products, purchases } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { invalidateUser } from '../../platform/auth/invalidation';
import { badRequest } from '../../platform/http/errors';
import { escapeLikePattern } from '../../platform/http/like-pattern';
import { catalogRules, requireProduct, visibleTo, type ProductRow, type ProductViewer } from './policy';
import { productAuditFields } from './audit-fields';

export type { ProductRow };

interface Scope {
  /** null: a visitor who is not signed in (Personal). */
  actor: ProductViewer;
  db: Db;
}

/** The pricing list: the products on sale in this context, cheapest first; 100 at most (an operator sells a handful). */
export function listAvailableProducts({ actor, db }: Scope): Promise<ProductRow[]> {
  return db
    .select()
    .from(products)
    .where(and(visibleTo(actor), eq(products.available, true)))
    .orderBy(asc(products.price), asc(products.productId))
    .limit(100);
}

/** One product the actor may see in this context (the checkout's summary), else a 404. */
export function getProduct({ actor, db, productId }: Scope & { productId: number }): Promise<ProductRow> {
  return requireProduct(db, actor, productId);
}

// ---- Managing products (spec part 1 §7 GET /products, POST /products, PUT /products). The routes let
// authorize the catalogue first (catalogRules: 403 for anyone else); every query is still scoped by visibleTo(actor).

/** The sort expression of each sort key; names sort without regard to case (index products_org_lower_name_idx). */
function sortExpression(sort: ProductSortKey): SQL | AnyPgColumn {
  switch (sort) {
    case 'product_id':
      return products.productId;
    case 'name':
      return sql`lower(${products.name})`;
    // null (unlimited) sorts as the largest amount: PostgreSQL puts nulls last ascending, first descending.
    case 'word_amount':
      return products.wordAmount;
    case 'price':
      return products.price;
    case 'sale_price':
      return products.salePrice;
    case 'is_subscription':
      return products.isSubscription;
    case 'available':
      return products.available;
    case 'createdAt':
      return products.createdAt;
  }
}

/** The Products list (spec part 1 §2): this context's products, on sale or not, searched, sorted and paged. */
export async function listProducts({ actor, db, query: q }: { actor: Actor; db: Db; query: ListProductsQuery }): Promise<{ rows: ProductRow[]; total: number }> {
  catalogRules.authorize(actor, 'list', null);
  const filters: SQL[] = [visibleTo(actor)];
  if (q.query) {
    const pattern = `%${escapeLikePattern(q.query)}%`;
    filters.push(
      or(ilike(products.name, pattern), ilike(products.description, pattern), ilike(products.shortDescription, pattern), ilike(products.productSku, pattern)) as SQL,
    );
  }
  const order = q.direction === 'desc' ? desc : asc;
  const rows = await db
    .select()
    .from(products)
    .where(and(...filters))
    .orderBy(order(sortExpression(q.sort)), order(products.productId))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const [{ total }] = await db.select({ total: count() }).from(products).where(and(...filters));
  return { rows, total };
}

type ProductChanges = Omit<UpdateProductRequest, 'product_id' | 'organization_id'>;

/** The request's fields as table columns; fields left out stay out (PUT leaves them as they are). */
function columnsOf(input: ProductChanges): Partial<typeof products.$inferInsert> {
  const columns: Partial<typeof products.$inferInsert> = {
    name: input.name,
    description: input.description,
    shortDescription: input.short_description,
    price: input.price,
    salePrice: input.sale_price,
    wordAmount: input.word_amount,
    isSubscription: input.is_subscription,
    subscriptionPeriod: input.subscription_period,
    subscriptionInterval: input.subscription_interval,
    expirationDays: input.expiration_days,
    freeTrialLength: input.free_trial_length,
    freeTrialEnd: input.free_trial_end,
    freeTrialWords: input.free_trial_words,
    limitPerUser: input.limit_per_user,
    userLimit: input.user_limit,
    stripeProductId: input.stripe_product_id,
    stripePriceId: input.stripe_price_id,
    webhookUrl: input.webhook_url,
    productSku: input.product_sku,
    available: input.available,
    image: input.image,
    thumbnail: input.thumbnail,
    videoSrc: input.video_src,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

/**
 * The columns that follow from the others: a subscription without a period and interval gets month and 1
 * (spec part 1 §4, §9), and free_trial_period says how the trial is given (by days or by end date).
 */
function derivedColumns(p: Pick<ProductRow, 'isSubscription' | 'subscriptionPeriod' | 'subscriptionInterval' | 'freeTrialLength' | 'freeTrialEnd'>) {
  const terms = withSubscriptionDefaults({ is_subscription: p.isSubscription, subscription_period: p.subscriptionPeriod, subscription_interval: p.subscriptionInterval });
  return {
    subscriptionPeriod: terms.subscription_period,
    subscriptionInterval: terms.subscription_interval,
    freeTrialPeriod: p.freeTrialLength != null ? 'days' : p.freeTrialEnd != null ? 'date' : null,
  };
}

/** A new product of the request's context (the operator's in Personal, the organization's inside it). */
export async function createProduct({ actor, db, input }: { actor: Actor; db: Db; input: CreateProductRequest }): Promise<ProductRow> {
  catalogRules.authorize(actor, 'manage', null);
  const { organization_id: _context, ...fields } = input;
  const values = {
    ...columnsOf(fields),
    name: fields.name,
    description: fields.description,
    price: fields.price,
    wordAmount: fields.word_amount,
    isSubscription: fields.is_subscription ?? false,
    subscriptionPeriod: fields.subscription_period ?? null,
    subscriptionInterval: fields.subscription_interval ?? null,
    freeTrialLength: fields.free_trial_length ?? null,
    freeTrialEnd: fields.free_trial_end ?? null,
    organizationId: actor.organization?.organizationId ?? null,
  };
  const [row] = await db
    .insert(products)
    .values({ ...values, ...derivedColumns(values) })
    .returning();
  return row;
}

/**
 * Changes a product of the request's context that the actor manages (else 404). The spec's rules are
 * checked on the product as it would be after the change; returns it with what changed (for the audit).
 */
export async function updateProduct({
  actor,
  db,
  input,
}: {
  actor: Actor;
  db: Db;
  input: UpdateProductRequest;
}): Promise<{ row: ProductRow; changes: Record<string, { from: unknown; to: unknown }> }> {
  catalogRules.authorize(actor, 'manage', null);
  const { product_id: productId, organization_id: _context, ...fields } = input;
  const result = await db.transaction(async (tx) => {
    await tx.select({ productId: products.productId }).from(products).where(eq(products.productId, productId)).for('update');
    const before = await requireProduct(tx, actor, productId, 'update');
    const merged = { ...before, ...columnsOf(fields) };
    const issues = productRuleIssues({
      price: merged.price,
      sale_price: merged.salePrice,
      is_subscription: merged.isSubscription,
      subscription_period: merged.subscriptionPeriod,
      subscription_interval: merged.subscriptionInterval,
      free_trial_length: merged.freeTrialLength,
      free_trial_end: merged.freeTrialEnd,
      stripe_product_id: merged.stripeProductId,
      stripe_price_id: merged.stripePriceId,
    });
    if (issues.length > 0) throw badRequest(issues[0].message, Object.fromEntries(issues.map((i) => [i.field, i.message])));
    const [row] = await tx
      .update(products)
      .set({ ...columnsOf(fields), ...derivedColumns(merged), updatedAt: new Date() })
      .where(eq(products.productId, productId))
      .returning();
    const was: Record<string, unknown> = productAuditFields(before);
    const now: Record<string, unknown> = productAuditFields(row);
    const changes = Object.fromEntries(
      Object.keys(now)
        .filter((key) => JSON.stringify(was[key]) !== JSON.stringify(now[key]))
        .map((key) => [key, { from: was[key], to: now[key] }]),
    );
    // GET /api/users shows the product of a customer's current purchase (name, video_src).
    const buyers =
      changes.name || changes.video_src
        ? await tx
            .selectDistinct({ userId: purchases.userId })
            .from(purchases)
            .where(and(eq(purchases.productId, productId), inArray(purchases.status, [...VALID_PURCHASE_STATUSES])))
        : [];
    return { row, changes, buyers };
  });
  // After the commit, so no cache reads the old product again (platform/auth/invalidation.ts).
  for (const { userId } of result.buyers) invalidateUser(userId);
  return { row: result.row, changes: result.changes };
}
