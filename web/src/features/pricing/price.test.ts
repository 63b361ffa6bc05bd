import { describe, expect, it } from 'vitest';
import { effectivePrice, formatUsd, monthlyPrice } from './price';

describe('price display (spec part 1 §5, §9)', () => {
  it('uses sale_price when set', () => {
    expect(effectivePrice({ price: 30, sale_price: 20 })).toBe(20);
    expect(effectivePrice({ price: '30.00', sale_price: null })).toBe(30);
  });

  it('shows subscriptions per month', () => {
    expect(monthlyPrice({ price: 29, is_subscription: true, subscription_period: 'month', subscription_interval: 1 })).toBe(29);
    expect(monthlyPrice({ price: 120, is_subscription: true, subscription_period: 'year', subscription_interval: 1 })).toBe(10);
    expect(monthlyPrice({ price: 60, is_subscription: true, subscription_period: 'month', subscription_interval: 3 })).toBe(20);
    expect(monthlyPrice({ price: 1, is_subscription: true, subscription_period: 'day', subscription_interval: 1 })).toBe(30);
    expect(monthlyPrice({ price: 99, is_subscription: false })).toBe(99);
  });

  it('formats USD with thousands separators and 2 decimals', () => {
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(0)).toBe('$0.00');
  });
});
