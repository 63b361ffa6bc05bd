// The back-office purchases and invoices (spec part 1 §2 "Admin purchases and invoices", §3 Purchase and
// Invoice, §4 admin edit rules, §7 GET/POST/PUT /purchases/admin, GET/POST/PUT /invoices/admin,
// POST /purchases/test, §9 page size 12 and purchase filters).
import { z } from 'zod';
import { CANCEL_REASON_MIN_LENGTH } from './constants';
import { id, idParam, isoDate, text } from './schema-kit';

export const PURCHASE_STATUSES = ['active', 'completed', 'pending', 'cancelled', 'revoked'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/**
 * Every status a purchase can be in (issue 28; server/src/features/purchase-lifecycle/machine.ts): the
 * spec's five (staff may set these) plus the two only the lifecycle sets: failed (the provider declined
 * the payment, or it arrived over a limit and was refunded: failure_reason says which) and expired (an
 * attempt not paid in time).
 */
export const LIFECYCLE_PURCHASE_STATUSES = [...PURCHASE_STATUSES, 'failed', 'expired'] as const;
export type LifecyclePurchaseStatus = (typeof LIFECYCLE_PURCHASE_STATUSES)[number];

/**
 * failure_reason of a failed purchase: the provider's decline code as it gave it (Stripe's decline_code or
 * code, e.g. generic_decline, insufficient_funds; PayPal's issue, e.g. INSTRUMENT_DECLINED), or one of ours:
 * the payment arrived over the product's limits, or after the one-use code was used up (both refunded).
 * Each of ours has a message key `purchase_failed_<reason>` in messages.ts; any other reason shows
 * `purchase_failed_declined`.
 */
export const PurchaseFailureReasons = {
  overLimit: 'over_limit',
  discountUsedUp: 'discount_used_up',
} as const;

/** spec part 1 §4: invoice statuses (chosen freely in the editor; the badge also shows succeeded). */
export const INVOICE_STATUSES = ['completed', 'active', 'pending', 'failed', 'cancelled', 'succeeded'] as const;

/**
 * spec part 1 §9 "Purchase filters": the statuses each status tab lists. Failed also lists expired (an attempt
 * never paid: docs/decisions.md "Purchase lifecycle").
 */
export const STATUS_FILTERS = {
  successful: ['active', 'completed', 'success'],
  failed: ['failed', 'cancelled', 'expired'],
  pending: ['pending', 'processing', 'on-hold'],
} as const;
export const STATUS_TABS = ['all', 'successful', 'failed', 'pending'] as const;
export type StatusTab = (typeof STATUS_TABS)[number];
export const TYPE_TABS = ['all', 'purchases', 'invoices'] as const;
export type TypeTab = (typeof TYPE_TABS)[number];

/** spec part 1 §4: a purchase already cancelled or revoked can only be set to cancelled or revoked. */
export const FINAL_PURCHASE_STATUSES: readonly PurchaseStatus[] = ['cancelled', 'revoked'];
export function allowedPurchaseStatuses(current: string): readonly PurchaseStatus[] {
  return FINAL_PURCHASE_STATUSES.includes(current as PurchaseStatus) ? FINAL_PURCHASE_STATUSES : PURCHASE_STATUSES;
}

const dateRange = {
  /** YYYY-MM-DD, inclusive; default the start of the current month (spec part 1 §9). */
  start_date: isoDate().optional(),
  /** YYYY-MM-DD, inclusive; default one month after the start. */
  end_date: isoDate().optional(),
};

export const adminPurchasesQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  query: text().trim().max(200).optional(),
  status: z.enum(STATUS_TABS).default('all'),
  type: z.enum(TYPE_TABS).default('all'),
  product_id: idParam().optional(),
  ...dateRange,
});
export type AdminPurchasesQuery = z.input<typeof adminPurchasesQuery>;

/** GET /invoices/admin: the same filters, invoices only. */
export const adminInvoicesQuery = adminPurchasesQuery.omit({ type: true });

/** What a staff member may do with a row (the web shows only these; the server enforces them). */
/** What staff do with the back office's records: managers read them; admins edit them and cancel live subscriptions. */
export const ADMIN_RECORD_ACTIONS = ['read', 'edit', 'cancel_subscription'] as const;
export type AdminRecordAction = (typeof ADMIN_RECORD_ACTIONS)[number];

export const adminRowAbilities = z.object({
  edit: z.boolean(),
  /** A live subscription billed by a provider (or given by staff) that an admin may cancel. */
  cancel_subscription: z.boolean(),
});

/** One row of the /admin table: a purchase or an invoice (spec part 1 §3). */
export const adminPurchaseRow = z.object({
  type: z.enum(['purchase', 'invoice']),
  purchase_id: z.number().nullable(),
  invoice_id: z.number().nullable(),
  user: z.object({ user_id: z.number(), name: z.string(), last_name: z.string(), email: z.string() }).nullable(),
  product: z.object({ product_id: z.number(), name: z.string() }).nullable(),
  status: z.string(),
  amount: z.number(),
  total_payment: z.number(),
  discount: z.object({ code: z.string() }).nullable(),
  payment_method: z.object({ payment_method_id: z.number(), name: z.string() }).nullable(),
  is_gift: z.boolean(),
  expiration_days: z.number().nullable(),
  payment_processor_id: z.string().nullable(),
  order_id: z.string().nullable(),
  subscription_id: z.string().nullable(),
  subscription_period: z.string().nullable(),
  expiration_date: z.string().nullable(),
  cancel_reason: z.string().nullable(),
  /** Why a failed purchase failed (PurchaseFailureReasons, or the provider's decline code); null otherwise and for invoices. */
  // The server always sends it (null when none); optional in the type only until the web's fixtures carry it.
  failure_reason: z.string().nullable().optional(),
  cancelledAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  abilities: adminRowAbilities,
});
export type AdminPurchaseRow = z.infer<typeof adminPurchaseRow>;

