// Message operations (spec part 2 §4 Chat, §5 prompt rules, §7 Messages). Every id is checked against
// the actor: the conversation, and a message_id must be the actor's and in that conversation.
import { MAX_CONVERSATION_TOKENS } from '@pluma/common/constants';
import { ErrorIds } from '@pluma/common/errors';
import { estimateTokens } from '@pluma/common/rules/token-estimate';
import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { conversations, messages } from '../../db/schema';
import type { Actor, UserRow } from '../../platform/auth/guard';
import { AppError, badRequest, notFound } from '../../platform/http/errors';
import { assertCanGenerate, holdRequest, releaseHold, reserveNewAnswer, reserveWords, type HoldRequest } from '../credits';
import { assertOfferedModel, conversationPolicy, type ConversationRow } from '../conversations';
import { avatarAnswerFor, isFineTunedModel, type AvatarAnswer } from './avatar-chat';
import { requireOwnFiles, saveMessageFiles } from './attachments';
import { turnsForAnswer, turnsForContinue, turnsForRework } from './context-window';
import { startEnhancement } from './enhance';
import { ACTIVE_STATUSES } from './finalize';
import { MAX_ANSWER_TOKENS, scopeCredentials, startAnswerEarly, startGeneration, type GenerationLog } from './generation';
import { CONTINUABLE_FINISH_REASONS, isContinuable, messagePolicy, requireConversationToAnswer, requireMessage, stateAllows } from './policy';
import type { MessageRow } from './present';
import { abortMessageGeneration } from '../../platform/ai/generation-registry';
import { savePromptAndPendingAnswer } from './save-prompt';
import { isTemplated, templatedPrompt } from './templated-prompt';
import { touchLastUsed } from '../users';
import { groundOnWeb } from '../web-search';

export interface CreateMessageInput {
  content?: string;
  conversation_id: number;
  model?: string | null;
  message_type_id?: number;
  stream: boolean;
  enhance: boolean;
  message_id?: number;
  /** With message_id: write the answer again instead of continuing it. */
  regenerate?: boolean;
  favorite?: boolean;
  /** spec part 2 §7: the avatar to answer as (avatar-chat.ts); null stops using one; absent → the conversation's. */
  avatar_id?: number | null;
  /** Files attached to the prompt (attachments.ts): the actor's own uploads. */
  file_ids?: number[];
  /** Instead of content: a template and its values, or a user workflow's step, filled server-side (templated-prompt.ts). */
  template_id?: number;
  values?: Record<string, string>;
  user_workflow_id?: number;
  /** spec part 2 §7: search the web first and cite the pages read (features/web-search). New answers only. */
  searchOnInternet?: boolean;
  /** spec part 2 §7: false = a one-off answer, removed with its prompt once it ends (finalize.ts). New answers only. */
  saveOnConversation?: boolean;
  /** spec part 2 §7: the prompt's row is removed once the answer is done (finalize.ts). New answers only. */
  deleteUserMsg?: boolean;
  /** spec part 2 §7: the previous finished answer is given as the text to rework (context-window.ts turnsForRework). */
  learnFromPrevResponse?: boolean;
}

/** Rows, presented by the route: a new answer (with its prompt), a continued one, or an enhancement started. */
export type CreateMessageOutcome =
  | { kind: 'created' | 'continued'; user: MessageRow | null; assistant: MessageRow }
  | { kind: 'enhancing'; enhanceId: string; conversationId: number };

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
  await assertOfferedModel(ctx, requested, conversation.organizationId);
  return requested ?? conversation.model ?? null;
}

/**
 * The fixed cost before the provider call is kept to a few statements (bench/chat-first-token.mjs): the
 * actor comes from the auth cache with its staff role and words; conversation and purchases are one read,
 * the context another (alongside it), the prompt and pending answer one write; provider settings are cached.
 */
