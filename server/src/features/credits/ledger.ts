// Words move only through the credit ledger, once per cause (DESIGN.md §6): each entry has a unique
// (source_type, source_id), so a repeated or concurrent charge or grant is a no-op, never a double.
// Call these inside the transaction of the event that causes them (message finalized, purchase paid).
import { UNLIMITED_WORDS } from '@pluma/common/constants';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { creditLedger, users } from '../../db/schema';
import { invalidateUser } from '../../platform/auth/invalidation';

export interface LedgerSource {
  userId: number;
  /** e.g. 'message', 'enhance', 'purchase', 'admin'. */
  sourceType: string;
  /** Unique within the source type, e.g. the message id, or `${id}:continue:${n}`. */
  sourceId: string;
}

export interface LedgerResult {
  /** False when this source was already recorded (nothing changed). */
  applied: boolean;
  /** The user's balance after this entry (or now, when not applied). */
  balanceAfter: number;
  /** The change actually made to available_words (negative for a charge). */
  change: number;
}

type Executor = Tx | Db;

/** Locks the user's row for the rest of the transaction, so balance reads and writes do not interleave. */
async function lockedBalance(tx: Executor, userId: number): Promise<number | null> {
  const [row] = await tx.select({ words: users.availableWords }).from(users).where(eq(users.userId, userId)).for('update');
  return row ? row.words : null;
}

/**
 * Writes a new balance. Cached actors and GET /api/users show it, so they are dropped
 * (platform/auth/invalidation.ts); an entry that changes nothing (an unlimited balance's answers) drops
 * nothing, or every answer would cost its user the auth cache for a while. A caller that changes more
 * than the balance (a purchase) announces that change itself (purchases/access-service.ts does).
 */
async function changeBalance(tx: Executor, userId: number, balanceAfter: number): Promise<void> {
  await tx.update(users).set({ availableWords: balanceAfter }).where(eq(users.userId, userId));
  invalidateUser(userId);
}

/** Claims the source; returns false when an entry for it exists already. */
async function claimSource(tx: Executor, source: LedgerSource, words: number, balanceAfter: number): Promise<boolean> {
  const inserted = await tx
    .insert(creditLedger)
    .values({ userId: source.userId, words, balanceAfter, sourceType: source.sourceType, sourceId: source.sourceId })
    .onConflictDoNothing({ target: [creditLedger.sourceType, creditLedger.sourceId] })
    .returning({ entryId: creditLedger.entryId });
  return inserted.length > 0;
}

/**
 * Charges `words` used by one cause. Unlimited balances (1000000) are never decremented (a 0-word entry
 * still records the use); other balances go down but never below 0 (spec part 1 §9).
 */
export async function chargeWords(tx: Executor, options: LedgerSource & { words: number }): Promise<LedgerResult> {
  const words = Math.max(0, Math.floor(options.words));
  const balance = await lockedBalance(tx, options.userId);
  if (balance === null) return { applied: false, balanceAfter: 0, change: 0 };
  const unlimited = balance >= UNLIMITED_WORDS;
  const balanceAfter = unlimited ? balance : Math.max(0, balance - words);
  const change = balanceAfter - balance;
  if (!(await claimSource(tx, options, change, balanceAfter))) return { applied: false, balanceAfter: balance, change: 0 };
  if (change !== 0) await changeBalance(tx, options.userId, balanceAfter);
  return { applied: true, balanceAfter, change };
}

/**
 * Grants words (a purchase, an admin extension). 'unlimited' sets the balance to 1000000; a finite grant
 * stops just below it so that adding words never turns a balance into "unlimited" by accident.
 */
export async function grantWords(tx: Executor, options: LedgerSource & { words: number | 'unlimited' }): Promise<LedgerResult> {
  const balance = await lockedBalance(tx, options.userId);
  if (balance === null) return { applied: false, balanceAfter: 0, change: 0 };
  let balanceAfter: number;
  if (options.words === 'unlimited' || balance >= UNLIMITED_WORDS) balanceAfter = UNLIMITED_WORDS;
  else balanceAfter = Math.min(UNLIMITED_WORDS - 1, balance + Math.max(0, Math.floor(options.words)));
  const change = balanceAfter - balance;
  if (!(await claimSource(tx, options, change, balanceAfter))) return { applied: false, balanceAfter: balance, change: 0 };
  if (change !== 0) await changeBalance(tx, options.userId, balanceAfter);
  return { applied: true, balanceAfter, change };
}
