// Products as the pricing page and checkout see them (spec part 1 §2 "Pricing", §3 Product, §7
// GET /products/available and GET /products/{id}).
import { z } from 'zod';
import { UNLIMITED_WORDS } from './constants';
import type { MessageKey } from './messages';
import { id, idParam, isoDate, text } from './schema-kit';

/**
 * What may be done with a product (DESIGN.md §7: presenters carry the actor's abilities): `buy` it, or
 * `update` and `delete` it (staff admins for the operator's products, an organization's Admin for its own).
 */
export const PRODUCT_ACTIONS = ['read', 'buy', 'update', 'delete'] as const;
export type ProductAction = (typeof PRODUCT_ACTIONS)[number];
export const productAbilities = z.object(Object.fromEntries(PRODUCT_ACTIONS.map((a) => [a, z.boolean()])) as Record<ProductAction, z.ZodBoolean>);

export const availableProduct = z.object({
  product_id: z.number(),
  name: z.string(),
  description: z.string(),
  short_description: z.string().nullable(),
  price: z.number(),
  sale_price: z.number().nullable(),
  /** null means unlimited. */
  word_amount: z.number().nullable(),
  is_subscription: z.boolean(),
  subscription_period: z.string().nullable(),
  subscription_interval: z.number().nullable(),
  expiration_days: z.number().nullable(),
  free_trial_length: z.number().nullable(),
  image: z.string().nullable(),
  /** The organization that sells it; null for the operator's own products. */
  organization_id: z.number().nullable(),
  /** What the visitor may do with it (signed out: read and buy an available product). */
  abilities: productAbilities,
});
export type AvailableProduct = z.infer<typeof availableProduct>;
export const availableProductsResponse = z.array(availableProduct);

/**
 * `organization_id` names the organization the request acts in (spec part 1 §7: the web appends it while
 * one is active); without it, the operator's products. Naming one needs a signed-in member of it.
 */
export const productsQuery = z.object({ organization_id: idParam().optional() });
export const productIdParams = z.object({ id: idParam() });

// ---- Managing products (spec part 1 §2 "Products list", "Product form"; §5 server-facing rules; §7
// GET /products, POST /products, PUT /products). Staff admins manage the operator's products, an
// organization's Admin its own (server/src/features/products/policy.ts).

export const SUBSCRIPTION_PERIODS = ['day', 'month', 'year'] as const;
export type SubscriptionPeriod = (typeof SUBSCRIPTION_PERIODS)[number];
/** How a free trial is given (spec part 1 §2 "Product form"): by days (free_trial_length) or by end date (free_trial_end). */
export const FREE_TRIAL_PERIODS = ['days', 'date'] as const;

export const PRODUCT_NAME_MAX = 200;
export const PRODUCT_DESCRIPTION_MAX = 5000;
export const PRODUCT_SHORT_DESCRIPTION_MAX = 500;
/** Fits numeric(12,2) with room to spare. */
export const PRODUCT_PRICE_MAX = 1_000_000;
/** 1000000 words means unlimited (spec part 1 §9), so a fixed amount stays below it; null is unlimited. */
export const PRODUCT_WORD_AMOUNT_MAX = UNLIMITED_WORDS - 1;
export const PRODUCT_URL_MAX = 2000;
/** Stripe's longest free trial is 730 days. */
export const FREE_TRIAL_DAYS_MAX = 730;
export const PRODUCTS_PAGE_SIZE = 50;
export const PRODUCTS_MAX_PAGE_SIZE = 100;
/** The Products list sorts by these (spec part 1 §2: product_id, name, word_amount, price "and extra columns"). */
export const PRODUCT_SORT_KEYS = ['product_id', 'name', 'word_amount', 'price', 'sale_price', 'is_subscription', 'available', 'createdAt'] as const;
export type ProductSortKey = (typeof PRODUCT_SORT_KEYS)[number];

/** Whether a dollar amount has at most 2 decimals (whole cents). */
export const isWholeCents = (dollars: number): boolean => Math.abs(dollars * 100 - Math.round(dollars * 100)) < 1e-6;

/** An address the product page links or embeds: http(s), or a same-site path beginning with one `/` (uploads). */
export function isProductUrl(value: string): boolean {
  if (value.startsWith('/')) return !value.startsWith('//') && !value.startsWith('/\\') && !/\s/.test(value);
  return isHttpUrl(value);
}

