// The JSON of a discount (spec part 1 §3 Discount: code, is_percent, amount, first_invoice_only): every field
// for staff; for checkout only what applying it needs, with the price it gives (common/src/rules/discounted-price.ts).
import type { DiscountLookup, DiscountRecord } from '@pluma/common/discounts';
import { basePriceCents, discountedPriceCents } from '@pluma/common/rules/discounted-price';
import type { ProductRow } from '../products';
import { discountAuditFields } from './audit-fields';
import type { DiscountRow } from './redemption';

export function presentDiscount(d: DiscountRow): DiscountRecord {
  return {
    discount_id: d.discountId,
    ...discountAuditFields(d),
    redemptions: d.redemptions,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

/** The discount as checkout applies it to this product. */
export function presentDiscountLookup(d: DiscountRow, product: ProductRow): DiscountLookup {
  const priced = { price: product.price, sale_price: product.salePrice };
  const terms = { is_percent: d.isPercent, amount: d.amount };
  return {
    code: d.code,
    is_percent: d.isPercent,
    amount: d.amount,
    first_invoice_only: d.firstInvoiceOnly,
    product_id: product.productId,
    price_cents: basePriceCents(priced),
    discounted_price_cents: discountedPriceCents(priced, terms),
  };
}
