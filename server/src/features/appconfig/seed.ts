// Defaults written at boot (DESIGN.md §5): every configuration key, and the payment methods.
import { CONFIG_KEYS } from '@pluma/common/appconfig';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { appConfig, paymentMethods } from '../../db/schema';

/** Names of the payment methods a fresh install offers (GET /api/payment_method; spec part 1 §3). */
export const DEFAULT_PAYMENT_METHODS = ['card', 'paypal', 'manual'] as const;

/** Inserts each missing key with its default; never overwrites what an admin saved. Safe to run on every boot. */
export async function seedAppConfig(ctx: AppContext): Promise<void> {
  // Secret defaults are empty: nothing to encrypt until an admin sets a value.
  const rows = Object.entries(CONFIG_KEYS).map(([key, def]) => ({ key, value: def.default, encrypted: false }));
  await ctx.db.insert(appConfig).values(rows).onConflictDoNothing({ target: appConfig.key });
}

/** Fills payment_methods when it is empty. Several nodes may boot at once, so the check runs under a lock. */
export async function seedPaymentMethods(ctx: AppContext): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('pluma:seed:payment_methods'))`);
    const [{ count }] = await tx.select({ count: sql<number>`count(*)::int` }).from(paymentMethods);
    if (Number(count) > 0) return;
    await tx.insert(paymentMethods).values(DEFAULT_PAYMENT_METHODS.map((name) => ({ name })));
  });
}
