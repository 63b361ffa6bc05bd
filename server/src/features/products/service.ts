// Products as customers see them (spec part 1 §7 GET /products/available, GET /products/{id}), scoped by
// policy.ts visibleTo: the operator's in Personal, an organization's own inside it. Framework-free.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { products } from '../../db/schema';
import { requireProduct, visibleTo, type ProductRow, type ProductViewer } from './policy';

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