/** An absolute http(s) address (the lead-connector webhook is called by the server, through the outbound guard). */
export function isHttpUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const parsed = new URL(value);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Optional text: '' (an emptied form field) is null; absent stays absent (PUT: unchanged). */
const optionalText = (max: number) =>
  text()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v === '' ? null : v));
/** A Stripe object id (prod_…, price_…): it goes into Stripe's request paths, so nothing but its characters. */
const optionalStripeId = () =>
  text()
    .trim()
    .max(255)
    .regex(/^[A-Za-z0-9_]*$/, { error: 'invalid_id' })
    .nullish()
    .transform((v) => (v === '' ? null : v));
const optionalUrl = (check: (v: string) => boolean, error: MessageKey) =>
  text()
    .trim()
    .max(PRODUCT_URL_MAX)
    .refine((v) => v === '' || check(v), { error })
    .nullish()
    .transform((v) => (v === '' ? null : v));
const count = (max: number) => z.number().int().min(1).max(max).nullish();

const price = z
  .number({ error: 'product_price_invalid' })
  .gt(0, { error: 'product_price_invalid' })
  .max(PRODUCT_PRICE_MAX, { error: 'product_price_invalid' })
  .refine(isWholeCents, { error: 'product_price_invalid' });
const salePrice = z
  .number({ error: 'product_sale_price_invalid' })
  .gt(0, { error: 'product_sale_price_invalid' })
  .max(PRODUCT_PRICE_MAX, { error: 'product_sale_price_invalid' })
  .refine(isWholeCents, { error: 'product_sale_price_invalid' })
  .nullish();
/** null means unlimited (spec part 1 §3); a fixed amount is greater than 0. */
const wordAmount = z
  .number({ error: 'product_word_amount_invalid' })
  .int({ error: 'product_word_amount_invalid' })
  .min(1, { error: 'product_word_amount_invalid' })
  .max(PRODUCT_WORD_AMOUNT_MAX)
  .nullable();

/** The fields of the product form (spec part 1 §2 "Product form", §3 Product). */
const productFields = {
  name: text({ error: 'product_name_required' }).trim().min(1, { error: 'product_name_required' }).max(PRODUCT_NAME_MAX),
  description: text({ error: 'product_description_required' }).trim().min(1, { error: 'product_description_required' }).max(PRODUCT_DESCRIPTION_MAX),
  short_description: optionalText(PRODUCT_SHORT_DESCRIPTION_MAX),
  price,
  sale_price: salePrice,
  word_amount: wordAmount,
  is_subscription: z.boolean().optional(),
  subscription_period: z.enum(SUBSCRIPTION_PERIODS).nullish(),
  subscription_interval: count(365),
  expiration_days: count(36_500),
  free_trial_length: count(FREE_TRIAL_DAYS_MAX),
  free_trial_end: isoDate().nullish(),
  free_trial_words: z.number().int().min(0).max(PRODUCT_WORD_AMOUNT_MAX).nullish(),
  /** Purchases one user may make of it; null = no limit (enforced at checkout). */
  limit_per_user: count(1_000_000),
  /** Customers who may buy it in total; null = no limit (enforced at checkout). */
  user_limit: count(1_000_000),
  stripe_product_id: optionalStripeId(),
  stripe_price_id: optionalStripeId(),
  webhook_url: optionalUrl(isHttpUrl, 'product_webhook_url_invalid'),
  product_sku: optionalText(100),
  available: z.boolean().optional(),
  image: optionalUrl(isProductUrl, 'product_url_invalid'),
  thumbnail: optionalUrl(isProductUrl, 'product_url_invalid'),
  video_src: optionalUrl(isProductUrl, 'product_url_invalid'),
  /** The context of the request (the guard resolves it); a new product belongs to it. */
  organization_id: id().nullable().optional(),
};

/** The product fields the cross-field rules read, after defaults (null = not set). */
export interface ProductTerms {
  price: number;
  sale_price: number | null;
  is_subscription: boolean;
  subscription_period: string | null;
  subscription_interval: number | null;
  free_trial_length: number | null;
  free_trial_end: string | null;
  stripe_product_id: string | null;
  stripe_price_id: string | null;
}

/**
 * spec part 1 §4 "Enabling subscription sets period month and interval 1" (§9: the default subscription):
 * a subscription without them gets them.
 */
export function withSubscriptionDefaults<T extends Pick<ProductTerms, 'is_subscription' | 'subscription_period' | 'subscription_interval'>>(p: T): T {
  if (!p.is_subscription) return p;
  return { ...p, subscription_period: p.subscription_period ?? 'month', subscription_interval: p.subscription_interval ?? 1 };
}

