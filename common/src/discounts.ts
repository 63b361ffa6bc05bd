// Discount codes (spec part 1 §3 Discount: code, is_percent, amount, first_invoice_only; §4 "Discount:
// validating, then set or reset"; §5 "Discounted price"; §7 GET /discounts/code/{code}; §8 "Discount error").
// When a code can no longer be used is ours (docs/decisions.md "Discount codes"): switched off, past
// expires_at, or redeemed max_redemptions times → 412; unknown, or not for this product → invalid.
import { z } from 'zod';
import type { MessageKey } from './messages';
import { id, idParam, text } from './schema-kit';

export const DISCOUNT_CODE_MAX = 50;
/** Letters, digits, dashes and underscores: a code travels in a URL path and is read aloud. */
export const DISCOUNT_CODE_PATTERN = /^[A-Za-z0-9_-]{1,50}$/;
export const DISCOUNT_AMOUNT_MAX = 1_000_000;
export const DISCOUNTS_PAGE_SIZE = 50;
export const DISCOUNTS_MAX_PAGE_SIZE = 100;

/** Error ids of the discount lookup (spec part 1 §8: 412 "cannot use anymore", otherwise "invalid"). */
export const DiscountErrorIds = {
  invalid: 'discount_invalid',
  unavailable: 'discount_unavailable',
  codeExists: 'discount_code_exists',
} as const;

/** A code as typed: trimmed; matched without regard to case. */
export const discountCode = text({ error: 'discount_code_format' })
  .trim()
  .regex(DISCOUNT_CODE_PATTERN, { error: 'discount_code_format' });

const isWholeCents = (v: number) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6;
const discountAmount = z
  .number({ error: 'discount_amount_invalid' })
  .gt(0, { error: 'discount_amount_invalid' })
  .max(DISCOUNT_AMOUNT_MAX, { error: 'discount_amount_invalid' })
  .refine(isWholeCents, { error: 'discount_amount_invalid' });

/** A percentage is 0 < amount ≤ 100 (basis points: 2 decimals at most); dollars off, any whole-cents amount > 0. */
export function discountAmountIssue(d: { is_percent: boolean; amount: number }): MessageKey | null {
  if (d.is_percent && !(d.amount > 0 && d.amount <= 100)) return 'discount_percent_invalid';
  return null;
}

const discountFields = {
  code: discountCode,
  is_percent: z.boolean(),
  amount: discountAmount,
  /** On a subscription, only the first invoice is discounted (spec part 1 §3). */
  first_invoice_only: z.boolean().optional(),
  /** null: any of the operator's products; else only this product. */
  product_id: id().nullish(),
  /** Switched off, the code is refused with the spec's 412. */
  active: z.boolean().optional(),
  /** After this moment the code is refused with the spec's 412; null = no end. */
  expires_at: z.iso.datetime({ offset: true, error: 'invalid_date' }).nullish(),
  /** Paid purchases that may use it; null = no limit. */
  max_redemptions: z.number().int().min(1).max(1_000_000).nullish(),
};

/** POST /discounts/admin. */
export const createDiscountRequest = z.object(discountFields).superRefine((body, ctx) => {
  const issue = discountAmountIssue(body);
  if (issue) ctx.addIssue({ code: 'custom', path: ['amount'], message: issue });
});
export type CreateDiscountRequest = z.infer<typeof createDiscountRequest>;

/** PUT /discounts/admin: fields left out stay as they are. */
export const updateDiscountRequest = z.object({ discount_id: id(), ...z.object(discountFields).partial().shape });
export type UpdateDiscountRequest = z.infer<typeof updateDiscountRequest>;

export const discountIdParams = z.object({ id: idParam() });

/** GET /discounts/admin. */
export const listDiscountsQuery = z.object({
  /** Part of the code, any case. */
  query: text().trim().max(DISCOUNT_CODE_MAX).optional(),
  /** 1-based. */
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(DISCOUNTS_MAX_PAGE_SIZE).default(DISCOUNTS_PAGE_SIZE),
});
export type ListDiscountsQuery = z.infer<typeof listDiscountsQuery>;

/** A discount as staff see it. */
export const discountRecord = z.object({
  discount_id: z.number(),
  code: z.string(),
  is_percent: z.boolean(),
  amount: z.number(),
  first_invoice_only: z.boolean(),
  product_id: z.number().nullable(),
  active: z.boolean(),
  expires_at: z.string().nullable(),
  max_redemptions: z.number().nullable(),
  /** Paid purchases that used it so far. */
  redemptions: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DiscountRecord = z.infer<typeof discountRecord>;

export const discountList = z.object({ discounts: z.array(discountRecord), total: z.number() });
export type DiscountList = z.infer<typeof discountList>;

export const deletedDiscountResponse = z.object({ deleted: z.literal(true) });

/**
 * GET /discounts/code/{code}?product_id= (spec part 1 §7). Any text is looked up: a code that could not
 * exist is the spec's "invalid", like an unknown one.
 */
export const discountLookupParams = z.object({ code: text().trim().min(1).max(200) });
export const discountLookupQuery = z.object({
  product_id: idParam(),
  organization_id: idParam().optional(),
});

/**
 * The discount as checkout applies it (spec part 1 §3 Discount), with the price it gives this product in
 * cents (common/src/rules/discounted-price.ts: what the page shows is what the server charges).
 */
export const discountLookup = z.object({
  code: z.string(),
  is_percent: z.boolean(),
  amount: z.number(),
  first_invoice_only: z.boolean(),
  product_id: z.number(),
  /** Before the discount: sale_price when set, else price; cents. */
  price_cents: z.number(),
  /** After the discount, never below 0; cents. */
  discounted_price_cents: z.number(),
});
export type DiscountLookup = z.infer<typeof discountLookup>;

/** The back office's discount codes: managers list them; admins create, change and delete them. */
export const DISCOUNT_ADMIN_ACTIONS = ['list', 'manage'] as const;
export type DiscountAdminAction = (typeof DISCOUNT_ADMIN_ACTIONS)[number];
