// A fresh installation offers two sample plans so the pricing page and "give access" work from the start.
// Only when there are no products at all; staff edit or remove them later.
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { products } from '../../db/schema';

export async function seedProducts(ctx: AppContext) {
  const [{ count }] = await ctx.db.select({ count: sql<number>`count(*)::int` }).from(products);
  if (count > 0) return;
  await ctx.db.insert(products).values([
    {
      name: 'Starter',
      description: '50,000 words for 30 days: chat, templates and documents.',
      shortDescription: '50,000 words · 30 days',
      price: 19,
      wordAmount: 50_000,
      expirationDays: 30,
    },
    {
      name: 'Pro',
      description: 'Unlimited words, avatars and every tool, billed monthly.',
      shortDescription: 'Unlimited words · monthly',
      price: 49,
      wordAmount: null,
      isSubscription: true,
      subscriptionPeriod: 'month',
      subscriptionInterval: 1,
    },
  ]);
}
