// Who has access (spec part 1 §1, §4): staff always; others while they hold a valid purchase —
// status active or completed and not past its expiry date; the newest by createdAt is "the" purchase.
// Shared by users, chat and every feature that needs has_access.
import type { StaffRole } from '@pluma/common/constants';
import { purchaseExpiryDate, purchaseGivesAccess } from '@pluma/common/rules/purchase-expiry';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { files, products, purchases, staff, users } from '../../db/schema';
import { candidatePurchasesOf } from '../credits';

export interface ValidPurchase {
  purchase: typeof purchases.$inferSelect;
  product: { productId: number; name: string; videoSrc: string | null } | null;
  expiresAt: Date;
}

export interface AccessState {
  staff: { staffId: number; role: StaffRole } | null;
  purchase: ValidPurchase | null;
  hasAccess: boolean;
}

/**
 * One query for everything access depends on: the user with their picture and staff row, joined to each
 * candidate purchase (active or completed, newest first; index purchases_user_created_idx) and its
 * product. One row per candidate, or a single row with no purchase; none if the user does not exist.
 */
export function loadAccessRows(db: Db, userId: number) {
  return db
    .select({
      user: users,
      file: { fileId: files.fileId, publicName: files.publicName, type: files.type },
      staff: { staffId: staff.staffId, role: staff.role },
      purchase: purchases,
      product: { productId: products.productId, name: products.name, videoSrc: products.videoSrc },
    })
    .from(users)
    .leftJoin(files, eq(files.fileId, users.fileId))
    .leftJoin(staff, eq(staff.userId, users.userId))
    .leftJoin(purchases, candidatePurchasesOf(users.userId))
    .leftJoin(products, eq(products.productId, purchases.productId))
    .where(eq(users.userId, userId))
    .orderBy(desc(purchases.createdAt), desc(purchases.purchaseId));
}

export type AccessRow = Awaited<ReturnType<typeof loadAccessRows>>[number];

/** has_access = staff OR a valid purchase; expiry depends on each purchase's own terms, so it is decided per row. */
export function accessFromRows(rows: AccessRow[], now: Date = new Date()): AccessState {
  const staffRow = rows[0]?.staff ?? null;
  let purchase: ValidPurchase | null = null;
  for (const row of rows) {
    if (row.purchase && purchaseGivesAccess(row.purchase, now)) {
      purchase = { purchase: row.purchase, product: row.product, expiresAt: purchaseExpiryDate(row.purchase) };
      break;
    }
  }
  return {
    staff: staffRow ? { staffId: staffRow.staffId, role: staffRow.role as StaffRole } : null,
    purchase,
    hasAccess: staffRow != null || purchase != null,
  };
}

export async function staffRoleOf(db: Db, userId: number): Promise<{ staffId: number; role: StaffRole } | null> {
  const [row] = await db.select({ staffId: staff.staffId, role: staff.role }).from(staff).where(eq(staff.userId, userId)).limit(1);
  return row ? { staffId: row.staffId, role: row.role as StaffRole } : null;
}

export async function accessOf({ db, userId }: { db: Db; userId: number }): Promise<AccessState> {
  return accessFromRows(await loadAccessRows(db, userId));
}

/** has_access = staff OR a valid purchase. */
export async function hasAccess({ db, userId }: { db: Db; userId: number }): Promise<boolean> {
  return (await accessOf({ db, userId })).hasAccess;
}
