// Topics and hashtags generators (spec part 2 §2 "Topics and hashtags"; docs/decisions.md "Topics and
// hashtags"). A generation is one request: the subject, language, count and optional avatar go to the default
// model of the operator's provider (or the organization's own key) asking for a JSON array; the answer is read
// leniently (parse-ideas.ts) and kept as a history row typed 2 (hashtags) or 3 (topics). Words are held before
// the call and charged for the whole answer through the ledger, like a chat answer. A Stop (issue 30 item 1)
// is the client closing its request: the provider call is aborted and an unfinished list is neither kept
// nor charged.
import { IDEA_KINDS, IDEA_MESSAGE_TYPE, IDEAS_PAGE_SIZE, type IdeaKind } from '@pluma/common/ideas';
import { ErrorIds } from '@pluma/common/errors';
import type { Lang } from '@pluma/common/constants';
import { WordBudget } from '@pluma/common/rules/answer-words';
import { countWords } from '@pluma/common/rules/token-estimate';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { avatars, ideaRequests } from '../../db/schema';
import { organizationCredentials } from '../../platform/ai/organization-keys';
import { ProviderError, type ChatTurn } from '../../platform/ai/types';
import type { Actor } from '../../platform/auth/actor';
import { AppError, notFound } from '../../platform/http/errors';
import { avatarPolicy, type AvatarRow } from '../avatars';
import { chargeWords, holdRequest, releaseHold, reserveWords } from '../credits';
import { readOrganizationOpenAiKey } from '../organizations';
import { parseIdeas } from './parse-ideas';
import { ideaPolicy, type IdeaRow } from './policy';
import { touchLastUsed } from '../users';

/** A generation with the name of the avatar it was asked in (presentIdea shows it). */
export interface IdeaWithAvatar {
  row: IdeaRow;
  avatarName: string | null;
}

/** Room for 20 hashtags or 5 titles in a JSON array, with some slack; also the words held. */
export const IDEAS_MAX_TOKENS = 500;
/** A generation answers within the request; past this it is given up. */
const IDEAS_TIMEOUT_MS = 120_000;

const LANGUAGE_NAMES: Record<Lang, string> = { en: 'English', es: 'Spanish' };

/** What the model is told: the kind, the count and the language, and the avatar's voice when one is chosen. */
export function ideaTurns(kind: IdeaKind, subject: string, count: number, language: Lang, avatar: Pick<AvatarRow, 'name' | 'context'> | null): ChatTurn[] {
  const lang = LANGUAGE_NAMES[language];
  const task =
    kind === 'topics'
      ? `You suggest content topics to writers. Give exactly ${count} distinct topic ideas about the subject the user sends, written in ${lang}. ` +
        'Each topic is a short, catchy title of at most 12 words.'
      : `You suggest social media hashtags. Give exactly ${count} distinct, relevant hashtags about the subject the user sends, in ${lang}. ` +
        'Each hashtag is the hash sign followed by one word or several words joined without spaces.';
  const format = 'Answer with a JSON array of strings only: no numbering, no comments, no text before or after it.';
  const voice = avatar ? `\n\nSuggest them as this persona would (${avatar.name}):\n${avatar.context.trim() || avatar.name}` : '';
  return [
    { role: 'system', content: `${task} ${format}${voice}` },
    { role: 'user', content: subject },
  ];
}

export interface GenerateIdeasInput {
  subject: string;
  count: number;
  language?: Lang;
  avatar_id?: number | null;
}

/** The answer of a generation the user stopped (its request closed): there is no one to read it. */
export const IDEAS_STOPPED_STATUS = 499;

/**
 * One generation: 201 with the new history row; 412 without words, 502 when the provider fails or says
 * nothing usable. `stopSignal` (the request closed: the user stopped it) aborts the provider call; nothing
 * is saved or charged then.
 */
