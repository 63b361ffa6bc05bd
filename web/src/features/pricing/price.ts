// Price display rules (spec part 1 §5 and §9): USD, thousands separators, 2 decimals, sale_price when set,
// pricing cards show the price per month.
import { formatCurrency } from '../../i18n/format';
export interface PricedProduct {
  price: number | string;
  sale_price?: number | string | null;
  is_subscription?: boolean;
  subscription_period?: 'day' | 'month' | 'year' | string | null;
  subscription_interval?: number | null;
}

const toNumber = (value: number | string | null | undefined): number | null => {
  if (value === null || value === undefined || value === '') return null;
  const parsed = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(parsed) ? parsed : null;
};

/** The price actually charged: sale_price when set, else price. */
export function effectivePrice(product: PricedProduct): number {
  return toNumber(product.sale_price) ?? toNumber(product.price) ?? 0;
}

/**
 * Monthly equivalent of a subscription (a yearly plan of 120 shows 10 per month); a one-time product
 * shows its whole price, or null when it is free.
 */
export function monthlyPrice(product: PricedProduct): number {
  const price = effectivePrice(product);
  if (!product.is_subscription) return price;
  const interval = Math.max(1, product.subscription_interval ?? 1);
  switch (product.subscription_period) {
    case 'day':
      return (price * 30) / interval;
    case 'year':
      return price / (12 * interval);
    default:
      return price / interval;
  }
}

/** "$1,234.50" */
export function formatUsd(amount: number, lang?: string): string {
  return formatCurrency(amount, lang);
}
