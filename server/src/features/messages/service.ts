// Message operations (spec part 2 §4 Chat, §5 prompt rules, §7 Messages). Every id is checked against
// the actor: the conversation, and a message_id must be the actor's and in that conversation.
import { MAX_CONVERSATION_TOKENS } from '@pluma/common/constants';
import { ErrorIds } from '@pluma/common/errors';
import type { CreateMessageResponse, Message, MessagePage } from '@pluma/common/messages-api';
import { estimateTokens } from '@pluma/common/rules/token-estimate';
import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { conversations, messages } from '../../db/schema';
import type { Actor, UserRow } from '../../platform/auth/guard';
import { AppError, badRequest, notFound } from '../../platform/http/errors';
import { assertCanGenerate } from '../credits/access';
import { assertOfferedModel } from '../conversations/model-check';
import { ownConversations, type ConversationRow } from '../conversations/policy';
import { turnsForAnswer, turnsForContinue } from './context-window';
import { startEnhancement } from './enhance';
import { ACTIVE_STATUSES } from './finalize';
import { startGeneration, type GenerationLog } from './generation';
import { requireConversationToAnswer, requireOwnMessage } from './policy';
import { presentMessage, type MessageRow } from './present';
import { abortMessageGeneration } from './registry';
import { savePromptAndPendingAnswer } from './save-prompt';

export interface CreateMessageInput {
  content?: string;
  conversation_id: number;
  model?: string | null;
  message_type_id?: number;
  stream: boolean;
  enhance: boolean;
  message_id?: number;
  favorite?: boolean;
}

export type CreateMessageOutcome =
  | { kind: 'created'; body: CreateMessageResponse }
  | { kind: 'continued'; body: CreateMessageResponse }
  | { kind: 'enhancing'; body: { enhance_id: string; conversation_id: number } };

const conflict = (key: 'message_busy' | 'message_not_continuable') => new AppError(409, ErrorIds.conflict, key);

/** spec part 2 §5 and §9: the token estimate (characters ÷ 4, rounded) may not exceed 7500. */
export function assertPromptWithinLimit(content: string): void {
  const tokens = estimateTokens(content);
  if (tokens > MAX_CONVERSATION_TOKENS) {
    throw badRequest('message_prompt_too_long', { content: 'message_prompt_too_long' }, { tokens: String(tokens), max: String(MAX_CONVERSATION_TOKENS) });
  }
}

/** The model to use: the request's, else the conversation's, else null (the default). Unknown → 400. */
async function resolveModel(ctx: AppContext, requested: string | null | undefined, conversation: ConversationRow): Promise<string | null> {
  if (!ctx.services.ai) throw new AppError(503, ErrorIds.provider, 'ai_unavailable');
  await assertOfferedModel(ctx, requested);
  return requested ?? conversation.model ?? null;
}

/**
 * The fixed cost before the provider call is kept to a few statements (bench/chat-first-token.mjs): the
 * actor comes from the auth cache with its staff role and words; conversation and purchases are one read,
 * the context another (alongside it), the prompt and pending answer one write; provider settings are cached.
 */
export async function createMessage(ctx: AppContext, actor: Actor, input: CreateMessageInput, log: GenerationLog): Promise<CreateMessageOutcome> {
  const userId = actor.user.userId;
  const content = input.content ?? '';
  const newAnswer = input.message_id === undefined && !input.enhance;
  const [gate, newAnswerTurns] = await Promise.all([
    requireConversationToAnswer(ctx.db, actor, input.conversation_id),
    // A new answer's context is the conversation as it is before its prompt is saved, so it is read
    // alongside the gate (in parallel on PostgreSQL's pool). Scoped by the actor: nothing of another
    // user's conversation is read, and a 404 from the gate discards it.
    newAnswer ? turnsForAnswer(ctx.db, { conversationId: input.conversation_id, userId, prompt: content }) : [],
  ]);
  const { conversation } = gate;
  const target = input.message_id === undefined ? null : await requireOwnMessage(ctx.db, userId, input.message_id, conversation.conversationId);
  assertCanGenerate(actor, gate.purchases);
  if (!target) assertPromptWithinLimit(content);
  const model = await resolveModel(ctx, input.model, conversation);

  if (input.enhance) {
    const enhanceId = startEnhancement(ctx, { userId, conversationId: conversation.conversationId, model, prompt: content, log });
    return { kind: 'enhancing', body: { enhance_id: enhanceId, conversation_id: conversation.conversationId } };
  }
  if (target) return answerAgain(ctx, actor.user, conversation, target, { model: input.model ? model : (target.model ?? model), stream: input.stream, log });

  const { user, assistant } = await savePromptAndPendingAnswer(ctx.db, {
    conversationId: conversation.conversationId,
    userId,
    content,
    model,
    messageTypeId: input.message_type_id ?? 1,
    avatarId: conversation.avatarId,
    organizationId: conversation.organizationId,
    favorite: input.favorite ?? false,
  });
  // The provider request goes out now, before the response is built (DESIGN.md §4: the row exists first).
  startGeneration(ctx, { userId, conversationId: conversation.conversationId, messageId: assistant.messageId, model, turns: newAnswerTurns, prefix: '', stream: input.stream, log });
  return { kind: 'created', body: { user_message: presentMessage(user), assistant_message: presentMessage(assistant) } };
}

/**
 * message_id given: an answer cut off at the length limit is continued (new text appended, only the new
 * words charged); any other finished answer is regenerated as a new answer to the same prompt.
 */
