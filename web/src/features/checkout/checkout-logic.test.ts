import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/api-error';
import { discountErrorText, purchaseErrorText, StripeConfirmError } from './checkout-errors';
import { elementsMode, needsNoCard } from './checkout-pricing';
import { checkoutVerdict, planChangeKind } from './checkout-rules';
import { formatOrderDate } from './order-date';
import { isPurchasePending, purchaseBadge } from './purchase-status';
import type { CheckoutProduct } from './checkout-api';

const apiError = (status: number, error = 'x') => new ApiError(status, status ? { error, message: 'm' } : null, 'failed');
const purchase = (product_id: number, status = 'active', expires_at = '2999-01-01T00:00:00Z') => ({
  purchase: { purchase_id: 1, status, product_id, product: null, createdAt: '2026-01-01T00:00:00Z', expires_at },
});

describe('checkout rules (spec part 1 §4)', () => {
  it('buys with no valid purchase', () => {
    expect(checkoutVerdict(null, 2)).toBe('buy');
    expect(checkoutVerdict({ purchase: null }, 2)).toBe('buy');
    expect(checkoutVerdict(purchase(5, 'pending'), 2)).toBe('buy');
    expect(checkoutVerdict(purchase(5, 'active', '2001-01-01T00:00:00Z'), 2)).toBe('buy');
  });
  it('refuses the same product, active or completed', () => {
    expect(checkoutVerdict(purchase(2), 2)).toBe('alreadyOwned');
    expect(checkoutVerdict(purchase(2, 'completed'), 2)).toBe('alreadyOwned');
  });
  it('warns about a downgrade: a higher product number, or product 1', () => {
    expect(checkoutVerdict(purchase(3), 2)).toBe('downgrade');
    expect(checkoutVerdict(purchase(1), 4)).toBe('downgrade');
    expect(checkoutVerdict(purchase(2), 3)).toBe('buy');
  });
  it('words the confirmation from the real prices (sale price when set): upgrade, lower plan or change', () => {
    const starter = { price: 19, sale_price: null };
    const pro = { price: 49, sale_price: null };
    expect(planChangeKind(starter, pro)).toBe('upgrade');
    expect(planChangeKind(pro, starter)).toBe('downgrade');
    expect(planChangeKind(pro, { price: 60, sale_price: 49 })).toBe('change');
    expect(planChangeKind({ price: 60, sale_price: 19.99 }, { price: 20, sale_price: null })).toBe('upgrade');
    // The current plan's price unknown (no longer on sale): neutral.
    expect(planChangeKind(null, pro)).toBe('change');
  });
});

describe('checkout error texts (spec part 1 §8)', () => {
  it.each([
    [new StripeConfirmError({ type: 'card_error', message: 'Declined.' }), 'errors.cardError'],
    [apiError(0), 'errors.noResponse'],
    [apiError(402), 'errors.insufficientFunds'],
    [apiError(400), 'errors.invalidPaymentMethod'],
    [apiError(404), 'errors.productNotFound'],
    [apiError(409), 'errors.limitReached'],
    [apiError(409, 'payments_not_configured'), 'errors.notConfigured'],
    [apiError(409, 'organization_payments_not_configured'), 'errors.organizationNotConfigured'],
    [apiError(409, 'subscription_already_active'), 'errors.subscriptionActive'],
    [apiError(412), 'errors.productUnavailable'],
    [apiError(500), 'errors.cardRejected'],
    [apiError(502), 'errors.cardRejected'],
    [new Error('boom'), 'errors.purchaseDefault'],
  ])('%s → %s', (error, key) => {
    expect(purchaseErrorText(error).key).toBe(key);
  });
  it("shows PayPal's own refusals as the server words them", () => {
    const refused = purchaseErrorText(new ApiError(409, { error: 'paypal_order_not_approved', message: 'Not approved.' }, 'x'));
    expect(refused.serverText).toBe('Not approved.');
  });
  it('passes the provider message on', () => {
    expect(purchaseErrorText(new StripeConfirmError({ type: 'card_error', message: 'Declined.' })).params).toEqual({ message: 'Declined.' });
  });
  it('words discount refusals', () => {
    expect(discountErrorText(apiError(412)).key).toBe('errors.discountUnavailable');
    expect(discountErrorText(apiError(404)).key).toBe('errors.discountInvalid');
    expect(discountErrorText(apiError(400)).key).toBe('errors.discountInvalid');
    expect(discountErrorText(apiError(0)).key).toBe('errors.discountNoResponse');
  });
});

