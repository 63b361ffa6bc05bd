// The paid-once part of every provider's fulfilment (machine.ts effect 'fulfil'): the buying limits and
// the discount's one use checked under row locks (issue 28 item 3), then the product's words (a trial's
// free_trial_words, null word_amount = unlimited), credited once per source through the ledger, the
// discount's redemption, and one invoice row per payment id.
import { PurchaseFailureReasons } from '@pluma/common/admin-purchases';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { discounts, invoices, products } from '../../db/schema';
import { grantWords } from '../credits';
import { redeemDiscount } from '../discounts';
import { overLimitAtFulfilment } from '../products';
import type { ProductRow, PurchaseRow } from './types';

export async function productOf(tx: Tx, purchase: PurchaseRow): Promise<ProductRow | null> {
  if (purchase.productId == null) return null;
  const [row] = await tx.select().from(products).where(eq(products.productId, purchase.productId)).limit(1);
  return row ?? null;
}

export const DAY_MS = 86_400_000;

/** Words of a grant: the trial's free_trial_words during a trial, else word_amount (null = unlimited). */
export function wordsOf(product: ProductRow | null, trial: boolean): number | 'unlimited' {
  if (!product) return 0;
  if (trial && product.freeTrialWords != null) return product.freeTrialWords;
  return product.wordAmount == null ? 'unlimited' : product.wordAmount;
}

/**
 * Fulfils a purchase being paid, under its row lock: refuses it (nothing granted, nothing redeemed) when
 * the product's limits are reached (over_limit) or its one-use code was used up meanwhile
 * (discount_used_up) — the caller refunds it; else credits (ledger source 'purchase'/id, so at most once
 * ever) and the discount's redemption. Returns the failure reason, or null when fulfilled.
 */
export async function fulfilOnce(tx: Tx, purchase: PurchaseRow, product: ProductRow | null, trial: boolean): Promise<string | null> {
  if (await overLimitAtFulfilment(tx, purchase)) return PurchaseFailureReasons.overLimit;
  if (purchase.discountCode) {
    const [discount] = await tx.select({ discountId: discounts.discountId }).from(discounts).where(sql`lower(${discounts.code}) = lower(${purchase.discountCode})`).limit(1);
    // The redemption is one conditional UPDATE (discounts/service.ts): of concurrent payments with a code's
    // last use, exactly one counts it; the others are refunded. A code staff deleted is not held against the buyer.
    if (discount && !(await redeemDiscount(tx, discount.discountId))) return PurchaseFailureReasons.discountUsedUp;
  }
  await grantWords(tx, { userId: purchase.userId, sourceType: 'purchase', sourceId: String(purchase.purchaseId), words: wordsOf(product, trial) });
  return null;
}

/** The package's words for a purchase staff activated (word_amount null = unlimited), once per purchase. */
export async function grantPackageOnce(tx: Tx, purchase: PurchaseRow): Promise<void> {
  const [product] = purchase.productId == null ? [] : await tx.select().from(products).where(eq(products.productId, purchase.productId)).limit(1);
  if (!product) return;
  await grantWords(tx, { userId: purchase.userId, sourceType: 'purchase', sourceId: String(purchase.purchaseId), words: wordsOf(product, false) });
}

/** Records a payment (Stripe's invoice or intent, PayPal's capture or sale) as an invoice row once, by its id in order_id; false when it was recorded. */
export async function recordInvoice(
  tx: Tx,
  purchase: PurchaseRow,
  input: { orderId: string; amount: number; status: string; expirationDate: Date | null },
): Promise<boolean> {
  const [existing] = await tx.select({ invoiceId: invoices.invoiceId }).from(invoices).where(and(eq(invoices.orderId, input.orderId), eq(invoices.purchaseId, purchase.purchaseId))).limit(1);
  if (existing) return false;
  await tx.insert(invoices).values({
    purchaseId: purchase.purchaseId,
    userId: purchase.userId,
    status: input.status,
    amount: input.amount,
    totalPayment: input.amount,
    paymentMethodId: purchase.paymentMethodId,
    orderId: input.orderId,
    expirationDate: input.expirationDate,
    subscriptionId: purchase.subscriptionId,
    subscriptionInterval: purchase.subscriptionInterval,
    subscriptionPeriod: purchase.subscriptionPeriod,
    freeTrialLength: purchase.freeTrialLength,
  });
  return true;
}
