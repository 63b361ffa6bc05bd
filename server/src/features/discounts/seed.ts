// The demo discount code, seeded with the sample products on a fresh installation (seedSampleCatalog): 10 %
// off the sample Starter plan. It is switched on only outside production (npm run dev, tests, the offline
// demo), so a production server never starts with a code anyone could guess; an admin switches it on
// there (PUT /api/discounts/admin) or deletes it. docs/decisions.md "Discount codes".
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { discounts } from '../../db/schema';
import { seedProducts } from '../products';

export const DEMO_DISCOUNT_CODE = 'WELCOME10';

export async function seedDemoDiscount(db: Db, options: { productId: number; active: boolean }): Promise<void> {
  await db
    .insert(discounts)
    .values({ code: DEMO_DISCOUNT_CODE, isPercent: true, amount: 10, productId: options.productId, active: options.active })
    .onConflictDoNothing();
}

/** The sample plans (products/seed.ts) and, when they were just seeded, the demo code for the Starter plan. */
export async function seedSampleCatalog(ctx: AppContext): Promise<void> {
  const starterId = await seedProducts(ctx);
  if (starterId != null) await seedDemoDiscount(ctx.db, { productId: starterId, active: ctx.env.NODE_ENV !== 'production' });
}