describe('card form mode', () => {
  const product = { price: 20, sale_price: null, is_subscription: false, free_trial_length: null } as CheckoutProduct;
  const discount = (cents: number) => ({ code: 'X', is_percent: false, amount: 1, first_invoice_only: false, product_id: 1, price_cents: 2000, discounted_price_cents: cents });
  it('matches what POST /checkout/attempt will ask to confirm', () => {
    expect(elementsMode(product, null)).toBe('payment');
    expect(elementsMode({ ...product, is_subscription: true }, null)).toBe('subscription');
    expect(elementsMode({ ...product, is_subscription: true, free_trial_length: 7 }, null)).toBe('setup');
    expect(elementsMode({ ...product, is_subscription: true }, discount(0))).toBe('setup');
  });
  it('needs no card for a one-time product fully discounted', () => {
    expect(needsNoCard(product, discount(0))).toBe(true);
    expect(needsNoCard(product, discount(1))).toBe(false);
    expect(needsNoCard({ ...product, is_subscription: true }, discount(0))).toBe(false);
  });
});

describe('thank-you page helpers', () => {
  it('formats DD MMM YYYY HH:mm', () => {
    const iso = new Date(2026, 10, 5, 9, 3).toISOString();
    expect(formatOrderDate(iso, 'en')).toBe('05 Nov 2026 09:03');
    expect(formatOrderDate(iso, 'es')).toBe('05 nov 2026 09:03');
    expect(formatOrderDate('nonsense', 'en')).toBe('');
  });
  it("shows a date in the browser's zone without moving its day (issue 28: 28 Nov + 1 month is 28 Dec everywhere)", () => {
    const before = process.env.TZ;
    try {
      for (const [zone, shown] of [
        ['America/Mexico_City', '28 Dec 2026 04:00'],
        ['Europe/Madrid', '28 Dec 2026 11:00'],
        ['UTC', '28 Dec 2026 10:00'],
      ] as const) {
        process.env.TZ = zone;
        expect(formatOrderDate('2026-12-28T10:00:00.000Z', 'en'), zone).toBe(shown);
      }
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });
  it('chooses the badge from status and the provider ids, and polls only while pending', () => {
    const none = { payment_processor_id: null, subscription_id: null };
    expect(purchaseBadge({ ...none, status: 'pending', payment_processor_id: 'pi_1' }).labelKey).toBe('thankyou.statuses.processing');
    // A subscription (Stripe's sub_…, PayPal's I-…) carries only its subscription_id until it is paid.
    expect(purchaseBadge({ ...none, status: 'pending', subscription_id: 'I-ABC' }).labelKey).toBe('thankyou.statuses.processing');
    expect(purchaseBadge({ ...none, status: 'pending', subscription_id: 'sub_1' }).labelKey).toBe('thankyou.statuses.processing');
    expect(purchaseBadge({ ...none, status: 'pending' })).toEqual({ labelKey: 'thankyou.statuses.pending', color: 'yellow', status: 'pending' });
    expect(purchaseBadge({ ...none, status: 'active', payment_processor_id: 'pi_1' }).color).toBe('green');
    expect(purchaseBadge({ ...none, status: 'weird' }).labelKey).toBe('thankyou.statuses.other');
    expect(isPurchasePending({ status: 'pending' })).toBe(true);
    expect(isPurchasePending({ status: 'active' })).toBe(false);
  });
});
