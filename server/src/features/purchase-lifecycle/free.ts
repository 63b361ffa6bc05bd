// A one-time purchase with nothing to pay (a 100 % discount), whichever the provider: paid at once
// (machine.ts 'paid', the limits and the code's one use checked like any payment), with a $0 invoice.
import type { Tx } from '../../db/client';
import { applyLifecycleEvent } from './apply';
import { productOf, recordInvoice } from './grant';
import { lockPurchaseById } from './lock';
import type { Effect } from './types';

export async function completeFreePurchase(tx: Tx, purchaseId: number): Promise<Effect[]> {
  const purchase = await lockPurchaseById(tx, purchaseId);
  if (!purchase || purchase.status !== 'pending' || purchase.totalPayment !== 0) return [];
  const product = await productOf(tx, purchase);
  const applied = await applyLifecycleEvent(tx, purchase, 'paid', { product, payment: null });
  if (applied.to === 'completed') await recordInvoice(tx, applied.purchase, { orderId: `free-${purchaseId}`, amount: 0, status: 'completed', expirationDate: null });
  return applied.effects;
}
