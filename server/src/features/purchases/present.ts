import type { PurchaseRecord } from '@pluma/common/purchases';
import type { purchases } from '../../db/schema';

export function presentPurchase(p: typeof purchases.$inferSelect): PurchaseRecord {
  return {
    purchase_id: p.purchaseId,
    user_id: p.userId,
    product_id: p.productId,
    status: p.status,
    amount: p.amount,
    total_payment: p.totalPayment,
    is_gift: p.isGift,
    expiration_days: p.expirationDays,
    payment_method_id: p.paymentMethodId,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}
