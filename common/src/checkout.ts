// Checkout with Stripe and the customer's own purchases and invoices (spec part 1 §7 POST /checkout/attempt,
// GET /purchases, GET /purchases/{id}, GET /invoices/; docs/decisions.md "Stripe checkout and webhooks").
// The client never sends a price: the server recomputes it (rules/discounted-price.ts).
import { z } from 'zod';
import { id, idParam, text } from './schema-kit';

export const PaymentErrorIds = {
  /** 409: no Stripe secret key in the app configuration (or STRIPE_SECRET_KEY). */
  notConfigured: 'payments_not_configured',
  /** 409: an organization's product, and the organization saved no Stripe secret key (its keys only, never the operator's). */
  organizationNotConfigured: 'organization_payments_not_configured',
  /** 502: Stripe refused or could not be reached. */
  provider: 'payments_provider_error',
  /** No longer sent: buying another plan switches plans (docs/decisions.md "Saved cards, plan switching and the offline demo"). */
  subscriptionActive: 'subscription_already_active',
  /** 400: the Stripe-Signature header is missing, malformed, wrong or stale. */
  webhookSignature: 'payments_webhook_signature_invalid',
  /** 500: no webhook signing secret configured. */
  webhookNotConfigured: 'payments_webhook_not_configured',
  /** 502: Stripe refused to remove a saved card or could not be reached (spec part 1 §8 "Deleting a payment source fails"). */
  sourceDeleteFailed: 'payment_source_delete_failed',
  /** 409: the card pays a subscription that will renew (removing it would make Stripe's renewals fail). */
  sourceInUse: 'payment_source_in_use',
} as const;

export const checkoutAttemptRequest = z.object({
  product_id: id(),
  /** The spec's field name; an empty code is no code. */
  discountCode: text().trim().max(200).optional(),
  /** Accepted for the spec's shape; the card is chosen in Stripe's Payment Element. */
  payment_method_id: id().nullable().optional(),
  payment_method: text().max(50).nullable().optional(),
  organization_id: id().optional(),
});
export type CheckoutAttemptRequest = z.infer<typeof checkoutAttemptRequest>;

export const checkoutAttemptResponse = z.object({
  purchase_id: z.number(),
  /**
   * 'payment': confirm with stripe.confirmPayment (a PaymentIntent or a subscription's first invoice);
   * 'setup': a trial taking the card up front, confirm with stripe.confirmSetup;
   * 'none': nothing to pay (a 100 % discount), the purchase is already complete.
   */
  kind: z.enum(['payment', 'setup', 'none']),
  clientSecret: z.string().nullable(),
  /** What is charged now, in dollars (the discounted price; 0 during a trial). */
  total_payment: z.number(),
});
export type CheckoutAttemptResponse = z.infer<typeof checkoutAttemptResponse>;

export const purchaseIdParams = z.object({ id: idParam() });
/** POST /stripe/webhook/organizations/{organization_id}: an organization's own Stripe account's webhook. */
export const organizationWebhookParams = z.object({ organization_id: idParam() });

