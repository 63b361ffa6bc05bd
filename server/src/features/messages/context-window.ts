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
    .select({
      messageId: messages.messageId,
      role: messages.role,
      content: sql<string | null>`coalesce(${messages.modelContent}, ${messages.content})`,
      // deleteUserMsg: the prompt's row is gone once the answer is done; its text, kept on the answer, stands in.
      removedPrompt: sql<string | null>`case when ${messages.deleteUserMsg} and ${messages.status} = 'done' then ${messages.prompt} end`,
    })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, sql.placeholder('conversationId')),
        eq(messages.userId, sql.placeholder('userId')),
        // A one-off answer (saveOnConversation false) and its prompt are never context.
        sql`${messages.saveOnConversation}`,
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
    const removedPrompt = row.role === 'assistant' ? row.removedPrompt : null;
    const cost = estimateTokens(row.content ?? '') + (removedPrompt ? estimateTokens(removedPrompt) : 0);
    if (used + cost > options.budget) break;
    used += cost;
    turns.push({ role: row.role === 'user' ? 'user' : 'assistant', content: row.content ?? '' });
    if (removedPrompt) turns.push({ role: 'user', content: removedPrompt });
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

// Prepared (prepared.ts): learnFromPrevResponse's read, the conversation's newest finished answer.
const previousAnswerQuery = preparedPerDatabase((db: Db) =>
  db
    .select({ messageId: messages.messageId, content: messages.content })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, sql.placeholder('conversationId')),
        eq(messages.userId, sql.placeholder('userId')),
        eq(messages.role, 'assistant'),
        eq(messages.status, 'done'),
        sql`${messages.saveOnConversation}`,
        isNotNull(messages.content),
        ne(messages.content, ''),
      ),
    )
    .orderBy(desc(messages.messageId))
    .limit(1)
    .prepare('context_previous_answer'),
);

export const REWORK_INSTRUCTION =
  'Your previous answer is between <previous_answer> tags. Rework it as the request after it asks (for example rewrite, shorten, translate or continue it) and reply with the new text only.';

/** The text's first characters that fit `tokens` (a rewrite needs the start of a long answer most). */
function headWithin(text: string, tokens: number): string {
  const chars = Math.max(0, tokens * 4);
  return text.length <= chars ? text : text.slice(0, chars);
}

/**
 * POST /messages learnFromPrevResponse (issue 32 item 2; docs/decisions.md): the conversation's previous
 * finished answer is given to the model as the text to rework, inside the new prompt with a short
 * instruction, so "make it shorter" works even when the token budget would have dropped it from the history.
 * The previous answer is taken out of the history (it is not sent twice); the history gets what is left of
 * the 7500-token budget. Without a previous answer: turnsForAnswer.
 */
export async function turnsForRework(db: Db, options: { conversationId: number; userId: number; prompt: string }): Promise<ChatTurn[]> {
  const [previous] = await previousAnswerQuery(db).execute({ conversationId: options.conversationId, userId: options.userId });
  if (!previous?.content) return turnsForAnswer(db, options);
  const promptTokens = estimateTokens(options.prompt) + estimateTokens(REWORK_INSTRUCTION);
  const text = headWithin(previous.content, Math.max(0, MAX_CONVERSATION_TOKENS - promptTokens));
  const budget = MAX_CONVERSATION_TOKENS - promptTokens - estimateTokens(text);
  const history = await historyTurns(db, { conversationId: options.conversationId, userId: options.userId, budget, excludeIds: [previous.messageId] });
  return [...history, { role: 'user', content: `${REWORK_INSTRUCTION}\n\n<previous_answer>\n${text}\n</previous_answer>\n\n${options.prompt}` }];
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
