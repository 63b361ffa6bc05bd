// What the model is sent: the conversation's recent messages, newest first until the 7500-token budget
// (spec part 2 §9) is spent, then put back oldest first. Reads a bounded number of rows, never the whole chat.
import { MAX_CONVERSATION_TOKENS } from '@pluma/common/constants';
import { estimateTokens } from '@pluma/common/rules/token-estimate';
import { and, desc, eq, inArray, isNotNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { messages } from '../../db/schema';
import type { ChatTurn } from '../../platform/ai/types';
import { preparedPerDatabase } from '../../db/prepared';

/** At most this many earlier messages are read; the token budget usually stops sooner. */
export const CONTEXT_MAX_MESSAGES = 40;
const MAX_MESSAGE_ID = 2_147_483_647;

// Prepared (prepared.ts): it runs before every answer's provider call.
const historyQuery = preparedPerDatabase((db: Db) =>
  db
    // A templated prompt's model text stands in for the label its message shows (templated-prompt.ts).
    .select({ messageId: messages.messageId, role: messages.role, content: sql<string | null>`coalesce(${messages.modelContent}, ${messages.content})` })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, sql.placeholder('conversationId')),
        eq(messages.userId, sql.placeholder('userId')),
        inArray(messages.status, ['done', 'failed', 'interrupted']),
        isNotNull(messages.content),
        ne(messages.content, ''),
        lt(messages.messageId, sql.placeholder('before')),
      ),
    )
    .orderBy(desc(messages.messageId))
    .limit(CONTEXT_MAX_MESSAGES)
    .prepare('context_history'),
);

export const CONTINUE_INSTRUCTION =
  'Continue your previous answer exactly where it stopped. Do not repeat what is already written and do not add a preface.';

/**
 * Earlier turns of a conversation (before `beforeMessageId` when given), newest that fit `budget` tokens,
 * oldest first. Unfinished and failed-empty answers are left out; `excludeIds` removes rows the caller
 * sends itself. Scoped by the owner (`userId`), so it may run before the ownership check has answered.
 */
export async function historyTurns(
  db: Db,
  options: { conversationId: number; userId: number; beforeMessageId?: number; budget: number; excludeIds?: number[] },
): Promise<ChatTurn[]> {
  if (options.budget <= 0) return [];
  const rows = await historyQuery(db).execute({
    conversationId: options.conversationId,
    userId: options.userId,
    // Before every message when no bound is given (message_id is an integer column).
    before: options.beforeMessageId ?? MAX_MESSAGE_ID,
  });
  const turns: ChatTurn[] = [];
  let used = 0;
  for (const row of rows) {
    if (options.excludeIds?.includes(row.messageId)) continue;
    const cost = estimateTokens(row.content ?? '');
    if (used + cost > options.budget) break;
    used += cost;
    turns.push({ role: row.role === 'user' ? 'user' : 'assistant', content: row.content ?? '' });
  }
  turns.reverse();
  // Some providers refuse a conversation that opens with the assistant; a cut history may start there.
  while (turns[0]?.role === 'assistant') turns.shift();
  return turns;
}

/**
 * Turns for a new answer to `prompt`: the history before its user message `userMessageId`, or, for a
 * prompt not saved yet (read alongside its insert), the history as it is now.
 */
export async function turnsForAnswer(
  db: Db,
  options: { conversationId: number; userId: number; userMessageId?: number; prompt: string },
): Promise<ChatTurn[]> {
  const budget = MAX_CONVERSATION_TOKENS - estimateTokens(options.prompt);
  const history = await historyTurns(db, { conversationId: options.conversationId, userId: options.userId, beforeMessageId: options.userMessageId, budget });
  return [...history, { role: 'user', content: options.prompt }];
}

/** The text's last characters that fit `tokens` (a long cut-off answer keeps its end, where it continues). */
function tailWithin(text: string, tokens: number): string {
  const chars = Math.max(0, tokens * 4);
  return text.length <= chars ? text : text.slice(text.length - chars);
}

/** Turns for continuing `partial`, the answer to `prompt` that stopped at the length limit. */
export async function turnsForContinue(
  db: Db,
  options: { conversationId: number; userId: number; answerMessageId: number; userMessageId: number | null; prompt: string; partial: string },
): Promise<ChatTurn[]> {
  const promptTokens = estimateTokens(options.prompt) + estimateTokens(CONTINUE_INSTRUCTION);
  const partial = tailWithin(options.partial, Math.max(0, MAX_CONVERSATION_TOKENS - promptTokens));
  const budget = MAX_CONVERSATION_TOKENS - promptTokens - estimateTokens(partial);
  const before = options.userMessageId ?? options.answerMessageId;
  const history = await historyTurns(db, { conversationId: options.conversationId, userId: options.userId, beforeMessageId: before, budget });
  return [
    ...history,
    { role: 'user', content: options.prompt },
    { role: 'assistant', content: partial },
    { role: 'user', content: CONTINUE_INSTRUCTION },
  ];
}