export async function createMessage({ actor, ctx, input, log }: { actor: Actor; ctx: AppContext; input: CreateMessageInput; log: GenerationLog }): Promise<CreateMessageOutcome> {
  const userId = actor.user.userId;
  // A template or workflow step is filled here (templated-prompt.ts): the model gets `prompt`; the message
  // shows `content` (a label when the actor may not read the template's prompt). Plain text: both the same.
  const templated = isTemplated(input) ? await templatedPrompt({ actor, ctx, input }) : null;
  const content = templated?.content ?? input.content ?? '';
  const prompt = templated?.modelContent ?? content;
  const newAnswer = input.message_id === undefined && !input.enhance;
  // In an organization, its own AI key (when set) is looked up alongside the gate, so a cold cache costs the
  // answer no extra round trip (the generation reuses this read); Personal scope looks up nothing.
  if (actor.organization) scopeCredentials(ctx, actor.organization.organizationId).catch(() => undefined);
  const [gate, newAnswerTurns] = await Promise.all([
    requireConversationToAnswer(ctx.db, actor, input.conversation_id),
    // A new answer's context is the conversation as it is before its prompt is saved, so it is read
    // alongside the gate (in parallel on PostgreSQL's pool). Scoped by the actor: nothing of another
    // user's conversation is read, and a 404 from the gate discards it.
    newAnswer ? (input.learnFromPrevResponse ? turnsForRework : turnsForAnswer)(ctx.db, { conversationId: input.conversation_id, userId, prompt }) : [],
  ]);
  const { conversation } = gate;
  const target = input.message_id === undefined ? null : await requireMessage(ctx.db, actor, input.message_id, conversation.conversationId);
  assertCanGenerate(actor, gate.purchases);
  if (!target) assertPromptWithinLimit(prompt);
  const model = await resolveModel(ctx, input.model, conversation);
  // Every generation first holds the words of a whole answer, or what is left (credits/holds.ts).
  const hold = holdRequest(actor, ctx.env.AI_MAX_ANSWER_TOKENS);

  if (input.enhance) {
    const enhanceId = await startEnhancement(ctx, { userId, conversationId: conversation.conversationId, organizationId: conversation.organizationId, model, prompt: content, log, hold: holdRequest(actor, MAX_ANSWER_TOKENS) });
    return { kind: 'enhancing', enhanceId, conversationId: conversation.conversationId };
  }
  // Only a conversation or request with an avatar reads anything here (the send path stays as it was).
  // An answer written by a trained model is written again by the avatar's training of now, if any, else by
  // the conversation's model (a fine-tuned name is never sent to the app's providers).
  const answerModel = target && !input.model && !isFineTunedModel(target.model) ? (target.model ?? model) : model;
  const avatar = await avatarAnswerFor(ctx, { actor, conversation, requested: input.avatar_id, model: answerModel, prompt });
  // The actor's selected training of the avatar answers (avatar-chat.ts); its model is stored on the rows.
  const writingModel = avatar?.trained?.model ?? answerModel;
  if (target) {
    const outcome = await answerAgain(ctx, actor.user, conversation, target, { model: writingModel, stream: input.stream, regenerate: input.regenerate === true, log, hold, avatar });
    await touchLastUsed({ ctx, actor });
    return outcome;
  }

  // Attached files are the actor's own uploads (another user's id is a 404, before anything is saved).
  const fileIds = await requireOwnFiles(ctx.db, actor, input.file_ids ?? []);
  // A plain answer's provider request goes out while its rows are saved (early-answer.ts), once the gate
  // has passed and only when the answer's words can surely be held (else saving would refuse it).
  const plain = !input.searchOnInternet && !avatar && !conversation.hasAttachedFiles && fileIds.length === 0;
  const early = plain && ctx.services.ai && wordsLikelyHeld(actor, hold) ? startAnswerEarly(ctx, ctx.services.ai, { model: writingModel, organizationId: conversation.organizationId, turns: newAnswerTurns }) : undefined;
  const saved = await savePromptAndPendingAnswer(ctx.db, {
    conversationId: conversation.conversationId,
    userId,
    content,
    modelContent: templated?.modelContent ?? null,
    model: writingModel,
    messageTypeId: input.message_type_id ?? 1,
    avatarId: avatar?.avatar.avatarId ?? null,
    organizationId: conversation.organizationId,
    favorite: input.favorite ?? false,
    saveOnConversation: input.saveOnConversation ?? true,
    deleteUserMsg: input.deleteUserMsg ?? false,
    hold,
  }).catch((err: unknown) => {
    early?.cancel();
    throw err;
  });
  const { user, assistant, wordLimit } = saved;
  await saveMessageFiles(ctx.db, conversation.conversationId, user.messageId, fileIds);
  // The provider request goes out now, before the response is built (DESIGN.md §4: the row exists first).
  const job = { userId, conversationId: conversation.conversationId, organizationId: conversation.organizationId, messageId: assistant.messageId, model: writingModel, turns: newAnswerTurns, prefix: '', stream: input.stream, log, wordLimit, avatar, attachedFiles: conversation.hasAttachedFiles || fileIds.length > 0 };
  // searchOnInternet: the web is searched first (its steps stream as `web_search` events), then the answer
  // is written with the pages read; the request waits for neither, and a Stop during the search ends it.
  const ground = input.searchOnInternet
    ? (signal: AbortSignal) => groundOnWeb({ ctx, actor, signal, job: { conversationId: job.conversationId, messageId: job.messageId, prompt, turns: newAnswerTurns } })
    : undefined;
  startGeneration(ctx, { ...job, ground, early });
  // A real use of the app ("Last used", users/service.ts), noted once the provider request is out.
  await touchLastUsed({ ctx, actor });
  return { kind: 'created', user, assistant };
}