export async function generateIdeas(options: { ctx: AppContext; actor: Actor; kind: IdeaKind; input: GenerateIdeasInput; stopSignal?: AbortSignal }): Promise<IdeaWithAvatar> {
  const { ctx, actor, kind, input, stopSignal } = options;
  const { db } = ctx;
  const avatar = input.avatar_id ? await avatarPolicy.require(db, actor, input.avatar_id, 'read') : null;
  const ai = ctx.services.ai;
  if (!ai) throw new AppError(503, ErrorIds.provider, 'ai_unavailable');
  // A use of the app (the customers tables' 'Last used', spec part 1 §2 Screens).
  await touchLastUsed({ ctx, actor });
  const language: Lang = input.language ?? (actor.user.lang === 'es' ? 'es' : 'en');
  const organizationId = actor.organization?.organizationId ?? null;

  const source = { type: 'idea' as const, id: randomUUID() };
  // A fresh id holds nothing yet, so the reservation is not null (412 words_exhausted when nothing is left).
  const limit = (await reserveWords(db, holdRequest(actor, IDEAS_MAX_TOKENS), source))?.limit ?? null;
  const budget = limit === null ? null : new WordBudget(limit);
  let text = '';
  let failure: unknown = null;
  const timeout = AbortSignal.timeout(IDEAS_TIMEOUT_MS);
  const signal = stopSignal ? AbortSignal.any([stopSignal, timeout]) : timeout;
  try {
    const credentials = await organizationCredentials(ctx, organizationId, readOrganizationOpenAiKey);
    const turns = ideaTurns(kind, input.subject, input.count, language, avatar);
    for await (const event of ai.stream({ model: null, messages: turns, maxTokens: IDEAS_MAX_TOKENS, signal, credentials })) {
      if (stopSignal?.aborted) break;
      if (event.type !== 'delta' || !event.text) continue;
      text += budget ? budget.take(event.text) : event.text;
      if (budget?.exhausted) break;
    }
  } catch (err) {
    failure = err;
  }
  // Stopped: an unfinished list is not kept, and nothing is charged (the hold is released).
  if (stopSignal?.aborted) {
    await releaseHold(db, source);
    throw new AppError(IDEAS_STOPPED_STATUS, 'ideas_stopped', 'ideas_stopped');
  }
  // Charged once for what was written, whatever the outcome (the charge releases the hold).
  const words = countWords(text);
  await chargeWords(db, { userId: actor.user.userId, sourceType: source.type, sourceId: source.id, words });
  if (failure) {
    const provider = failure instanceof ProviderError ? failure.provider : await ai.providerOf(null).catch(() => 'openai' as const);
    const detail = failure instanceof Error ? failure.message : 'The AI provider could not complete the answer.';
    const code = failure instanceof ProviderError && failure.code ? failure.code : 'generation_failed';
    throw new AppError(502, ErrorIds.provider, 'ideas_provider_error', { detail }, { provider, code });
  }
  const items = parseIdeas(kind, text, input.count);
  if (!items.length) throw new AppError(502, 'ideas_unparsed', 'ideas_unparsed');
  const [row] = await db
    .insert(ideaRequests)
    .values({
      userId: actor.user.userId,
      organizationId,
      messageTypeId: IDEA_MESSAGE_TYPE[kind],
      subject: input.subject,
      language,
      count: input.count,
      items,
      avatarId: avatar?.avatarId ?? null,
      words,
    })
    .returning();
  return { row, avatarName: avatar?.name ?? null };
}

/** The history of one generator in the actor's context, newest first, IDEAS_PAGE_SIZE a page. */
export async function listIdeas(options: { actor: Actor; db: Db; kind: IdeaKind; page: number }): Promise<{ rows: IdeaWithAvatar[]; total: number; page: number }> {
  const { actor, db, kind, page } = options;
  const where = and(ideaPolicy.visibleTo(actor), eq(ideaRequests.messageTypeId, IDEA_MESSAGE_TYPE[kind]));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ row: ideaRequests, avatarName: avatars.name })
      .from(ideaRequests)
      .leftJoin(avatars, eq(avatars.avatarId, ideaRequests.avatarId))
      .where(where)
      .orderBy(desc(ideaRequests.createdAt), desc(ideaRequests.ideaId))
      .limit(IDEAS_PAGE_SIZE)
      .offset((page - 1) * IDEAS_PAGE_SIZE),
    db.select({ total: count() }).from(ideaRequests).where(where),
  ]);
  return { rows, total: Number(total), page };
}

/**
 * Deletes one of the actor's generations in this context; any other id is a 404, and so is one whose kind
 * is not in `kinds` (the generators switched on: routes.ts).
 */
export async function deleteIdea(options: { actor: Actor; db: Db; ideaId: number; kinds?: readonly IdeaKind[] }): Promise<void> {
  const { kinds = IDEA_KINDS } = options;
  const deleted = await options.db
    .delete(ideaRequests)
    .where(and(ideaPolicy.visibleTo(options.actor), eq(ideaRequests.ideaId, options.ideaId), inArray(ideaRequests.messageTypeId, kinds.map((kind) => IDEA_MESSAGE_TYPE[kind]))))
    .returning({ ideaId: ideaRequests.ideaId });
  if (!deleted.length) throw notFound();
}
