// Access model (spec part 1 §3–§4): products, purchases, invoices, payment methods, discounts, and the
// payment providers' events (webhooks, stored once each) and customers.
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { organizations, users } from './accounts';

const money = (name: string) => numeric(name, { precision: 12, scale: 2, mode: 'number' });
const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const paymentMethods = pgTable('payment_methods', {
  paymentMethodId: serial('payment_method_id').primaryKey(),
  name: text('name').notNull(),
});

export const products = pgTable(
  'products',
  {
    productId: serial('product_id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    shortDescription: text('short_description'),
    price: money('price').notNull(),
    salePrice: money('sale_price'),
    /** null means unlimited. */
    wordAmount: integer('word_amount'),
    isSubscription: boolean('is_subscription').notNull().default(false),
    expirationDays: integer('expiration_days'),
    subscriptionPeriod: text('subscription_period'),
    subscriptionInterval: integer('subscription_interval'),
    limitPerUser: integer('limit_per_user'),
    userLimit: integer('user_limit'),
    freeTrialPeriod: text('free_trial_period'),
    freeTrialLength: integer('free_trial_length'),
    freeTrialEnd: date('free_trial_end'),
    freeTrialWords: integer('free_trial_words'),
    stripeProductId: text('stripe_product_id'),
    stripePriceId: text('stripe_price_id'),
    /** PayPal catalog product and the plan at the product's price (PayPal subscriptions; created on first use). */
    paypalProductId: text('paypal_product_id'),
    paypalPlanId: text('paypal_plan_id'),
    webhookUrl: text('webhook_url'),
    productSku: text('product_sku'),
    available: boolean('available').notNull().default(true),
    image: text('image'),
    thumbnail: text('thumbnail'),
    videoSrc: text('video_src'),
    organizationId: integer('organization_id').references(() => organizations.organizationId),
    ...timestamps,
  },
  (t) => [
    index('products_name_idx').on(t.name),
    index('products_org_idx').on(t.organizationId),
    // GET /products: scoped by organization (null = the operator's), sorted by name (default, any case) or price.
    index('products_org_lower_name_idx').on(t.organizationId, sql`lower(${t.name})`, t.productId),
    index('products_org_price_idx').on(t.organizationId, t.price, t.productId),
  ],
);

export const purchases = pgTable(
  'purchases',
  {
    purchaseId: serial('purchase_id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.userId, { onDelete: 'cascade' }),
    productId: integer('product_id').references(() => products.productId),
    /** active | completed | pending | cancelled | revoked | failed | expired (features/purchase-lifecycle/machine.ts) */
    status: text('status').notNull().default('pending'),
    amount: money('amount').notNull().default(0),
    totalPayment: money('total_payment').notNull().default(0),
    discountCode: text('discount_code'),
    expirationDays: integer('expiration_days'),
    isGift: boolean('is_gift').notNull().default(false),
    paymentMethodId: integer('payment_method_id').references(() => paymentMethods.paymentMethodId),
    paymentProcessorId: text('payment_processor_id'),
    cancelReason: text('cancel_reason'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** Why a failed purchase failed: the provider's decline code, or over_limit / discount_used_up (common/admin-purchases.ts). */
    failureReason: text('failure_reason'),
    subscriptionId: text('subscription_id'),
    subscriptionInterval: integer('subscription_interval'),
    subscriptionPeriod: text('subscription_period'),
    freeTrialLength: integer('free_trial_length'),
    organizationId: integer('organization_id').references(() => organizations.organizationId),
    ...timestamps,
  },
  (t) => [
    index('purchases_user_created_idx').on(t.userId, t.createdAt),
    index('purchases_status_created_idx').on(t.status, t.createdAt),
    index('purchases_product_idx').on(t.productId),
    // Webhooks find the purchase by the provider's payment (PaymentIntent, order) or subscription id.
    index('purchases_processor_idx').on(t.paymentProcessorId),
    index('purchases_subscription_idx').on(t.subscriptionId),
    // The back-office list (/admin) and analytics: a date range, newest first (features/purchases-admin, analytics).
    index('purchases_created_idx').on(t.createdAt, t.purchaseId),
    index('purchases_cancelled_idx').on(t.cancelledAt).where(sql`${t.cancelledAt} is not null`),
    // Customers analytics counts distinct buyers and cancellers in a range from these alone (analytics/service.ts).
    index('purchases_bought_created_idx').on(t.createdAt, t.userId).where(sql`${t.status} in ('active', 'completed')`),
    index('purchases_cancelled_user_idx').on(t.cancelledAt, t.userId).where(sql`${t.status} = 'cancelled'`),
    // An organization's analytics: its purchases in a date range (features/organizations/analytics-service.ts).
    index('purchases_org_created_idx').on(t.organizationId, t.createdAt).where(sql`${t.organizationId} is not null`),
    // Open attempts: the abandoned-attempt sweep (features/purchase-lifecycle/abandoned-attempts.ts) reads the oldest.
    index('purchases_pending_created_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
  ],
);

export const invoices = pgTable(
  'invoices',
  {
    invoiceId: serial('invoice_id').primaryKey(),
    purchaseId: integer('purchase_id').references(() => purchases.purchaseId, { onDelete: 'set null' }),
    userId: integer('user_id').references(() => users.userId, { onDelete: 'cascade' }),
    status: text('status').notNull().default('pending'),
    amount: money('amount').notNull().default(0),
    totalPayment: money('total_payment').notNull().default(0),
    paymentMethodId: integer('payment_method_id').references(() => paymentMethods.paymentMethodId),
    orderId: text('order_id'),
    expirationDate: timestamp('expiration_date', { withTimezone: true }),
    subscriptionId: text('subscription_id'),
    subscriptionInterval: integer('subscription_interval'),
    subscriptionPeriod: text('subscription_period'),
    freeTrialLength: integer('free_trial_length'),
    ...timestamps,
  },
  (t) => [
    index('invoices_user_created_idx').on(t.userId, t.createdAt),
    index('invoices_status_created_idx').on(t.status, t.createdAt),
    index('invoices_purchase_idx').on(t.purchaseId),
    // A renewal webhook finds the invoice by the provider's invoice id.
    index('invoices_order_idx').on(t.orderId),
    // The back-office list (/admin) and income analytics: a date range, newest first.
    index('invoices_created_idx').on(t.createdAt, t.invoiceId),
  ],
);

/**
 * Discount codes (spec part 1 §3 Discount; docs/decisions.md "Discount codes"). A code is unique whatever
 * its case. It can no longer be used (412) once switched off, past expires_at, or redeemed
 * max_redemptions times; `redemptions` counts the paid purchases that used it (checkout adds one in the
 * transaction that fulfils the purchase). product_id null: any of the operator's products.
 */
export const discounts = pgTable(
  'discounts',
  {
    discountId: serial('discount_id').primaryKey(),
    code: text('code').notNull(),
    isPercent: boolean('is_percent').notNull().default(false),
    amount: money('amount').notNull(),
    firstInvoiceOnly: boolean('first_invoice_only').notNull().default(false),
    productId: integer('product_id').references(() => products.productId, { onDelete: 'cascade' }),
    active: boolean('active').notNull().default(true),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    maxRedemptions: integer('max_redemptions'),
    redemptions: integer('redemptions').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('discounts_code_unique').on(sql`lower(${t.code})`),
    index('discounts_product_idx').on(t.productId),
    index('discounts_created_idx').on(t.createdAt),
    check('discounts_amount_check', sql`${t.amount} > 0 and (not ${t.isPercent} or ${t.amount} <= 100)`),
    check('discounts_redemptions_check', sql`${t.redemptions} >= 0 and (${t.maxRedemptions} is null or ${t.maxRedemptions} >= 1)`),
  ],
);

/**
 * Every payment-provider event received (DESIGN.md §6: webhooks store the event id uniquely and fulfil
 * once). A delivery inserts its row (a repeat finds it there and does nothing more); processing sets
 * processed_at in the same transaction as the fulfilment it causes.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    paymentEventId: serial('payment_event_id').primaryKey(),
    /** 'stripe' | 'paypal' */
    provider: text('provider').notNull(),
    /** The provider's event id (Stripe `evt_…`, PayPal `WH-…`). */
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payment_events_provider_event_unique').on(t.provider, t.eventId),
    // The events still to process, oldest first.
    index('payment_events_unprocessed_idx').on(t.receivedAt).where(sql`${t.processedAt} is null`),
    check('payment_events_provider_check', sql`${t.provider} in ('stripe', 'paypal')`),
  ],
);

/**
 * A user's customer record at a payment provider (Stripe `cus_…`: saved cards, customer sessions),
 * created once per user and provider.
 */
export const paymentCustomers = pgTable(
  'payment_customers',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.userId, { onDelete: 'cascade' }),
    /** 'stripe' | 'paypal' */
    provider: text('provider').notNull(),
    customerId: text('customer_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.provider] }),
    uniqueIndex('payment_customers_provider_customer_unique').on(t.provider, t.customerId),
    check('payment_customers_provider_check', sql`${t.provider} in ('stripe', 'paypal')`),
  ],
);
