// PayPal checkout (spec part 1 §7 "POST /checkout/capture" and the wallet order create row; issue 10
// item 4; docs/decisions.md "PayPal checkout"). The client never sends a price: the server computes it
// (rules/discounted-price.ts) and PayPal charges exactly that.
import { z } from 'zod';
import { id, text } from './schema-kit';

export const PayPalErrorIds = {
  /** 404 on GET /paypal/config, 409 elsewhere: no PayPal client id and secret configured. */
  notConfigured: 'paypal_not_configured',
  /** 409: the buyer has not approved the order at PayPal yet (capture before approval). */
  notApproved: 'paypal_order_not_approved',
  /** 400: a subscription product bought through /paypal/orders, or a one-time one through /paypal/subscriptions. */
  wrongKind: 'paypal_wrong_product_kind',
} as const;

/** GET /paypal/config (no sign-in): public values only, never the secret or the webhook id. */
export const payPalConfigResponse = z.object({
  client_id: z.string(),
  environment: z.enum(['sandbox', 'live']),
  currency: z.literal('USD'),
  /**
   * PAYMENTS_DEMO only: the PayPal emulator's stand-in of PayPal's JS SDK v6 core script. The page loads it
   * before the SDK, which then uses it instead of loading paypal.com's (whose URL cannot be changed).
   */
  js_url: z.string().optional(),
});
export type PayPalConfigResponse = z.infer<typeof payPalConfigResponse>;

/** POST /paypal/orders: the wallet order create row (product_id, discountCode). */
export const payPalOrderRequest = z.object({
  product_id: id(),
  /** The spec's field name; an empty code is no code. */
  discountCode: text().trim().max(200).optional(),
  organization_id: id().optional(),
});
export type PayPalOrderRequest = z.infer<typeof payPalOrderRequest>;

export const payPalOrderResponse = z.object({
  /** PayPal's order id (the JS SDK's `orderID`), or null when nothing is to be paid (a 100 % discount: already complete). */
  order_id: z.string().nullable(),
  purchase_id: z.number(),
  /** Dollars charged (the discounted price). */
  total_payment: z.number(),
});
export type PayPalOrderResponse = z.infer<typeof payPalOrderResponse>;

/** POST /checkout/capture: the buyer approved `order_id` in PayPal's window. */
export const payPalCaptureRequest = z.object({
  order_id: z.string().trim().regex(/^[A-Z0-9]{5,36}$/, { error: 'invalid_id' }),
});
export type PayPalCaptureRequest = z.infer<typeof payPalCaptureRequest>;

export const payPalCaptureResponse = z.object({
  purchase_id: z.number(),
  /** The purchase's status after the capture: completed when paid, pending while PayPal reviews it. */
  status: z.string(),
});
export type PayPalCaptureResponse = z.infer<typeof payPalCaptureResponse>;

/** POST /paypal/subscriptions: a recurring product through PayPal (plan id per product and price). */
export const payPalSubscriptionRequest = payPalOrderRequest;
export type PayPalSubscriptionRequest = z.infer<typeof payPalSubscriptionRequest>;

export const payPalSubscriptionResponse = z.object({
  /** PayPal's subscription id (the JS SDK's `subscriptionID`); activation arrives by webhook. */
  subscription_id: z.string(),
  plan_id: z.string(),
  purchase_id: z.number(),
  /** Dollars of the first cycle (0 during a free trial). */
  total_payment: z.number(),
});
export type PayPalSubscriptionResponse = z.infer<typeof payPalSubscriptionResponse>;
