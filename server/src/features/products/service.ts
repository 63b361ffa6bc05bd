// Products as customers see them (spec part 1 §7 GET /products/available): available, not an
// organization's own (those come with the organizations area), cheapest first. Framework-free.
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { products } from '../../db/schema';

export type ProductRow = typeof products.$inferSelect;

/** The pricing list is public; 100 at most (an operator sells a handful). */
export function listAvailableProducts({ db }: { db: Db }): Promise<ProductRow[]> {
  return db
    .select()
    .from(products)
    .where(and(eq(products.available, true), isNull(products.organizationId)))
    .orderBy(asc(products.price), asc(products.productId))
    .limit(100);
}
