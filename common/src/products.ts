// Products as the pricing page and checkout see them (spec part 1 §2 "Pricing", §3 Product, §7
// GET /products/available and GET /products/{id}).
import { z } from 'zod';
import { idParam } from './schema-kit';

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