/** A customer's own purchase (thank-you page, /billing). */
export const ownPurchaseRecord = z.object({
  purchase_id: z.number(),
  user_id: z.number(),
  product_id: z.number().nullable(),
  product: z.object({ name: z.string() }).nullable(),
  status: z.string(),
  amount: z.number(),
  total_payment: z.number(),
  discount: z.object({ code: z.string() }).nullable(),
  expiration_days: z.number().nullable(),
  is_gift: z.boolean(),
  payment_method_id: z.number().nullable(),
  payment_processor_id: z.string().nullable(),
  subscription_id: z.string().nullable(),
  subscription_interval: z.number().nullable(),
  subscription_period: z.string().nullable(),
  free_trial_length: z.number().nullable(),
  cancel_reason: z.string().nullable(),
  /** Why a failed purchase failed (admin-purchases.ts PurchaseFailureReasons, or the provider's decline code); null otherwise. */
  // The server always sends it (null when none); optional in the type only until the web's fixtures carry it.
  failure_reason: z.string().nullable().optional(),
  cancelledAt: z.string().nullable(),
  organization_id: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OwnPurchaseRecord = z.infer<typeof ownPurchaseRecord>;

export const ownInvoiceRecord = z.object({
  invoice_id: z.number(),
  purchase_id: z.number().nullable(),
  user_id: z.number().nullable(),
  status: z.string(),
  amount: z.number(),
  total_payment: z.number(),
  payment_method_id: z.number().nullable(),
  order_id: z.string().nullable(),
  expiration_date: z.string().nullable(),
  subscription_id: z.string().nullable(),
  subscription_interval: z.number().nullable(),
  subscription_period: z.string().nullable(),
  free_trial_length: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OwnInvoiceRecord = z.infer<typeof ownInvoiceRecord>;

export const OWN_LIST_PAGE_SIZE = 50;
export const ownListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(OWN_LIST_PAGE_SIZE),
});

/** GET /stripe/products and GET /stripe/prices/{stripe_product_id} (staff admins: the product form's Stripe section). */
export const stripeProductIdParams = z.object({ stripe_product_id: z.string().regex(/^prod_[A-Za-z0-9]{1,64}$/, { error: 'invalid_id' }) });
export const stripeProductRecord = z.object({ id: z.string(), name: z.string(), active: z.boolean(), description: z.string().nullable() });
export const stripePriceRecord = z.object({
  id: z.string(),
  product: z.string(),
  active: z.boolean(),
  currency: z.string(),
  unit_amount: z.number().nullable(),
  recurring: z.object({ interval: z.string(), interval_count: z.number() }).nullable(),
  nickname: z.string().nullable(),
});
export const stripeProductList = z.array(stripeProductRecord);
export const stripePriceList = z.array(stripePriceRecord);

// ---- Contracts shared by the checkout screen and the payments server (issue 10) ----

/**
 * GET /checkout/config (no sign-in): what the checkout page needs, public values only. `stripe` is null
 * when no keys are configured (the page then says payments are not configured). `js_url` is Stripe's
 * own script in production; PAYMENTS_DEMO=1 and the browser tests point it at the emulator's stand-in.
 */
export const checkoutConfigResponse = z.object({
  stripe: z.object({ publishable_key: z.string(), js_url: z.string() }).nullable(),
  /** PAYMENTS_DEMO=1: checkout runs against the local payment emulators (refused in production). */
  demo: z.boolean(),
});
export type CheckoutConfigResponse = z.infer<typeof checkoutConfigResponse>;

/**
 * POST /checkout/customer_session (signed in): a Stripe CustomerSession of the caller's own customer, for
 * Stripe's Elements option `customerSessionClientSecret` (the Payment Element redisplays saved cards and
 * offers to save a new one). A new session each call; it expires at `expiresAt` (30 minutes).
 */
export const customerSessionResponse = z.object({ customerSessionClientSecret: z.string(), expiresAt: z.string() });
export type CustomerSessionResponse = z.infer<typeof customerSessionResponse>;

/** spec part 1 §3 Payment source: a saved card. The id is the provider's payment method id. */
export const paymentSourceRecord = z.object({
  payment_source_id: z.string(),
  /** mastercard, visa or other (spec part 1 §3). */
  card_type: z.enum(['mastercard', 'visa', 'other']),
  last_digits: z.string(),
  exp_month: z.number().nullable(),
  exp_year: z.number().nullable(),
});
export type PaymentSourceRecord = z.infer<typeof paymentSourceRecord>;
export const paymentSourceList = z.array(paymentSourceRecord);

/** POST /payment_sources: starts saving a card; the page confirms the SetupIntent with stripe.confirmSetup. */
export const createPaymentSourceResponse = z.object({ clientSecret: z.string() });
export const paymentSourceIdParams = z.object({ id: z.string().regex(/^pm_[A-Za-z0-9]{1,64}$/, { error: 'invalid_id' }) });

/** GET /payment_method: spec part 1 §3 Payment method. */
export const paymentMethodRecord = z.object({ payment_method_id: z.number(), name: z.string() });
export const paymentMethodList = z.array(paymentMethodRecord);

/**
 * POST /checkout: pays with a saved card (spec part 1 §7). Prices are recomputed on the server. The
 * answer is like POST /checkout/attempt's: `kind: 'payment'` with a clientSecret means the bank asks for
 * 3-D Secure (the page runs stripe.confirmPayment / handleNextAction with it); 'none' means done.
 */
export const checkoutRequest = z.object({
  type: z.enum(['purchase']).default('purchase'),
  product_id: id(),
  payment_source_id: z.string().regex(/^pm_[A-Za-z0-9]{1,64}$/, { error: 'invalid_id' }),
  discountCode: text().trim().max(200).optional(),
  payment_method_id: id().nullable().optional(),
  invoice_id: id().nullable().optional(),
  contract_invoice_id: id().nullable().optional(),
  organization_id: id().optional(),
});
export type CheckoutRequest = z.infer<typeof checkoutRequest>;
export const checkoutResponse = checkoutAttemptResponse;

/** POST /purchases/cancel/{id}: spec part 1 §4/§9, a reason of at least 10 characters. */
export const CANCEL_REASON_MIN = 10;
export const cancelPurchaseRequest = z.object({
  cancel_reason: text({ error: 'cancel_reason_required' }).trim().min(CANCEL_REASON_MIN, { error: 'cancel_reason_required' }).max(2000),
  status: z.literal('cancelled').default('cancelled'),
});
export type CancelPurchaseRequest = z.infer<typeof cancelPurchaseRequest>;
