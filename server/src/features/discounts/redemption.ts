// Using a discount code at checkout (spec part 1 §3 Discount, §8 "Discount error"; docs/decisions.md
// "Discount codes"): whether a code is for a product and still usable, and counting a paid use. Not
// operations of their own: checkout (payments, paypal) runs them for a product the buyer may buy, and the
// purchase lifecycle counts the use in the transaction that fulfils the purchase.
import { DISCOUNT_CODE_PATTERN, DiscountErrorIds } from '@pluma/common/discounts';
import { and, eq, gt, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { discounts } from '../../db/schema';
import { AppError } from '../../platform/http/errors';
import type { ProductRow } from '../products';

export type DiscountRow = typeof discounts.$inferSelect;

/** spec part 1 §8: "We're sorry, that discount is invalid." — unknown code, or not for this product. */
export const discountInvalid = () => new AppError(404, DiscountErrorIds.invalid, 'discount_invalid');
/** spec part 1 §8: 412 "We're sorry, you cannot use this discount code anymore." */
export const discountUnavailable = () => new AppError(412, DiscountErrorIds.unavailable, 'discount_unavailable');

/** Codes compare without regard to case (index discounts_code_unique on lower(code)). */
const codeIs = (code: string): SQL => sql`lower(${discounts.code}) = lower(${code})`;

/**
 * Whether the code is for this product: one that names a product is for that product only; one that names
 * none is for any of the operator's products (an organization's products are its own to discount).
 */
export function discountAppliesTo(d: Pick<DiscountRow, 'productId'>, product: Pick<ProductRow, 'productId' | 'organizationId'>): boolean {
  return d.productId === null ? product.organizationId === null : d.productId === product.productId;
}

/** Whether the code can still be used: switched on, not past expires_at, not redeemed max_redemptions times. */
export function discountUsable(d: Pick<DiscountRow, 'active' | 'expiresAt' | 'maxRedemptions' | 'redemptions'>, now: Date = new Date()): boolean {
  if (!d.active) return false;
  if (d.expiresAt && d.expiresAt.getTime() <= now.getTime()) return false;
  return d.maxRedemptions === null || d.redemptions < d.maxRedemptions;
}

/**
 * The discount of `code` for `product`, or the spec's errors: invalid (404) when there is no such code or it
 * is for another product, 412 when it can no longer be used. Checkout calls this again when it charges.
 */
export async function requireUsableDiscount({ db, code, product, now = new Date() }: { db: Db | Tx; code: string; product: ProductRow; now?: Date }): Promise<DiscountRow> {
  const typed = code.trim();
  if (!DISCOUNT_CODE_PATTERN.test(typed)) throw discountInvalid();
  const [row] = await db.select().from(discounts).where(codeIs(typed)).limit(1);
  if (!row || !discountAppliesTo(row, product)) throw discountInvalid();
  if (!discountUsable(row, now)) throw discountUnavailable();
  return row;
}

/**
 * Counts one paid use of the code, in the transaction that fulfils the purchase; false (nothing counted)
 * when it can no longer be used — switched off, expired, or its last use taken by a concurrent purchase.
 */
export async function redeemDiscount(tx: Db | Tx, discountId: number, now: Date = new Date()): Promise<boolean> {
  const counted = await tx
    .update(discounts)
    .set({ redemptions: sql`${discounts.redemptions} + 1` })
    .where(
      and(
        eq(discounts.discountId, discountId),
        eq(discounts.active, true),
        or(isNull(discounts.expiresAt), gt(discounts.expiresAt, now)),
        or(isNull(discounts.maxRedemptions), lt(discounts.redemptions, discounts.maxRedemptions)),
      ),
    )
    .returning({ discountId: discounts.discountId });
  return counted.length > 0;
}
