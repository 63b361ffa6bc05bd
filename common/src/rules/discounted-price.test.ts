import { describe, expect, it } from 'vitest';
import { basePriceCents, centsToDollars, discountedPriceCents, toCents } from './discounted-price';

describe('discounted price (spec part 1 §5)', () => {
  it('converts dollars to whole cents without float drift', () => {
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(1234567.89)).toBe(123456789);
    expect(toCents(49)).toBe(4900);
    expect(centsToDollars(1999)).toBe(19.99);
  });

  it('uses sale_price when set, else price', () => {
    expect(basePriceCents({ price: 49, sale_price: null })).toBe(4900);
    expect(basePriceCents({ price: 49, sale_price: 39.99 })).toBe(3999);
    expect(discountedPriceCents({ price: 49, sale_price: 39.99 }, null)).toBe(3999);
    expect(discountedPriceCents({ price: 49, sale_price: null }, undefined)).toBe(4900);
  });

  it('percent: price × (1 − amount/100), rounded to the cent (half up)', () => {
    expect(discountedPriceCents({ price: 49, sale_price: null }, { is_percent: true, amount: 10 })).toBe(4410);
    expect(discountedPriceCents({ price: 19.99, sale_price: null }, { is_percent: true, amount: 15 })).toBe(1699); // 1699.15
    expect(discountedPriceCents({ price: 0.05, sale_price: null }, { is_percent: true, amount: 50 })).toBe(3); // 2.5 → 3
    expect(discountedPriceCents({ price: 10, sale_price: null }, { is_percent: true, amount: 12.5 })).toBe(875);
    expect(discountedPriceCents({ price: 33.33, sale_price: null }, { is_percent: true, amount: 33.33 })).toBe(2222); // 2222.10
    expect(discountedPriceCents({ price: 49, sale_price: 29 }, { is_percent: true, amount: 50 })).toBe(1450);
  });

  it('percent: 100 % is free, and more than 100 % counts as 100 %', () => {
    expect(discountedPriceCents({ price: 49, sale_price: null }, { is_percent: true, amount: 100 })).toBe(0);
    expect(discountedPriceCents({ price: 49, sale_price: null }, { is_percent: true, amount: 150 })).toBe(0);
    expect(discountedPriceCents({ price: 49, sale_price: null }, { is_percent: true, amount: 0 })).toBe(4900);
  });

  it('amount: price − amount, never below 0', () => {
    expect(discountedPriceCents({ price: 49, sale_price: null }, { is_percent: false, amount: 10 })).toBe(3900);
    expect(discountedPriceCents({ price: 19.99, sale_price: null }, { is_percent: false, amount: 0.99 })).toBe(1900);
    expect(discountedPriceCents({ price: 0.3, sale_price: null }, { is_percent: false, amount: 0.1 })).toBe(20);
    expect(discountedPriceCents({ price: 49, sale_price: 20 }, { is_percent: false, amount: 25 })).toBe(0);
    expect(discountedPriceCents({ price: 49, sale_price: null }, { is_percent: false, amount: -5 })).toBe(4900);
  });

  it('always returns an integer number of cents', () => {
    for (let price = 0.01; price < 60; price += 1.37) {
      for (const amount of [1, 7.5, 33.33, 99.99]) {
        const percent = discountedPriceCents({ price, sale_price: null }, { is_percent: true, amount });
        const off = discountedPriceCents({ price, sale_price: null }, { is_percent: false, amount });
        expect(Number.isInteger(percent) && percent >= 0).toBe(true);
        expect(Number.isInteger(off) && off >= 0).toBe(true);
      }
    }
  });
});