/**
 * The rules that read more than one field (spec part 1 §5, server-facing), each with the field it names and
 * its message; empty when the product is valid. POST checks them in its schema, PUT on the product as it
 * would be after the change.
 */
export function productRuleIssues(input: ProductTerms): { field: keyof ProductTerms; message: MessageKey }[] {
  const p = withSubscriptionDefaults(input);
  const issues: { field: keyof ProductTerms; message: MessageKey }[] = [];
  if (p.sale_price != null && p.sale_price > p.price) issues.push({ field: 'sale_price', message: 'product_sale_price_invalid' });
  if (p.stripe_product_id && !p.stripe_price_id) issues.push({ field: 'stripe_price_id', message: 'product_stripe_price_required' });
  if (p.stripe_price_id && p.subscription_interval == null) issues.push({ field: 'subscription_interval', message: 'product_subscription_interval_required' });
  if (p.stripe_price_id && !p.subscription_period) issues.push({ field: 'subscription_period', message: 'product_subscription_period_required' });
  if (p.free_trial_length != null && p.free_trial_end != null) issues.push({ field: 'free_trial_end', message: 'product_trial_conflict' });
  return issues;
}

/** POST /products: a new product (word_amount null = unlimited must be said, not left out). */
export const createProductRequest = z.object(productFields).superRefine((body, ctx) => {
  const issues = productRuleIssues({
    price: body.price,
    sale_price: body.sale_price ?? null,
    is_subscription: body.is_subscription ?? false,
    subscription_period: body.subscription_period ?? null,
    subscription_interval: body.subscription_interval ?? null,
    free_trial_length: body.free_trial_length ?? null,
    free_trial_end: body.free_trial_end ?? null,
    stripe_product_id: body.stripe_product_id ?? null,
    stripe_price_id: body.stripe_price_id ?? null,
  });
  for (const issue of issues) ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
});
export type CreateProductRequest = z.infer<typeof createProductRequest>;

/** PUT /products: the product named by product_id; fields left out stay as they are. */
export const updateProductRequest = z.object({ product_id: id(), ...z.object(productFields).partial().shape });
export type UpdateProductRequest = z.infer<typeof updateProductRequest>;

const sortDirection = z.enum(['asc', 'desc', 'ASC', 'DESC']).transform((v) => v.toLowerCase() as 'asc' | 'desc');

/** GET /products (spec part 1 §7: query, page, sort, direction, organization_id). */
export const listProductsQuery = z.object({
  query: text().trim().max(200).optional(),
  /** 1-based. */
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(PRODUCTS_MAX_PAGE_SIZE).default(PRODUCTS_PAGE_SIZE),
  /** Default: name ascending (spec part 1 §2 "Products list"). */
  sort: z.enum(PRODUCT_SORT_KEYS).default('name'),
  direction: sortDirection.default('asc'),
  organization_id: idParam().optional(),
});
export type ListProductsQuery = z.infer<typeof listProductsQuery>;

/** A product as the people who manage it see it: every field of spec part 1 §3 Product. */
export const managedProduct = availableProduct.extend({
  free_trial_period: z.enum(FREE_TRIAL_PERIODS).nullable(),
  free_trial_end: z.string().nullable(),
  free_trial_words: z.number().nullable(),
  limit_per_user: z.number().nullable(),
  user_limit: z.number().nullable(),
  stripe_product_id: z.string().nullable(),
  stripe_price_id: z.string().nullable(),
  webhook_url: z.string().nullable(),
  product_sku: z.string().nullable(),
  available: z.boolean(),
  thumbnail: z.string().nullable(),
  video_src: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ManagedProduct = z.infer<typeof managedProduct>;

/** GET /products/{id}: every field for those who may update it, the customer's view for everyone else. */
export const productResponse = z.union([managedProduct, availableProduct]);

export const productList = z.object({ products: z.array(managedProduct), total: z.number() });
export type ProductList = z.infer<typeof productList>;

/** Error ids of a refused purchase (spec part 1 §8: "Purchase 412", "Purchase 409"). */
export const PurchaseErrorIds = {
  /** 412: off sale, or sold to as many customers as it may be. */
  productUnavailable: 'product_unavailable',
  /** 409: this customer bought it as many times as one may. */
  limitReached: 'purchase_limit_reached',
} as const;
