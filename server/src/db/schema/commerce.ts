// Access model (spec part 1 §3–§4): products, purchases, invoices, payment methods.
// Checkout flows come later; these tables decide has_access now.
import { boolean, date, index, integer, numeric, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
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
    webhookUrl: text('webhook_url'),
    productSku: text('product_sku'),
    available: boolean('available').notNull().default(true),
    image: text('image'),
    thumbnail: text('thumbnail'),
    videoSrc: text('video_src'),
    organizationId: integer('organization_id').references(() => organizations.organizationId),
    ...timestamps,
  },
  (t) => [index('products_name_idx').on(t.name), index('products_org_idx').on(t.organizationId)],
);

export const purchases = pgTable(
  'purchases',
  {
    purchaseId: serial('purchase_id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.userId, { onDelete: 'cascade' }),
    productId: integer('product_id').references(() => products.productId),
    /** active | completed | pending | cancelled | revoked */
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
  ],
);
