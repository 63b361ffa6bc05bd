// A discount's own fields in the API's names (no id, counter or timestamps): what the audit trail compares
// when a code changes, and the heart of its JSON (present.ts). Apart from the presenter, so the service needs none.
import type { DiscountRecord } from '@pluma/common/discounts';
import type { DiscountRow } from './redemption';

export type DiscountAuditFields = Omit<DiscountRecord, 'discount_id' | 'redemptions' | 'createdAt' | 'updatedAt'>;

export function discountAuditFields(d: DiscountRow): DiscountAuditFields {
  return {
    code: d.code,
    is_percent: d.isPercent,
    amount: d.amount,
    first_invoice_only: d.firstInvoiceOnly,
    product_id: d.productId,
    active: d.active,
    expires_at: d.expiresAt ? d.expiresAt.toISOString() : null,
    max_redemptions: d.maxRedemptions,
  };
}
