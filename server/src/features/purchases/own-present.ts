import type { OwnInvoiceRecord, OwnPurchaseRecord } from '@pluma/common/checkout';
import type { invoices, purchases } from '../../db/schema';

export function presentOwnPurchase(p: typeof purchases.$inferSelect, productName: string | null): OwnPurchaseRecord {
  return {
    purchase_id: p.purchaseId,
    user_id: p.userId,
    product_id: p.productId,
    product: productName == null ? null : { name: productName },
    status: p.status,
    amount: p.amount,
    total_payment: p.totalPayment,
    discount: p.discountCode ? { code: p.discountCode } : null,
    expiration_days: p.expirationDays,
    is_gift: p.isGift,
    payment_method_id: p.paymentMethodId,
    payment_processor_id: p.paymentProcessorId,
    subscription_id: p.subscriptionId,
    subscription_interval: p.subscriptionInterval,
    subscription_period: p.subscriptionPeriod,
    free_trial_length: p.freeTrialLength,
    cancel_reason: p.cancelReason,
    failure_reason: p.failureReason,
    cancelledAt: p.cancelledAt ? p.cancelledAt.toISOString() : null,
    organization_id: p.organizationId,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export function presentOwnInvoice(i: typeof invoices.$inferSelect): OwnInvoiceRecord {
  return {
    invoice_id: i.invoiceId,
    purchase_id: i.purchaseId,
    user_id: i.userId,
    status: i.status,
    amount: i.amount,
    total_payment: i.totalPayment,
    payment_method_id: i.paymentMethodId,
    order_id: i.orderId,
    expiration_date: i.expirationDate ? i.expirationDate.toISOString() : null,
    subscription_id: i.subscriptionId,
    subscription_interval: i.subscriptionInterval,
    subscription_period: i.subscriptionPeriod,
    free_trial_length: i.freeTrialLength,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
}
