// Per-day summaries of the back office (docs/decisions.md "Back-office at scale"): how many customers
// signed up, and purchases and invoices by status (with their totals) per UTC day. Kept by database
// triggers on users, purchases and invoices (migration 0011), never written by the app; analytics and the
// lists' unsearched counts read them instead of aggregating hundreds of thousands of rows per request.
// A key column left null (no product, no payment method) is one group: the unique keys treat nulls as equal.
import { date, integer, numeric, pgTable, text, unique } from 'drizzle-orm/pg-core';

export const dailySignups = pgTable('daily_signups', {
  /** The UTC day of users.created_at. */
  day: date('day').primaryKey(),
  signups: integer('signups').notNull().default(0),
});

export const dailyPurchaseFigures = pgTable(
  'daily_purchase_figures',
  {
    /** The UTC day of purchases.created_at. */
    day: date('day').notNull(),
    productId: integer('product_id'),
    status: text('status').notNull(),
    purchases: integer('purchases').notNull().default(0),
    /** Sum of total_payment (dollars). */
    total: numeric('total', { precision: 16, scale: 2, mode: 'number' }).notNull().default(0),
  },
  (t) => [unique('daily_purchase_figures_key').on(t.day, t.productId, t.status).nullsNotDistinct()],
);

export const dailyInvoiceFigures = pgTable(
  'daily_invoice_figures',
  {
    /** The UTC day of invoices.created_at. */
    day: date('day').notNull(),
    paymentMethodId: integer('payment_method_id'),
    status: text('status').notNull(),
    invoices: integer('invoices').notNull().default(0),
    /** Sum of total_payment (dollars). */
    total: numeric('total', { precision: 16, scale: 2, mode: 'number' }).notNull().default(0),
  },
  (t) => [unique('daily_invoice_figures_key').on(t.day, t.paymentMethodId, t.status).nullsNotDistinct()],
);
