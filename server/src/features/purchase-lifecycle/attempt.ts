// A checkout's attempt: the pending purchase row every provider's checkout starts with (Stripe:
// features/payments/checkout.ts; PayPal: features/paypal/pending-purchase.ts), in the caller's transaction,
// after its buying-limit checks. Prices are the server's, in cents.
//
// One open attempt per customer and product (issue 28 item 2, "retrying payment reuses the open attempt";
// item 3, "ten concurrent clicks on Pay create one purchase"): under a per-(user, product) transaction lock,
// a pending purchase on the same terms (method, price, code) is returned again — the adapter then re-runs its
// provider calls with the same idempotency keys, so it gets the same PaymentIntent, subscription or order.
// An open attempt on other terms (another code, another method, a new price) is abandoned (expired) and a new
// one made: its checkout, if ever paid, is still honoured (machine.ts: expired → completed on paid).
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { paymentMethods, purchases } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { applyLifecycleEvent } from './apply';
import type { Effect, ProductRow, PurchaseRow } from './types';

export interface AttemptTerms {
  product: ProductRow;
  discountCode: string | null;
  baseCents: number;
  chargeCents: number;
  trialDays: number | null;
  method: 'card' | 'paypal';
}

export interface Attempt {
  purchase: PurchaseRow;
  /** true: the customer's open attempt on the same terms, returned again. */
  reused: boolean;
  /** An open attempt on other terms that this one replaced (its status change; run after the commit). */
  effects: Effect[];
}

/** `reuse: false`: a checkout that makes its own provider objects (a saved card's confirmed intent) always starts a new attempt. */
export async function openAttempt(tx: Tx, actor: Pick<Actor, 'user'>, terms: AttemptTerms, options: { reuse?: boolean } = {}): Promise<Attempt> {
  const { product } = terms;
  const userId = actor.user.userId;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`pluma:attempt:${userId}:${product.productId}`}))`);
  const [method] = await tx.select({ id: paymentMethods.paymentMethodId }).from(paymentMethods).where(eq(paymentMethods.name, terms.method)).limit(1);
  const methodId = method?.id ?? null;
  const [open] = await tx
    .select()
    .from(purchases)
    .where(and(eq(purchases.userId, userId), eq(purchases.productId, product.productId), eq(purchases.status, 'pending')))
    .orderBy(desc(purchases.purchaseId))
    .limit(1)
    .for('update');
  const effects: Effect[] = [];
  if (open) {
    const same =
      open.paymentMethodId === methodId &&
      open.totalPayment === terms.chargeCents / 100 &&
      open.amount === terms.baseCents / 100 &&
      (open.discountCode ?? null) === terms.discountCode &&
      open.organizationId === product.organizationId;
    if (same && options.reuse !== false) return { purchase: open, reused: true, effects };
    effects.push(...(await applyLifecycleEvent(tx, open, 'abandoned', { product })).effects);
  }
  const [row] = await tx
    .insert(purchases)
    .values({
      userId,
      productId: product.productId,
      status: 'pending',
      amount: terms.baseCents / 100,
      totalPayment: terms.chargeCents / 100,
      discountCode: terms.discountCode,
      expirationDays: product.isSubscription ? null : product.expirationDays,
      paymentMethodId: methodId,
      subscriptionInterval: product.isSubscription ? (product.subscriptionInterval ?? 1) : null,
      subscriptionPeriod: product.isSubscription ? (product.subscriptionPeriod ?? 'month') : null,
      freeTrialLength: terms.trialDays,
      // The product's organization (its sales count in that organization's analytics); policy.ts already
      // let only that organization's members buy it.
      organizationId: product.organizationId,
    })
    .returning();
  return { purchase: row, reused: false, effects };
}
