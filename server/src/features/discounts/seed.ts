// The demo discount code, seeded with the sample products on a fresh installation (products/seed.ts): 10 %
// off the sample Starter plan. It is switched on only outside production (npm run dev, tests, the offline
// demo), so a production server never starts with a code anyone could guess; an admin switches it on
// there (PUT /api/discounts/admin) or deletes it. docs/decisions.md "Discount codes".
import type { Db } from '../../db/client';
import { discounts } from '../../db/schema';

export const DEMO_DISCOUNT_CODE = 'WELCOME10';

export async function seedDemoDiscount(db: Db, options: { productId: number; active: boolean }): Promise<void> {
  await db
    .insert(discounts)
    .values({ code: DEMO_DISCOUNT_CODE, isPercent: true, amount: 10, productId: options.productId, active: options.active })
    .onConflictDoNothing();
}
