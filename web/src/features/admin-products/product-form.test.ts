import { describe, expect, it } from 'vitest';
import { emptyProductForm, isNewProductId, productFormErrors, productFormValues, productPayload, stripePriceLabel, withStripePrice, withSubscription, withUnlimited } from './product-form';
import { managedProduct } from './test-products';

describe('product form rules', () => {
  it('starts the unlimited toggle on when word_amount is null, and the toggle clears word_amount', () => {
    expect(productFormValues(managedProduct({ word_amount: null })).unlimited).toBe(true);
    const fixed = productFormValues(managedProduct({ word_amount: 1200 }));
    expect(fixed.unlimited).toBe(false);
    const unlimited = withUnlimited(fixed, true);
    expect(unlimited.word_amount).toBe('');
    expect(productPayload(unlimited).word_amount).toBeNull();
  });

  it('enabling a subscription sets period month and interval 1', () => {
    const on = withSubscription({ ...emptyProductForm(), subscription_period: 'year', subscription_interval: 3 }, true);
    expect([on.is_subscription, on.subscription_period, on.subscription_interval]).toEqual([true, 'month', 1]);
    const off = productPayload(withSubscription(on, false));
    expect([off.is_subscription, off.subscription_period, off.subscription_interval]).toEqual([false, null, null]);
  });

  it('collects the spec\'s errors in order, word amount only when not unlimited', () => {
    expect(productFormErrors(emptyProductForm())).toEqual(['invalid_name', 'invalid_description', 'invalid_price', 'invalid_word_amount']);
    const valid = { ...emptyProductForm(), name: 'Pro', description: 'All', price: 10, word_amount: 500 };
    expect(productFormErrors(valid)).toEqual([]);
    expect(productFormErrors({ ...valid, word_amount: -3 })).toEqual(['invalid_word_amount']);
    expect(productFormErrors({ ...valid, word_amount: '', unlimited: true })).toEqual([]);
    expect(productFormErrors({ ...valid, price: 0 })).toEqual(['invalid_price']);
  });

  it('sends a free trial by days or by end date, never both', () => {
    const base = { ...emptyProductForm(), free_trial_length: 7 as const, free_trial_end: '2026-12-31' };
    expect(productPayload({ ...base, trial: 'days' })).toMatchObject({ free_trial_length: 7, free_trial_end: null });
    expect(productPayload({ ...base, trial: 'date' })).toMatchObject({ free_trial_length: null, free_trial_end: '2026-12-31' });
    expect(productPayload({ ...base, trial: 'none' })).toMatchObject({ free_trial_length: null, free_trial_end: null });
    expect(productFormValues(managedProduct({ free_trial_end: '2026-12-31' })).trial).toBe('date');
  });

  it('creates for a non-numeric id and updates for a numeric one', () => {
    expect(isNewProductId('new')).toBe(true);
    expect(isNewProductId(undefined)).toBe(true);
    expect(isNewProductId('12')).toBe(false);
  });

  it('shows a Stripe price as dollars, currency, interval or One-Time, and id; a recurring price sets the subscription', () => {
    const monthly = { id: 'price_1', product: 'prod_1', active: true, currency: 'usd', unit_amount: 2500, recurring: { interval: 'month', interval_count: 1 }, nickname: null };
    expect(stripePriceLabel(monthly, 'One-Time')).toBe('$25.00 USD · month · price_1');
    expect(stripePriceLabel({ ...monthly, id: 'price_2', recurring: null, unit_amount: 999 }, 'One-Time')).toBe('$9.99 USD · One-Time · price_2');
    const picked = withStripePrice(emptyProductForm(), { ...monthly, recurring: { interval: 'year', interval_count: 1 } });
    expect([picked.stripe_price_id, picked.is_subscription, picked.subscription_period]).toEqual(['price_1', true, 'year']);
  });
});
