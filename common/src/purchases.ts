// Admin access grants (spec part 1 §4 "Give access", §7 POST /users/giveAccess, PUT /users/revokeAccess).
import { z } from 'zod';
import { id } from './schema-kit';

export const giveAccessRequest = z.object({
  user_id: id(),
  product_id: id(),
  /**
   * Defaults to the product's expiration_days; null follows the product's subscription terms. With
   * `purchase_id` (extend) it is the number of days added to that purchase's access.
   */
  expiration_days: z.number().int().min(1).max(36500).nullable().optional(),
  /** A gift is free: the total is 0 and no payment method is recorded. */
  gift: z.boolean().default(false),
  total: z.number().min(0).max(1_000_000).optional(),
  payment_method_id: id().nullable().optional(),
});
export type GiveAccessRequest = z.infer<typeof giveAccessRequest>;

/**
 * "Extend access" (spec part 1 §6, §7 POST /users/giveAccess "extend access"): the same call naming one of
 * the customer's purchases and the days to add, instead of a product.
 */
export const extendAccessRequest = z.object({
  user_id: id(),
  purchase_id: id(),
  expiration_days: z.number({ error: 'invalid_expiration_days' }).int({ error: 'invalid_expiration_days' }).min(1, { error: 'invalid_expiration_days' }).max(36500, { error: 'invalid_expiration_days' }),
});
export type ExtendAccessRequest = z.infer<typeof extendAccessRequest>;

/** POST /users/giveAccess: extend when the body names a purchase, else grant a product. */
export const giveOrExtendAccessRequest = z.union([extendAccessRequest.strict(), giveAccessRequest]);
export type GiveOrExtendAccessRequest = z.infer<typeof giveOrExtendAccessRequest>;

export const revokeAccessRequest = z.object({ purchase_id: id() });

/** Staff's access grants (docs/decisions.md "Staff rights"): managers give and extend, admins revoke. */
export const ACCESS_GRANT_ACTIONS = ['give', 'extend', 'revoke'] as const;
export type AccessGrantAction = (typeof ACCESS_GRANT_ACTIONS)[number];

export const purchaseRecord = z.object({
  purchase_id: z.number(),
  user_id: z.number(),
  product_id: z.number().nullable(),
  status: z.string(),
  amount: z.number(),
  total_payment: z.number(),
  is_gift: z.boolean(),
  expiration_days: z.number().nullable(),
  payment_method_id: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PurchaseRecord = z.infer<typeof purchaseRecord>;
