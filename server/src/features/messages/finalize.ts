// Finalizing an answer: its last UPDATE and its word charge happen in one transaction, once
// (DESIGN.md §6). Only a message still pending or streaming can be finalized, so a repeated or concurrent
// finalize finds nothing to do; the ledger's unique source is the second guard.
import { countWords } from '@pluma/common/rules/token-estimate';
import { and, eq, inArray, like, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { creditLedger, messages } from '../../db/schema';
import { chargeWords } from '../credits/ledger';
import type { MessageRow } from './present';

export const ACTIVE_STATUSES = ['pending', 'streaming'] as const;

export interface FinalizeInput {
  messageId: number;
  status: 'done' | 'failed' | 'interrupted';
  finishReason: string;
  errorCode?: string | null;
  /** The whole final text; omitted keeps what was saved (null becomes ''). */
  content?: string;
  /** Words to charge; omitted charges the words of the content not charged before. */
  words?: number;
}

/**
 * The ledger source of the next charge of a message: `{id}` for its first answer, then
 * `{id}:continue:{n}` for each continuation (spec part 2 §4: Continue).
 */
async function nextChargeSource(tx: Tx, userId: number, messageId: number): Promise<string> {
  const [{ charges }] = await tx
    .select({ charges: sql<number>`count(*)::int` })
    .from(creditLedger)
    .where(
      and(
        eq(creditLedger.userId, userId),
        eq(creditLedger.sourceType, 'message'),
        or(eq(creditLedger.sourceId, String(messageId)), like(creditLedger.sourceId, `${messageId}:continue:%`)),
      ),
    );
  return Number(charges) === 0 ? String(messageId) : `${messageId}:continue:${Number(charges)}`;
}

/** Returns the finalized row, or null when the message was already final (or deleted). */
export async function finalizeMessage(ctx: AppContext, input: FinalizeInput): Promise<MessageRow | null> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(messages)
      .set({
        status: input.status,
        finishReason: input.finishReason,
        errorCode: input.errorCode ?? null,
        content: input.content ?? sql`coalesce(${messages.content}, '')`,
        updatedAt: new Date(),
      })
      .where(and(eq(messages.messageId, input.messageId), inArray(messages.status, [...ACTIVE_STATUSES])))
      .returning();
    if (!row) return null;
    const words = Math.max(0, input.words ?? countWords(row.content ?? '') - (row.wordsCharged ?? 0));
    // Never charged (words_charged null): the first answer's own source, without counting the ledger.
    const sourceId = row.wordsCharged === null ? String(row.messageId) : await nextChargeSource(tx, row.userId, row.messageId);
    const charge = await chargeWords(tx, { userId: row.userId, sourceType: 'message', sourceId, words });
    if (!charge.applied) return row;
    const [charged] = await tx
      .update(messages)
      .set({ wordsCharged: sql`coalesce(${messages.wordsCharged}, 0) + ${words}` })
      .where(eq(messages.messageId, row.messageId))
      .returning();
    return charged;
  });
}
