// Words move only through the credit ledger, once per cause (DESIGN.md §6): each entry has a unique
// (source_type, source_id), so a repeated or concurrent charge or grant is a no-op, never a double.
// Call these inside the transaction of the event that causes them (purchase paid), or use the charge's
// CTEs in the event's own statement (chargeCtes; a message finalized). chargeWords() is one statement.
import { UNLIMITED_WORDS } from '@pluma/common/constants';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { creditLedger, users } from '../../db/schema';
import { balanceSpent, invalidateUser } from '../../platform/auth/invalidation';

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
 * The one word-charge rule, as CTEs for one statement (credits/ledger.ts chargeWords() and
 * messages/finalize.ts both use it): `charge_user` locks the user's row, `charge_entry` records the entry
 * once per source, `charge_balance` writes the balance and releases the words held for the cause.
 * An unlimited balance (1000000) is never decremented (a 0-word entry still records the use); others go
 * down but never below 0 (spec part 1 §9). A cause that held words is charged at most its hold.
 * `held` is the words held for this cause (null: none) and may read a CTE defined before these.
 * `taken` is the words the charge took (after the floor at 0; an unlimited balance takes all it is
 * charged), or null when the source was charged already.
 */
export function chargeCtes(p: { userId: SQL; words: SQL; sourceType: SQL; sourceId: SQL; held: SQL }): { ctes: SQL; taken: SQL } {
  const unlimited = sql.raw(String(UNLIMITED_WORDS));
  const words = sql`least(${p.words}, coalesce(${p.held}, ${p.words}))`;
  const release = sql`coalesce(${p.held}, 0)`;
  const ctes = sql`charge_user as (
      select user_id, available_words from users where user_id = ${p.userId} for update
    ),
    charge_entry as (
      insert into credit_ledger (user_id, words, balance_after, source_type, source_id)
      select user_id,
        case when available_words >= ${unlimited} then 0 else greatest(0, available_words - ${words}) - available_words end,
        case when available_words >= ${unlimited} then available_words else greatest(0, available_words - ${words}) end,
        ${p.sourceType}, ${p.sourceId}
      from charge_user
      on conflict (source_type, source_id) do nothing
      returning user_id, words, balance_after
    ),
    charge_balance as (
      update users set
        available_words = coalesce((select balance_after from charge_entry), users.available_words),
        held_words = greatest(0, users.held_words - ${release})
      from charge_user
      where users.user_id = charge_user.user_id and (exists (select 1 from charge_entry where words <> 0) or ${release} > 0)
      returning users.user_id
    )`;
  const taken = sql`(select case when balance_after >= ${unlimited} then ${words} else -words end from charge_entry)`;
  return { ctes, taken };
}

/**
 * Charges `words` used by one cause (chargeCtes above), in one statement, and releases the words held
 * for the same cause (credits/holds.ts).
 */
export async function chargeWords(tx: Executor, options: LedgerSource & { words: number }): Promise<LedgerResult> {
  const words = Math.max(0, Math.floor(options.words));
  const charge = chargeCtes({
    userId: sql`${options.userId}::int`,
    words: sql`${words}::int`,
    sourceType: sql`${options.sourceType}::text`,
    sourceId: sql`${options.sourceId}::text`,
    held: sql`(select sum(words)::int from released)`,
  });
  const result = await tx.execute(sql`
    with released as (
      delete from credit_holds
      where source_type = ${options.sourceType} and source_id = ${options.sourceId} and user_id = ${options.userId}
      returning words
    ),
    ${charge.ctes}
    select (select words from charge_entry) as change, (select balance_after from charge_entry) as balance_after,
      (select available_words from charge_user) as balance
  `);
  const [row] = (result as unknown as { rows: { change: number | null; balance_after: number | null; balance: number | null }[] }).rows;
  if (!row || row.balance === null) return { applied: false, balanceAfter: 0, change: 0 };
  if (row.change === null || row.balance_after === null) return { applied: false, balanceAfter: Number(row.balance), change: 0 };
  const change = Number(row.change);
  // A charged balance shows in GET /api/users (platform/auth/invalidation.ts balanceSpent).
  if (change !== 0) balanceSpent(options.userId);
  return { applied: true, balanceAfter: Number(row.balance_after), change };
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
