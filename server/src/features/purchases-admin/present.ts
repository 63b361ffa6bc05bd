// The exact JSON of a /admin table row (common/admin-purchases.ts adminPurchaseRow; a test pins the keys).
import type { AdminPurchaseRow } from '@pluma/common/admin-purchases';
import type { Actor } from '../../platform/auth/actor';
import type { AdminRecordRow } from './list-service';
import { adminRecordRules } from './policy';

export function presentAdminRow(actor: Actor, row: AdminRecordRow): AdminPurchaseRow {
  // Reading is implied (the row is shown); the row's own actions are what the table offers.
  const { read: _shown, ...abilities } = adminRecordRules.abilities(actor, row);
  return {
    type: row.type,
    purchase_id: row.purchaseId,
    invoice_id: row.invoiceId,
    user:
      row.userId == null
        ? null
        : { user_id: row.userId, name: row.userName ?? '', last_name: row.userLastName ?? '', email: row.userEmail ?? '' },
    product: row.productId == null ? null : { product_id: row.productId, name: row.productName ?? '' },
    status: row.status,
    amount: row.amount,
    total_payment: row.totalPayment,
    discount: row.discountCode ? { code: row.discountCode } : null,
    payment_method: row.paymentMethodId == null ? null : { payment_method_id: row.paymentMethodId, name: row.paymentMethodName ?? '' },
    is_gift: row.isGift,
    expiration_days: row.expirationDays,
    payment_processor_id: row.paymentProcessorId,
    order_id: row.orderId,
    subscription_id: row.subscriptionId,
    subscription_period: row.subscriptionPeriod,
    expiration_date: row.expirationDate ? row.expirationDate.toISOString() : null,
    cancel_reason: row.cancelReason,
    failure_reason: row.failureReason,
    cancelledAt: row.cancelledAt ? row.cancelledAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    abilities,
  };
}
