// Back-office customers (spec part 1 §2 "Admin customers table", "Customer detail", "Customer form"; §7
// GET /users/admin/all, GET /users/{id}/admin, POST /users/admin/user, PUT and DELETE /users/admin/{id}).
import { z } from 'zod';
import { CUSTOMERS_PAGE_SIZE, LANGUAGES } from './constants';
import { isoDate, text } from './schema-kit';
import { normalizeProfilePhone, staffRoleSchema } from './users';

export { CUSTOMERS_PAGE_SIZE };

export const CUSTOMER_SEARCH_FIELDS = ['all', 'name', 'last_name', 'email', 'phone'] as const;
export type CustomerSearchField = (typeof CUSTOMER_SEARCH_FIELDS)[number];
export const CUSTOMER_SORT_KEYS = ['user_id', 'name', 'email', 'role', 'total_words', 'last_used', 'ltv'] as const;
export type CustomerSortKey = (typeof CUSTOMER_SORT_KEYS)[number];

/**
 * What staff do with customers (docs/decisions.md "Staff rights"): managers read them (the table, a customer's
 * page, the lookups by email and phone) and get a reset link for one; admins create, edit and delete them and
 * log in as one.
 */
export const CUSTOMER_ACTIONS = ['read', 'reset_link', 'edit', 'delete', 'impersonate'] as const;
export type CustomerAction = (typeof CUSTOMER_ACTIONS)[number];

export const customerListQuery = z.object({
  query: text().trim().max(200).optional(),
  field: z.enum(CUSTOMER_SEARCH_FIELDS).default('all'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  sort: z.enum(CUSTOMER_SORT_KEYS).default('user_id'),
  direction: z.enum(['asc', 'desc']).default('desc'),
  /** Sign-up date range, inclusive days (spec part 1 §9: the web defaults to the current month). */
  start_date: isoDate().optional(),
  end_date: isoDate().optional(),
});
export type CustomerListQuery = z.input<typeof customerListQuery>;

export const customerRow = z.object({
  user_id: z.number(),
  name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  /** The staff role, or null for a customer. */
  role: staffRoleSchema.nullable(),
  /** Words used (charges in the credits ledger). */
  total_words: z.number(),
  /** null: 'Not used yet'. */
  last_used: z.string().nullable(),
  /** Lifetime value in dollars: paid invoices plus paid purchases staff recorded without an invoice. */
  ltv: z.number(),
  createdAt: z.string(),
});
export type CustomerRow = z.infer<typeof customerRow>;

export const customerListResponse = z.object({ users: z.array(customerRow), total: z.number() });
export type CustomerListResponse = z.infer<typeof customerListResponse>;

export const customerPurchase = z.object({
  purchase_id: z.number(),
  status: z.string(),
  product_id: z.number().nullable(),
  product: z.object({ name: z.string() }).nullable(),
  amount: z.number(),
  total_payment: z.number(),
  is_gift: z.boolean(),
  expiration_days: z.number().nullable(),
  expires_at: z.string(),
  payment_method_id: z.number().nullable(),
  payment_processor_id: z.string().nullable(),
  subscription_id: z.string().nullable(),
  cancel_reason: z.string().nullable(),
  createdAt: z.string(),
});
export type CustomerPurchase = z.infer<typeof customerPurchase>;

export const customerInvoice = z.object({
  invoice_id: z.number(),
  purchase_id: z.number().nullable(),
  status: z.string(),
  amount: z.number(),
  total_payment: z.number(),
  payment_method_id: z.number().nullable(),
  order_id: z.string().nullable(),
  expiration_date: z.string().nullable(),
  createdAt: z.string(),
});
export type CustomerInvoice = z.infer<typeof customerInvoice>;

export const customerDetail = z.object({
  user_id: z.number(),
  name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  instagram: z.string().nullable(),
  birthday: z.string().nullable(),
  lang: z.enum(LANGUAGES),
  signup_reason: z.string().nullable(),
  picture: z.string().nullable(),
  staff: z.object({ staff_id: z.number(), role: staffRoleSchema }).nullable(),
  available_words: z.number(),
  total_words: z.number(),
  value: z.number(),
  total_purchases: z.number(),
  last_used: z.string().nullable(),
  purchases: z.array(customerPurchase),
  invoices: z.array(customerInvoice),
  createdAt: z.string(),
});
export type CustomerDetail = z.infer<typeof customerDetail>;

/** spec part 1 §2 "Customer form": name, last_name, email, phone, instagram, lang, signup_reason, birthday. */
export const customerForm = z.object({
  name: text({ error: 'invalid_name' }).trim().min(1, { error: 'invalid_name' }).max(100, { error: 'invalid_name' }),
  last_name: text({ error: 'invalid_last_name' }).trim().max(100, { error: 'invalid_last_name' }).default(''),
  email: z.string({ error: 'invalid_email' }).trim().toLowerCase().pipe(z.email({ error: 'invalid_email' }).max(200, { error: 'invalid_email' })),
  phone: text({ error: 'invalid_phone' }).max(40, { error: 'invalid_phone' }).transform(normalizeProfilePhone).nullish(),
  instagram: text().trim().max(100).nullish(),
  lang: z.enum(LANGUAGES).default('en'),
  signup_reason: text().trim().max(500).nullish(),
  birthday: isoDate().nullish(),
});
export type CustomerFormInput = z.input<typeof customerForm>;
export type CustomerForm = z.infer<typeof customerForm>;

/** The one-time sign-in token of "log in as the user" (exchanged at POST /api/auth/token as `?uid=`). */
export const impersonationResponse = z.object({ uid: z.string() });