export const adminPurchasesPage = z.object({
  rows: z.array(adminPurchaseRow),
  total: z.number(),
  /**
   * true: a search (or an invoice's product) matched more than `total`, which then is the records the page
   * buttons reach from this page; counting further is not done (docs/decisions.md "Back-office at scale").
   */
  total_capped: z.boolean(),
  page: z.number(),
  page_size: z.number(),
  start_date: z.string(),
  end_date: z.string(),
});
export type AdminPurchasesPage = z.infer<typeof adminPurchasesPage>;

const cancelReason = text({ error: 'cancel_reason_required' }).trim().min(CANCEL_REASON_MIN_LENGTH, { error: 'cancel_reason_required' }).max(2000);
const money = z.number().min(0).max(1_000_000);

/** spec part 1 §4: cancelled needs a reason of at least 10 characters ('You must include a cancel reason.'). */
function reasonWhenCancelled(value: { status?: string; cancel_reason?: string | null }, context: z.RefinementCtx) {
  if (value.status === 'cancelled' && !value.cancel_reason) {
    context.addIssue({ code: 'custom', path: ['cancel_reason'], message: 'cancel_reason_required' });
  }
}

/** POST /purchases/admin: a purchase made by staff; active or completed gives access and credits at once. */
export const adminCreatePurchaseRequest = z
  .object({
    user_id: id(),
    product_id: id(),
    status: z.enum(PURCHASE_STATUSES).default('completed'),
    amount: money.optional(),
    total_payment: money.optional(),
    is_gift: z.boolean().default(false),
    expiration_days: z.number().int().min(1).max(36500).nullable().optional(),
    payment_method_id: id().nullable().optional(),
    cancel_reason: cancelReason.nullable().optional(),
  })
  .superRefine(reasonWhenCancelled);
export type AdminCreatePurchaseRequest = z.infer<typeof adminCreatePurchaseRequest>;

/** PUT /purchases/admin: only the fields sent change (spec part 1 §4 status rules). */
export const adminUpdatePurchaseRequest = z
  .object({
    purchase_id: id(),
    status: z.enum(PURCHASE_STATUSES).optional(),
    cancel_reason: cancelReason.nullable().optional(),
    amount: money.optional(),
    total_payment: money.optional(),
    is_gift: z.boolean().optional(),
    expiration_days: z.number().int().min(1).max(36500).nullable().optional(),
    payment_method_id: id().nullable().optional(),
  })
  .superRefine(reasonWhenCancelled);
export type AdminUpdatePurchaseRequest = z.infer<typeof adminUpdatePurchaseRequest>;

const invoiceFields = {
  status: z.enum(INVOICE_STATUSES),
  amount: money,
  total_payment: money,
  payment_method_id: id().nullable(),
  order_id: text().trim().max(200).nullable(),
  expiration_date: isoDate().nullable(),
};

/** POST /invoices/admin: spec part 1 §4 "A new invoice defaults to status pending, amount 0, no purchase, no user." */
export const adminCreateInvoiceRequest = z.object({
  purchase_id: id().nullable().default(null),
  user_id: id().nullable().default(null),
  status: invoiceFields.status.default('pending'),
  amount: money.default(0),
  total_payment: money.optional(),
  payment_method_id: invoiceFields.payment_method_id.optional(),
  order_id: invoiceFields.order_id.optional(),
  expiration_date: invoiceFields.expiration_date.optional(),
});
export type AdminCreateInvoiceRequest = z.infer<typeof adminCreateInvoiceRequest>;

/** PUT /invoices/admin: only the fields sent change. */
export const adminUpdateInvoiceRequest = z.object({
  invoice_id: id(),
  purchase_id: id().nullable().optional(),
  user_id: id().nullable().optional(),
  status: invoiceFields.status.optional(),
  amount: money.optional(),
  total_payment: money.optional(),
  payment_method_id: invoiceFields.payment_method_id.optional(),
  order_id: invoiceFields.order_id.optional(),
  expiration_date: invoiceFields.expiration_date.optional(),
});
export type AdminUpdateInvoiceRequest = z.infer<typeof adminUpdateInvoiceRequest>;

/** POST /purchases/test: a sample purchase sent to the product's webhook_url. */
export const purchaseTestRequest = z.object({
  product_id: id(),
  user_id: id().optional(),
  email: text().trim().max(320).optional(),
});
export const purchaseTestResponse = z.object({
  url: z.string(),
  status: z.number(),
  ok: z.boolean(),
  /** The first 2,000 characters of what the webhook answered. */
  body: z.string(),
  sent: z.record(z.string(), z.unknown()),
});
export type PurchaseTestResponse = z.infer<typeof purchaseTestResponse>;
