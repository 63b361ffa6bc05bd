// Finalizing an answer: its last UPDATE, its word charge and the release of its word hold happen at once,
// once (DESIGN.md §6; credits/holds.ts).
// Only a message still pending or streaming can be finalized, so a repeated or concurrent finalize finds
// nothing to do; the ledger's unique source is the second guard.
//
// It is ONE statement, not a transaction: as a transaction it took seven round trips, and on PGlite a
// transaction holds the database's only connection for all of them, so under load every other statement
// queued behind it (bench/chat-first-token.mjs: +207 ms at p50 with the transaction, +20 ms without).
// The statement keeps the transaction's guarantees: the answer's row and the user's row are locked
// (FOR UPDATE) before the balance is read, and the CTEs commit or fail together.
import { countWords } from '@pluma/common/rules/token-estimate';
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { messages } from '../../db/schema';
import { balanceSpent } from '../../platform/auth/invalidation';
import { chargeCtes } from '../credits';
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

const MESSAGE_COLUMNS = Object.entries(getTableColumns(messages));

/** A row of `returning messages.*` (column names, driver values) as drizzle's MessageRow. */
function toMessageRow(raw: Record<string, unknown>): MessageRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of MESSAGE_COLUMNS) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as MessageRow;
}

/** Words not charged yet, for a finalize that keeps the saved text (the interrupted sweep). */
async function unchargedWords(ctx: AppContext, messageId: number): Promise<number> {
  const [row] = await ctx.db.select({ content: messages.content, wordsCharged: messages.wordsCharged }).from(messages).where(eq(messages.messageId, messageId));
  return row ? countWords(row.content ?? '') - (row.wordsCharged ?? 0) : 0;
}

/** Returns the finalized row, or null when the message was already final (or deleted). */
export async function finalizeMessage(ctx: AppContext, input: FinalizeInput): Promise<MessageRow | null> {
  const words = Math.max(0, Math.floor(input.words ?? (await unchargedWords(ctx, input.messageId))));
  const active = sql.join(
    ACTIVE_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  // The charge is credits/ledger.ts's one rule (chargeCtes), and it settles the answer's hold
  // (credits/holds.ts): charged what it wrote, at most what it held, the rest of the hold released. The
  // source is `{id}` for an answer's first charge, then `{id}:continue:{n}` for each Continue (spec part 2 §4).
  const charge = chargeCtes({
    userId: sql`(select user_id from cur)`,
    words: sql`${words}::int`,
    sourceType: sql`'message'`,
    sourceId: sql`(
      select case when cur.words_charged is null then cur.message_id::text
        else cur.message_id::text || ':continue:' || (
          select count(*) from credit_ledger l
          where l.user_id = cur.user_id and l.source_type = 'message'
            and (l.source_id = cur.message_id::text or l.source_id like (cur.message_id::text || ':continue:%'))
        )::text end
      from cur
    )`,
    held: sql`(select sum(words)::int from released)`,
  });
  const result = await ctx.db.execute(sql`
    with cur as (
      select message_id, user_id, words_charged from messages
      where message_id = ${input.messageId} and status in (${active})
      for update
    ),
    released as (
      delete from credit_holds h using cur
      where h.source_type = 'message' and h.source_id = cur.message_id::text
      returning h.words
    ),
    ${charge.ctes}
    update messages set
      status = ${input.status},
      finish_reason = ${input.finishReason},
      error_code = ${input.errorCode ?? null}::text,
      content = coalesce(${input.content ?? null}::text, messages.content, ''),
      updated_at = now(),
      words_charged = case when exists (select 1 from charge_entry) then coalesce(messages.words_charged, 0) + ${charge.taken}
                           else messages.words_charged end
    from cur
    where messages.message_id = cur.message_id
    returning messages.*, (select words from charge_entry) as ledger_change
  `);
  const [raw] = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  if (!raw) return null;
  const row = toMessageRow(raw);
  // A charged balance shows in GET /api/users (platform/auth/invalidation.ts balanceSpent).
  if (raw.ledger_change !== null && Number(raw.ledger_change) !== 0) balanceSpent(row.userId);
  await removeAfterEnd(ctx, row);
  return row;
}

/**
 * POST /messages' saveOnConversation false and deleteUserMsg (issue 32 item 2; docs/decisions.md), applied
 * once the answer has ended and been charged (the ledger keeps its entry; only message rows go):
 * - a one-off answer (saveOnConversation false) and its prompt are removed whatever the end (done, stopped,
 *   failed, interrupted): the client has its text from the socket events;
 * - deleteUserMsg: the prompt's row is removed once the answer is done; the answer keeps its `prompt` text.
 * Costs nothing for other answers (both flags are on the returned row).
 */
async function removeAfterEnd(ctx: AppContext, row: MessageRow): Promise<void> {
  if (!row.saveOnConversation) {
    const ids = row.userMessageId === null ? [row.messageId] : [row.messageId, row.userMessageId];
    await ctx.db.delete(messages).where(and(inArray(messages.messageId, ids), eq(messages.userId, row.userId), eq(messages.saveOnConversation, false)));
  } else if (row.deleteUserMsg && row.status === 'done' && row.userMessageId !== null) {
    await ctx.db.delete(messages).where(and(eq(messages.messageId, row.userMessageId), eq(messages.userId, row.userId), eq(messages.role, 'user')));
  }
}