async function answerAgain(
  ctx: AppContext,
  actor: UserRow,
  conversation: ConversationRow,
  target: MessageRow,
  options: { model: string | null; stream: boolean; log: GenerationLog },
): Promise<CreateMessageOutcome> {
  if (target.role !== 'assistant') throw conflict('message_not_continuable');
  if ((ACTIVE_STATUSES as readonly string[]).includes(target.status)) throw conflict('message_busy');
  const prompt = target.prompt ?? (await promptOf(ctx, target)) ?? '';
  const base = { userId: actor.userId, conversationId: conversation.conversationId, stream: options.stream, log: options.log };

  if (target.finishReason === 'length' && target.status === 'done') {
    // Claimed atomically: of two concurrent Continue clicks, one continues and the other gets 409.
    const [claimed] = await ctx.db
      .update(messages)
      .set({ status: 'pending', finishReason: null, updatedAt: new Date() })
      .where(and(eq(messages.messageId, target.messageId), eq(messages.status, 'done'), eq(messages.finishReason, 'length')))
      .returning();
    if (!claimed) throw conflict('message_busy');
    const partial = claimed.content ?? '';
    const turns = await turnsForContinue(ctx.db, {
      conversationId: conversation.conversationId,
      userId: actor.userId,
      answerMessageId: claimed.messageId,
      userMessageId: claimed.userMessageId,
      prompt,
      partial,
    });
    startGeneration(ctx, { ...base, messageId: claimed.messageId, model: claimed.model ?? options.model, turns, prefix: partial });
    return { kind: 'continued', body: { user_message: null, assistant_message: presentMessage(claimed) } };
  }

  // The context ends before the prompt, so it does not depend on this insert: both at once.
  const [[assistant], turns] = await Promise.all([
    ctx.db
      .insert(messages)
      .values({
        conversationId: conversation.conversationId,
        userId: actor.userId,
        role: 'assistant',
        content: null,
        prompt,
        model: options.model,
        status: 'pending',
        messageTypeId: target.messageTypeId,
        userMessageId: target.userMessageId,
        avatarId: conversation.avatarId,
        organizationId: conversation.organizationId,
      })
      .returning(),
    turnsForAnswer(ctx.db, {
      conversationId: conversation.conversationId,
      userId: actor.userId,
      userMessageId: target.userMessageId ?? target.messageId,
      prompt,
    }),
  ]);
  startGeneration(ctx, { ...base, messageId: assistant.messageId, model: options.model, turns, prefix: '' });
  return { kind: 'created', body: { user_message: null, assistant_message: presentMessage(assistant) } };
}

async function promptOf(ctx: AppContext, answer: MessageRow): Promise<string | null> {
  if (!answer.userMessageId) return null;
  const [row] = await ctx.db
    .select({ content: messages.content })
    .from(messages)
    .where(and(eq(messages.messageId, answer.userMessageId), eq(messages.userId, answer.userId)))
    .limit(1);
  return row?.content ?? null;
}

/**
 * Newest first; `cursor` is a message_id and returns the messages before it (DESIGN.md §6: cursor paging).
 * No total: counting the whole conversation made a 2,000-message history slower to open than a short one
 * (bench/chat-history-page.mjs); the web counts what it has loaded once no older page is left. The page is
 * read alongside the ownership check, scoped by the actor, so a 404 leaves nothing of anyone else's behind.
 */
export async function listMessages(ctx: AppContext, actor: UserRow, conversationId: number, q: { cursor?: number; limit: number }): Promise<MessagePage> {
  const scope = and(eq(messages.conversationId, conversationId), eq(messages.userId, actor.userId));
  const [owned, rows] = await Promise.all([
    ctx.db
      .select({ conversationId: conversations.conversationId })
      .from(conversations)
      .where(and(ownConversations(actor.userId), eq(conversations.conversationId, conversationId))),
    ctx.db
      .select()
      .from(messages)
      .where(q.cursor ? and(scope, lt(messages.messageId, q.cursor)) : scope)
      .orderBy(desc(messages.messageId))
      .limit(q.limit + 1),
  ]);
  if (owned.length === 0) throw notFound();
  const page = rows.slice(0, q.limit);
  return {
    messages: page.map(presentMessage),
    next_cursor: rows.length > q.limit ? page[page.length - 1].messageId : null,
  };
}

export async function updateMessage(ctx: AppContext, actor: UserRow, input: { message_id: number; content?: string; favorite?: boolean }): Promise<Message> {
  const current = await requireOwnMessage(ctx.db, actor.userId, input.message_id);
  const changes: Partial<typeof messages.$inferInsert> = { updatedAt: new Date() };
  if (input.favorite !== undefined) changes.favorite = input.favorite;
  if (input.content !== undefined) {
    // The text of an answer being written belongs to its generation until it ends.
    if ((ACTIVE_STATUSES as readonly string[]).includes(current.status)) throw conflict('message_busy');
    changes.content = input.content;
  }
  const conditions = [eq(messages.messageId, current.messageId), eq(messages.userId, actor.userId)];
  if (input.content !== undefined) conditions.push(inArray(messages.status, ['done', 'failed', 'interrupted']));
  const [row] = await ctx.db
    .update(messages)
    .set(changes)
    .where(and(...conditions))
    .returning();
  if (!row) throw conflict('message_busy');
  return presentMessage(row);
}

export async function deleteMessage(ctx: AppContext, actor: UserRow, messageId: number): Promise<void> {
  const row = await requireOwnMessage(ctx.db, actor.userId, messageId);
  // A running answer stops first (it saves as interrupted), then the row goes.
  await abortMessageGeneration(ctx, row.messageId);
  await ctx.db.delete(messages).where(and(eq(messages.messageId, row.messageId), eq(messages.userId, actor.userId)));
}
