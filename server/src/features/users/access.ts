// Who has access (spec part 1 §1, §4): staff always; others while they hold a valid purchase —
// status active or completed and not past its expiry date; the newest by createdAt is "the" purchase.
// Shared by users, chat and every feature that needs has_access.
import type { StaffRole } from '@pluma/common/constants';
import { purchaseExpiryDate, purchaseGivesAccess, VALID_PURCHASE_STATUSES } from '@pluma/common/rules/purchase-expiry';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { products, purchases, staff } from '../../db/schema';

export interface ValidPurchase {
  purchase: typeof purchases.$inferSelect;
  product: { productId: number; name: string; videoSrc: string | null } | null;
  expiresAt: Date;
}

/** The user's newest valid purchase with its product, or null. */
export async function newestValidPurchase(db: Db, userId: number, now: Date = new Date()): Promise<ValidPurchase | null> {
  // Expiry depends on each purchase's own terms (days, trial, interval), so it is decided per row;
  // the candidates are only the user's active/completed purchases (index purchases_user_created_idx).
  const rows = await db
    .select({ purchase: purchases, product: { productId: products.productId, name: products.name, videoSrc: products.videoSrc } })
    .from(purchases)
    .leftJoin(products, eq(products.productId, purchases.productId))
    .where(and(eq(purchases.userId, userId), inArray(purchases.status, [...VALID_PURCHASE_STATUSES])))
    .orderBy(desc(purchases.createdAt), desc(purchases.purchaseId));
  for (const row of rows) {
    if (purchaseGivesAccess(row.purchase, now)) {
      return { purchase: row.purchase, product: row.product, expiresAt: purchaseExpiryDate(row.purchase) };
    }
  }
  return null;
}

export async function staffRoleOf(db: Db, userId: number): Promise<{ staffId: number; role: StaffRole } | null> {
  const [row] = await db.select({ staffId: staff.staffId, role: staff.role }).from(staff).where(eq(staff.userId, userId)).limit(1);
  return row ? { staffId: row.staffId, role: row.role as StaffRole } : null;
}

export interface AccessState {
  staff: { staffId: number; role: StaffRole } | null;
  purchase: ValidPurchase | null;
  hasAccess: boolean;
}

export async function accessOf(ctx: Pick<AppContext, 'db'>, userId: number): Promise<AccessState> {
  const [staffRow, purchase] = await Promise.all([staffRoleOf(ctx.db, userId), newestValidPurchase(ctx.db, userId)]);
  return { staff: staffRow, purchase, hasAccess: staffRow != null || purchase != null };
}

/** has_access = staff OR a valid purchase. */
export async function hasAccess(ctx: Pick<AppContext, 'db'>, userId: number): Promise<boolean> {
  return (await accessOf(ctx, userId)).hasAccess;
}