/**
 * The words of an answer can be held (credits/holds.ts): staff, or words left by the actor's (cached) row.
 * A stale cache only costs a cancelled provider request: the hold itself is decided when the rows are saved.
 */
function wordsLikelyHeld(actor: Actor, hold: HoldRequest): boolean {
  return hold.exempt || actor.user.availableWords - actor.user.heldWords > 0;
}

/**
 * message_id given: an answer cut off at the length limit, stopped by the user, or interrupted (a restart, a lost connection),
 * is continued (new text appended, only the new words charged) unless `regenerate` asks to write it again.
 * Written again, a failed or interrupted answer reuses its own row (one answer, not two); a finished
 * answer gets a new answer to the same prompt (docs/decisions.md).
 */
async function answerAgain(
  ctx: AppContext,
  actor: UserRow,
  conversation: ConversationRow,
  target: MessageRow,
  options: { model: string | null; stream: boolean; regenerate: boolean; log: GenerationLog; hold: HoldRequest; avatar: AvatarAnswer | null },
): Promise<CreateMessageOutcome> {
  if (target.role !== 'assistant') throw conflict('message_not_continuable');
  if ((ACTIVE_STATUSES as readonly string[]).includes(target.status)) throw conflict('message_busy');
  // The prompt as it is now: the user may have edited it since this answer was written. `shown` is what the
  // answer's `prompt` presents; `prompt` what the model is sent (a templated prompt's model text: templated-prompt.ts).
  const current = await promptOf(ctx, target);
  const shown = current?.shown ?? target.prompt ?? '';
  const prompt = current?.model ?? shown;
  const base = { userId: actor.userId, conversationId: conversation.conversationId, organizationId: conversation.organizationId, stream: options.stream, log: options.log, attachedFiles: conversation.hasAttachedFiles };
  // The avatar answers the prompt as it is now; a continuation keeps the citations it has.
  const avatarFor = (cite: boolean): AvatarAnswer | null => options.avatar && { ...options.avatar, prompt, cite };

  // An answer interrupted before its first word has nothing to continue from: it is written again.
  const continuable = isContinuable(target);
  if (continuable && !options.regenerate) {
    const wordLimit = await holdWordsFor(ctx, options.hold, target.messageId);
    // Claimed atomically: of two concurrent Continue clicks, one continues and the other gets 409.
    const [claimed] = await ctx.db
      .update(messages)
      .set({ status: 'pending', finishReason: null, updatedAt: new Date() })
      .where(
        and(
          eq(messages.messageId, target.messageId),
          or(and(eq(messages.status, 'done'), inArray(messages.finishReason, [...CONTINUABLE_FINISH_REASONS])), eq(messages.status, 'interrupted')),
        ),
      )
      .returning();
    if (!claimed) throw await releasedBusy(ctx, target.messageId);
    const partial = claimed.content ?? '';
    const turns = await turnsForContinue(ctx.db, {
      conversationId: conversation.conversationId,
      userId: actor.userId,
      answerMessageId: claimed.messageId,
      userMessageId: claimed.userMessageId,
      prompt,
      partial,
    });
    // Continued by the model that wrote it; a trained model no longer selected gives way to today's model.
    const continuing = isFineTunedModel(claimed.model) && claimed.model !== options.avatar?.trained?.model ? options.model : (claimed.model ?? options.model);
    startGeneration(ctx, { ...base, messageId: claimed.messageId, model: continuing, turns, prefix: partial, wordLimit, avatar: avatarFor(false) });
    return { kind: 'continued', user: null, assistant: claimed };
  }
  if (target.status === 'failed' || target.status === 'interrupted') return rewriteInPlace(ctx, actor, conversation, target, { shown, prompt }, { ...options, ...base, avatar: avatarFor(true) });

  // The new answer's id is drawn with its word hold (credits/holds.ts).
  const held = await reserveNewAnswer(ctx.db, options.hold);
  // The context ends before the prompt, so it does not depend on this insert: both at once.
  const [[assistant], turns] = await Promise.all([
    ctx.db
      .insert(messages)
      .values({
        messageId: held.messageId,
        conversationId: conversation.conversationId,
        userId: actor.userId,
        role: 'assistant',
        content: null,
        prompt: shown,
        model: options.model,
        status: 'pending',
        messageTypeId: target.messageTypeId,
        userMessageId: target.userMessageId,
        avatarId: options.avatar?.avatar.avatarId ?? null,
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
  startGeneration(ctx, { ...base, messageId: assistant.messageId, model: options.model, turns, prefix: '', wordLimit: held.limit, avatar: avatarFor(true) });
  return { kind: 'created', user: null, assistant };
}

/**
 * Retry of a failed or interrupted answer: the same row is claimed back to pending (atomically, like
 * Continue: a second click gets 409) with its text cleared, and written again from its prompt. The words
 * its earlier text was charged stay charged (docs/decisions.md); words_charged restarts from 0 so it counts
 * the new text, and the next charge gets its own ledger source (`{id}:continue:{n}`).
 */
async function rewriteInPlace(
  ctx: AppContext,
  actor: UserRow,
  conversation: ConversationRow,
  target: MessageRow,
  { shown, prompt }: { shown: string; prompt: string },
  options: { model: string | null; stream: boolean; log: GenerationLog; userId: number; conversationId: number; organizationId: number | null; hold: HoldRequest; avatar: AvatarAnswer | null },
): Promise<CreateMessageOutcome> {
  const wordLimit = await holdWordsFor(ctx, options.hold, target.messageId);
  const [claimed] = await ctx.db
    .update(messages)
    .set({
      status: 'pending',
      content: null,
      finishReason: null,
      errorCode: null,
      prompt: shown,
      model: options.model,
      avatarId: options.avatar?.avatar.avatarId ?? target.avatarId,
      wordsCharged: sql`case when ${messages.wordsCharged} is null then null else 0 end`,
      updatedAt: new Date(),
    })
    .where(and(eq(messages.messageId, target.messageId), inArray(messages.status, ['failed', 'interrupted'])))
    .returning();
  if (!claimed) throw await releasedBusy(ctx, target.messageId);
  const turns = await turnsForAnswer(ctx.db, {
    conversationId: conversation.conversationId,
    userId: actor.userId,
    userMessageId: target.userMessageId ?? target.messageId,
    prompt,
  });
  startGeneration(ctx, { userId: options.userId, conversationId: options.conversationId, organizationId: options.organizationId, stream: options.stream, log: options.log, messageId: claimed.messageId, model: options.model, turns, prefix: '', wordLimit, avatar: options.avatar, attachedFiles: conversation.hasAttachedFiles });
  return { kind: 'continued', user: null, assistant: claimed };
}

/**
 * Holds the words of another answer written into `messageId` (credits/holds.ts): 412 when none are left;
 * a hold there already means another request is writing it (409).
 */
async function holdWordsFor(ctx: AppContext, hold: HoldRequest, messageId: number): Promise<number | null> {
  const reserved = await reserveWords(ctx.db, hold, { type: 'message', id: String(messageId) });
  if (!reserved) throw conflict('message_busy');
  return reserved.limit;
}

/** The answer could not be claimed after its words were held: they are given back, and it is busy (409). */
async function releasedBusy(ctx: AppContext, messageId: number): Promise<AppError> {
  await releaseHold(ctx.db, { type: 'message', id: String(messageId) });
  return conflict('message_busy');
}

/** The answer's prompt as it is now: what it shows, and what the model is sent (a templated prompt's model text). */
async function promptOf(ctx: AppContext, answer: MessageRow): Promise<{ shown: string; model: string } | null> {
  if (!answer.userMessageId) return null;
  const [row] = await ctx.db
    .select({ content: messages.content, modelContent: messages.modelContent })
    .from(messages)
    .where(and(eq(messages.messageId, answer.userMessageId), eq(messages.userId, answer.userId)))
    .limit(1);
  if (!row || row.content === null) return null;
  return { shown: row.content, model: row.modelContent ?? row.content };
}

/**
 * Newest first; `cursor` is a message_id and returns the messages before it (DESIGN.md §6: cursor paging).
 * No total: counting the whole conversation made a 2,000-message history slower to open than a short one
 * (bench/chat-history-page.mjs); the web counts what it has loaded once no older page is left. The page is
 * read alongside the ownership check, scoped by the actor, so a 404 leaves nothing of anyone else's behind.
 */
export async function listMessages({ actor, db, conversationId, query: q }: { actor: Actor; db: Db; conversationId: number; query: { cursor?: number; limit: number } }): Promise<{ rows: MessageRow[]; nextCursor: number | null }> {
  // A one-off answer (saveOnConversation false) and its prompt are not part of the conversation's history.
  const scope = and(eq(messages.conversationId, conversationId), messagePolicy.visibleTo(actor), sql`${messages.saveOnConversation}`);
  const [owned, rows] = await Promise.all([
    db
      .select({ conversationId: conversations.conversationId })
      .from(conversations)
      .where(and(conversationPolicy.visibleTo(actor), eq(conversations.conversationId, conversationId))),
    db
      .select()
      .from(messages)
      .where(q.cursor ? and(scope, lt(messages.messageId, q.cursor)) : scope)
      .orderBy(desc(messages.messageId))
      .limit(q.limit + 1),
  ]);
  if (owned.length === 0) throw notFound();
  const page = rows.slice(0, q.limit);
  return { rows: page, nextCursor: rows.length > q.limit ? page[page.length - 1].messageId : null };
}

export async function updateMessage({ actor, db, input }: { actor: Actor; db: Db; input: { message_id: number; content?: string; favorite?: boolean } }): Promise<MessageRow> {
  const current = await requireMessage(db, actor, input.message_id);
  const changes: Partial<typeof messages.$inferInsert> = { updatedAt: new Date() };
  if (input.favorite !== undefined) changes.favorite = input.favorite;
  if (input.content !== undefined) {
    // The text of an answer being written belongs to its generation until it ends.
    if (!stateAllows('edit', current)) throw conflict('message_busy');
    changes.content = input.content;
    // Edited, the text is the user's own: a template's hidden prompt no longer stands in for it.
    changes.modelContent = null;
  }
  const conditions = [eq(messages.messageId, current.messageId), messagePolicy.visibleTo(actor)];
  if (input.content !== undefined) conditions.push(inArray(messages.status, ['done', 'failed', 'interrupted']));
  const [row] = await db
    .update(messages)
    .set(changes)
    .where(and(...conditions))
    .returning();
  if (!row) throw conflict('message_busy');
  return row;
}

export async function deleteMessage({ actor, ctx, messageId }: { actor: Actor; ctx: AppContext; messageId: number }): Promise<void> {
  const row = await requireMessage(ctx.db, actor, messageId);
  // A running answer stops first (it saves as interrupted), then the row goes.
  await abortMessageGeneration(ctx, row.messageId);
  // A one-off answer (saveOnConversation false) takes its prompt with it: neither belongs to the conversation.
  const ids = !row.saveOnConversation && row.userMessageId !== null ? [row.messageId, row.userMessageId] : [row.messageId];
  await ctx.db.delete(messages).where(and(inArray(messages.messageId, ids), messagePolicy.visibleTo(actor)));
}
