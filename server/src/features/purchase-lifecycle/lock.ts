// A purchase's row, locked for the rest of the transaction: every lifecycle move starts here, so concurrent
// deliveries about one purchase take turns.
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { purchases } from '../../db/schema';
import type { PurchaseRow } from './types';

export async function lockPurchaseById(tx: Tx, purchaseId: number): Promise<PurchaseRow | undefined> {
  const [row] = await tx.select().from(purchases).where(eq(purchases.purchaseId, purchaseId)).for('update');
  return row;
}
