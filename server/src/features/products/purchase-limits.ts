// Whether the actor may buy a product now (spec part 1 §3 Product user_limit and limit_per_user; §8
// "Purchase 412: We're sorry, this product cannot be purchase anymore." and "Purchase 409: We're sorry,
// you cannot purchase this product anymore."). Checkout calls it inside the transaction that creates the
// purchase: the product's row is locked first, so two buyers racing for the last place take turns.
//
// A purchase counts once it was paid or given: status active, completed or cancelled (a cancelled
// subscription was bought; its access runs out later). Pending (unpaid, perhaps abandoned) and revoked
// purchases do not count. user_limit is the number of different customers; one who already bought it is
// limited by limit_per_user only.
import { PurchaseErrorIds } from '@pluma/common/products';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { products, purchases } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError } from '../../platform/http/errors';
import { productNotFound, type ProductRow } from './policy';

/** The purchase statuses that count towards user_limit and limit_per_user. */
export const COUNTED_PURCHASE_STATUSES = ['active', 'completed', 'cancelled'] as const;

export const productUnavailable = () => new AppError(412, PurchaseErrorIds.productUnavailable, 'purchase_product_unavailable');
export const purchaseLimitReached = () => new AppError(409, PurchaseErrorIds.limitReached, 'purchase_limit_reached');

/**
 * Refuses the purchase: 404 when the product is not of the request's context (the operator's in Personal,
 * the organization's inside it), 412 when it is off sale or has as many buyers as user_limit, 409 when the
 * actor bought it limit_per_user times.
 */
export async function assertCanBuy({ db, actor, product }: { db: Db | Tx; actor: Pick<Actor, 'user' | 'organization'>; product: ProductRow }): Promise<void> {
  if (product.organizationId !== (actor.organization?.organizationId ?? null)) throw productNotFound();
  // Read again under a row lock: the caller's copy may be older than a change made by staff.
  const [current] = await db
    .select({ available: products.available, userLimit: products.userLimit, limitPerUser: products.limitPerUser })
    .from(products)
    .where(eq(products.productId, product.productId))
    .for('update');
  if (!current) throw productNotFound();
  if (!current.available) throw productUnavailable();
  if (current.userLimit == null && current.limitPerUser == null) return;
  const [counts] = await db
    .select({
      buyers: sql<number>`count(distinct ${purchases.userId})::int`,
      mine: sql<number>`(count(*) filter (where ${purchases.userId} = ${actor.user.userId}))::int`,
    })
    .from(purchases)
    .where(and(eq(purchases.productId, product.productId), inArray(purchases.status, [...COUNTED_PURCHASE_STATUSES])));
  const buyers = Number(counts?.buyers ?? 0);
  const mine = Number(counts?.mine ?? 0);
  if (current.limitPerUser != null && mine >= current.limitPerUser) throw purchaseLimitReached();
  if (current.userLimit != null && mine === 0 && buyers >= current.userLimit) throw productUnavailable();
}


/**
 * The same limits, checked again when a payment arrives (issue 28 item 3: checkout's check alone let ten
 * concurrent payments through). Runs in the fulfilling transaction, with the purchase's row already locked:
 * the product's row is locked, so concurrent fulfilments of one product take turns and each counts the ones
 * committed before it. The purchase itself is not counted. True when the purchase would go over a limit.
 */
export async function overLimitAtFulfilment(tx: Tx, purchase: { purchaseId: number; userId: number; productId: number | null }): Promise<boolean> {
  if (purchase.productId == null) return false;
  const [current] = await tx
    .select({ userLimit: products.userLimit, limitPerUser: products.limitPerUser })
    .from(products)
    .where(eq(products.productId, purchase.productId))
    .for('update');
  if (!current || (current.userLimit == null && current.limitPerUser == null)) return false;
  const [counts] = await tx
    .select({
      buyers: sql<number>`count(distinct ${purchases.userId})::int`,
      mine: sql<number>`(count(*) filter (where ${purchases.userId} = ${purchase.userId}))::int`,
    })
    .from(purchases)
    .where(and(eq(purchases.productId, purchase.productId), inArray(purchases.status, [...COUNTED_PURCHASE_STATUSES]), ne(purchases.purchaseId, purchase.purchaseId)));
  const buyers = Number(counts?.buyers ?? 0);
  const mine = Number(counts?.mine ?? 0);
  if (current.limitPerUser != null && mine >= current.limitPerUser) return true;
  return current.userLimit != null && mine === 0 && buyers >= current.userLimit;
}
