// Back-office analytics (spec part 1 §2 "Analytics income/customers/products", §3 "Analytics results",
// §7 GET /analytics/*, §9 default range: the current month). Beyond the spec: AI usage per model and day
// from the credits ledger (GET /analytics/ai_usage), shown beside income.
import { z } from 'zod';
import { CUSTOMER_LISTS } from './rules/analytics-lists';
import { isoDate } from './schema-kit';

export const analyticsQuery = z.object({
  /** YYYY-MM-DD, inclusive; default the first day of the current month. */
  start_date: isoDate().optional(),
  /** YYYY-MM-DD, inclusive; default the last day of the current month. */
  end_date: isoDate().optional(),
});
export type AnalyticsQuery = z.input<typeof analyticsQuery>;

const range = { start_date: z.string(), end_date: z.string() };

/** Statuses of an invoice that counts as money received. */
export const PAID_INVOICE_STATUSES = ['active', 'completed', 'success', 'succeeded'] as const;
/**
 * Statuses of a purchase that counts as bought (docs/decisions.md "Buying limits"), and whose payments
 * count as income: any other status (pending, revoked, failed, expired, …) is not income.
 */
export const BOUGHT_PURCHASE_STATUSES = ['active', 'completed', 'cancelled'] as const;

/** Payments (or purchases) left out of the totals: those of purchases no longer bought (revoked, …). */
const leftOut = z.object({ count: z.number(), total: z.number() });

/**
 * Income, net (docs/decisions.md "Analytics"): paid invoices of the range, less those whose purchase is no
 * longer bought (revoked, or any status but active, completed, cancelled) — `income`, `payments` and the
 * per-method rows are net, so they agree with the Products page's totals of the same purchases.
 * `gross_income` is every payment received; `excluded` what was left out.
 */
export const incomeAnalytics = z.object({
  ...range,
  income: z.number(),
  payments: z.number(),
  gross_income: z.number(),
  excluded: leftOut,
  payment_methods: z.array(z.object({ payment_method_id: z.number().nullable(), name: z.string().nullable(), payments: z.number(), total: z.number() })),
});
export type IncomeAnalytics = z.infer<typeof incomeAnalytics>;

// In a module without zod: the customers analytics page needs them, not the schemas (issue 31 item 5).
export { ANALYTICS_LIST_PAGE_SIZE, CUSTOMER_LISTS, type CustomerList } from './rules/analytics-lists';

export const customersAnalyticsQuery = analyticsQuery.extend({
  /** Which counter to expand into a list of customers. */
  list: z.enum(CUSTOMER_LISTS).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

export const analyticsCustomer = z.object({ user_id: z.number(), name: z.string(), last_name: z.string(), email: z.string(), date: z.string() });
export const customersAnalytics = z.object({
  ...range,
  signups: z.number(),
  customers: z.number(),
  cancelled: z.number(),
  list: z.object({ kind: z.enum(CUSTOMER_LISTS), page: z.number(), page_size: z.number(), total: z.number(), rows: z.array(analyticsCustomer) }).nullable(),
});
export type CustomersAnalytics = z.infer<typeof customersAnalytics>;

/** Purchases bought in the range, per product; `revoked`: those made in the range and revoked since (not counted). */
export const purchasesAnalytics = z.object({
  ...range,
  purchases: z.number(),
  total: z.number(),
  revoked: leftOut,
  products: z.array(z.object({ product_id: z.number().nullable(), name: z.string().nullable(), purchases: z.number(), total: z.number() })),
});
export type PurchasesAnalytics = z.infer<typeof purchasesAnalytics>;

export const wordsAnalytics = z.object({ ...range, words: z.number(), days: z.array(z.object({ date: z.string(), words: z.number() })) });
export type WordsAnalytics = z.infer<typeof wordsAnalytics>;

export const monthlyAnalytics = z.object({
  ...range,
  months: z.array(z.object({ month: z.string(), income: z.number(), payments: z.number(), signups: z.number(), purchases: z.number() })),
});
export type MonthlyAnalytics = z.infer<typeof monthlyAnalytics>;

export const freeTrialsAnalytics = z.object({
  ...range,
  free_trials: z.number(),
  products: z.array(z.object({ product_id: z.number().nullable(), name: z.string().nullable(), free_trials: z.number() })),
});
export type FreeTrialsAnalytics = z.infer<typeof freeTrialsAnalytics>;

/** AI usage from the credits ledger: words charged and answers per model and day ('enhance' = prompt enhancements). */
export const aiUsageAnalytics = z.object({
  ...range,
  words: z.number(),
  messages: z.number(),
  models: z.array(z.object({ model: z.string(), words: z.number(), messages: z.number() })),
  days: z.array(z.object({ date: z.string(), model: z.string(), words: z.number(), messages: z.number() })),
  /** Web searches of the range (issue 32): in all, failed, pages read; per provider and per day. */
  searches: z.object({
    searches: z.number(),
    failed: z.number(),
    pages_read: z.number(),
    providers: z.array(z.object({ provider: z.string(), searches: z.number(), failed: z.number(), pages_read: z.number() })),
    days: z.array(z.object({ date: z.string(), searches: z.number(), failed: z.number(), pages_read: z.number() })),
  }),
});
export type AiUsageAnalytics = z.infer<typeof aiUsageAnalytics>;

/** The back office's analytics: staff (admins and managers) read them. */
export const ANALYTICS_ACTIONS = ['read'] as const;
export type AnalyticsAction = (typeof ANALYTICS_ACTIONS)[number];
