// Products as the pricing page sees them (spec part 1 §2 "Pricing", §3 Product).
import { z } from 'zod';

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
});
export type AvailableProduct = z.infer<typeof availableProduct>;
export const availableProductsResponse = z.array(availableProduct);
