// spec part 1 §5 "Discounted price": a sale_price is used if set; a percent discount is price × (1 − amount/100),
// otherwise price − amount; shown with 2 decimals. The pricing page, the checkout summary and the server's
// charge all use this one rule, in whole cents, so what the page showed is exactly what is charged (the
// server recomputes it and never takes a price from the client).

export interface PricedProduct {
  price: number;
  /** Used instead of price when set (spec part 1 §5). */
  sale_price: number | null;
}

export interface DiscountTerms {
  /** true: `amount` is a percentage (0–100); false: dollars off. */
  is_percent: boolean;
  amount: number;
}

/**
 * Dollars (as stored: numeric with 2 decimals) to whole cents. The value is rounded at 6 decimals first so
 * a binary fraction such as 19.99 × 100 = 1998.9999999999998 counts as 1999.
 */
export function toCents(dollars: number): number {
  return Math.round(Number((dollars * 100).toFixed(6)));
}

/** Whole cents to dollars (for display: the page shows them with 2 decimals). */
export const centsToDollars = (cents: number): number => cents / 100;

/** The price before any discount: sale_price when set, else price; in cents. */
export function basePriceCents(product: PricedProduct): number {
  return Math.max(0, toCents(product.sale_price ?? product.price));
}

/**
 * What the customer pays, in cents: the base price (basePriceCents) less the discount, never below 0.
 * A percentage is applied in basis points (12.5 % → 1250) and the result rounded to the nearest cent
 * (half up); a percentage above 100 counts as 100. Without a discount, the base price.
 */
export function discountedPriceCents(product: PricedProduct, discount: DiscountTerms | null | undefined): number {
  const base = basePriceCents(product);
  if (!discount) return base;
  if (discount.is_percent) {
    const basisPoints = Math.min(10_000, Math.max(0, Math.round(Number((discount.amount * 100).toFixed(6)))));
    return Math.round((base * (10_000 - basisPoints)) / 10_000);
  }
  return Math.max(0, base - Math.max(0, toCents(discount.amount)));
}
