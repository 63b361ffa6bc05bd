// What a failed checkout, payment or discount check says (spec part 1 §8 "Card error from provider",
// "Checkout HTTP 402 / other response error / no response", "Purchase default / 400 / 409 / 412",
// "Discount error", "Product not found"). Pure: each rule is unit-tested; texts live in checkout.<lang>.json.
import { PaymentErrorIds } from '@pluma/common/checkout';
import { PayPalErrorIds } from '@pluma/common/paypal';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/api-error';
import { localizeServerText } from '../../ui/server-text';

export interface CheckoutText {
  key: string;
  params?: Record<string, string>;
  /** A server text to show instead of `key` (re-worded in the current language when it is one of ours). */
  serverText?: string;
}

/** PayPal's own refusals (features/paypal): the server's message says what happened. */
const PAYPAL_ERRORS: ReadonlySet<string> = new Set(Object.values(PayPalErrorIds));

/** The text as drawn. */
export function checkoutTextOf(text: CheckoutText, t: TFunction): string {
  return text.serverText ? localizeServerText(text.serverText) : t(text.key, text.params);
}

/** Stripe.js answered a confirm with { error } (a declined card, a failed 3-D Secure...). */
export class StripeConfirmError extends Error {
  readonly type: string | undefined;
  readonly code: string | undefined;
  constructor(error: { message?: string; type?: string; code?: string }) {
    super(error.message ?? '');
    this.name = 'StripeConfirmError';
    this.type = error.type;
    this.code = error.code;
  }
}

/** A failed purchase: checkout/attempt, checkout with a saved card, or the card's confirmation. */
export function purchaseErrorText(error: unknown): CheckoutText {
  if (error instanceof StripeConfirmError) {
    // The provider's own message, already in the page's language (Stripe.js is loaded with the locale).
    return error.message ? { key: 'errors.cardError', params: { message: error.message } } : { key: 'errors.purchaseDefault' };
  }
  if (!(error instanceof ApiError)) return { key: 'errors.purchaseDefault' };
  if (error.isNetworkError) return { key: 'errors.noResponse' };
  if (error.errorId === PaymentErrorIds.notConfigured) return { key: 'errors.notConfigured' };
  if (error.errorId === PaymentErrorIds.organizationNotConfigured) return { key: 'errors.organizationNotConfigured' };
  if (error.errorId === PaymentErrorIds.subscriptionActive) return { key: 'errors.subscriptionActive' };
  if (error.errorId && PAYPAL_ERRORS.has(error.errorId)) return { key: 'errors.purchaseDefault', serverText: error.body?.message || undefined };
  switch (error.status) {
    case 400:
      return { key: 'errors.invalidPaymentMethod' };
    case 402:
      return { key: 'errors.insufficientFunds' };
    case 404:
      return { key: 'errors.productNotFound' };
    case 409:
      return { key: 'errors.limitReached' };
    case 412:
      return { key: 'errors.productUnavailable' };
    default:
      return { key: 'errors.cardRejected' };
  }
}

/** A refused discount code: 412 → "cannot use anymore", anything else the server answered → "invalid". */
export function discountErrorText(error: unknown): CheckoutText {
  if (error instanceof ApiError && error.isNetworkError) return { key: 'errors.discountNoResponse' };
  if (error instanceof ApiError && error.status === 412) return { key: 'errors.discountUnavailable' };
  return { key: 'errors.discountInvalid' };
}
