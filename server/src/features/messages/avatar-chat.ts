// Answering as an avatar (issue 13 items 3 and 6; spec part 2 §2 "Conversations", §3 Avatar, §7 POST /messages
// avatar_id, §9 Claude file limits). The avatar's context is the system prompt, and its knowledge comes from
// its OWN linked files only (avatar_files): never the actor's other uploads, never another avatar's. A public
// avatar's files are used for others' answers but never handed out (downloads stay the owner's: avatars/policy.ts).
// The whole text goes when the files fit the budget, else the best passages (knowledge/search.ts); the passages
// found are the answer's citations either way. With Claude, PDFs and images go as native document/image blocks
// (pdf, jpeg, png, gif, webp; 100 PDF pages in total, refused with the spec's note above that).
//
// The actor's own selected, finished training of the avatar (trainings feature) answers instead of the
// conversation's model: the fine-tuned model lives in their OpenAI account, so it runs on their own key
// (the owner pays OpenAI); the answer's words are metered as any answer's. Others using a public avatar get
// the conversation's model (a training is its owner's).
//
// Nothing here runs for a message without an avatar: the send path's cost stays as it was (issue 9).
import type { MessageCitation } from '@pluma/common/messages-api';
import { and, asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { avatarFiles, conversations, files, knowledgeFiles } from '../../db/schema';
import type { ChatAttachment, ChatTurn } from '../../platform/ai/types';
import type { Actor } from '../../platform/auth/actor';
import { badRequest } from '../../platform/http/errors';
import { AppError } from '../../platform/http/errors';
import { avatarPolicy, type AvatarRow } from '../avatars';
import type { ConversationRow } from '../conversations';
import { searchPassages, wholeFileText, type Passage } from '../knowledge';
import { selectedTrainingModel } from '../trainings';
import { requireUserAiKey } from '../users';
import { citationsOf, saveCitations } from './avatar-citations';
import { base64Of, CLAUDE_FILES_MAX_BYTES, CLAUDE_IMAGE_MAX_BYTES, CLAUDE_MEDIA_TYPES, CLAUDE_PDF_PAGE_LIMIT, KNOWLEDGE_BUDGET_CHARS } from './file-limits';

/** What the generation needs to answer as an avatar (built in the request, used in the background). */
export interface AvatarAnswer {
  avatar: Pick<AvatarRow, 'avatarId' | 'name' | 'context'>;
  /** The question the knowledge is searched for. */
  prompt: string;
  /** The reader's language ('en' | 'es'), for the search's parse. */
  language: string;
  /** The answering model is Claude's: PDFs and images go as document/image blocks. */
  claude: boolean;
  /** false (a continuation): the answer keeps the citations it has. */
  cite: boolean;
  /** The actor's selected, finished training of this avatar: its fine-tuned model, on the actor's own key. */
  trained: TrainedModel | null;
}

export interface TrainedModel {
  trainingId: number;
  /** OpenAI's fine-tuned model name (ft:...), also stored as the answer's model. */
  model: string;
  /** The actor's own OpenAI key (decrypted; kept in memory for this answer only, never logged or saved). */
  apiKey: string;
}

/** OpenAI names fine-tuned models `ft:{base}:{org}:{suffix}:{id}`. */
export const isFineTunedModel = (model: string | null | undefined): boolean => !!model?.startsWith('ft:');

/**
 * 409 before anything is saved: the avatar answers with the actor's trained model, which runs on their own
 * OpenAI key, and the key is gone (the web shows the Settings prompt for ai_key_required).
 */
const trainedKeyRequired = () => new AppError(409, 'ai_key_required', 'training_chat_ai_key_required');

/**
 * The avatar a new message answers as: the request's `avatar_id` (checked: one the actor may not use is a
 * 404; null stops using one), else the conversation's. A conversation's avatar that is gone or no longer
 * shared is left out rather than failing the conversation. Nothing is written here (see keepAvatar).
 */
async function avatarForMessage(ctx: AppContext, actor: Actor, conversation: ConversationRow, requested: number | null | undefined): Promise<AvatarRow | null> {
  if (requested === undefined) {
    return conversation.avatarId === null ? null : avatarPolicy.find(ctx.db, actor, conversation.avatarId);
  }
  return requested === null ? null : avatarPolicy.require(ctx.db, actor, requested, 'read');
}

/** A requested avatar becomes the conversation's (null stops it), once every check before saving passed. */
async function keepAvatar(ctx: AppContext, actor: Actor, conversation: ConversationRow, requested: number | null | undefined, avatarId: number | null): Promise<void> {
  if (requested === undefined || avatarId === conversation.avatarId) return;
  await ctx.db
    .update(conversations)
    .set({ avatarId })
    .where(and(eq(conversations.conversationId, conversation.conversationId), eq(conversations.userId, actor.user.userId)));
}

/** The avatar's files with what retrieval and Claude's blocks need. */
async function linkedFiles(ctx: AppContext, avatarId: number) {
  return ctx.db
    .select({ fileId: files.fileId, name: files.name, type: files.type, size: files.size, storageKey: files.storageKey, pages: knowledgeFiles.pages })
    .from(avatarFiles)
    .innerJoin(files, eq(files.fileId, avatarFiles.fileId))
    .leftJoin(knowledgeFiles, eq(knowledgeFiles.fileId, files.fileId))
    .where(eq(avatarFiles.avatarId, avatarId))
    .orderBy(asc(avatarFiles.avatarFileId));
}

/**
 * spec part 2 §2, §9: refused before anything is saved when the avatar's PDFs go past Claude's 100 pages in
 * total (pages as counted when the file was indexed; one not indexed yet is left to the provider's own check).
 */
export async function assertClaudeFileLimits(ctx: AppContext, avatarId: number): Promise<void> {
  const pages = (await linkedFiles(ctx, avatarId)).filter((f) => f.type === 'pdf').reduce((sum, f) => sum + (f.pages ?? 0), 0);
  if (pages > CLAUDE_PDF_PAGE_LIMIT) {
    throw badRequest('claude_pdf_page_limit', undefined, { pages: String(pages), max: String(CLAUDE_PDF_PAGE_LIMIT) });
  }
}

function sourceLabel(name: string, passage: Pick<Passage, 'page' | 'heading'>): string {
  return [name, passage.page !== null ? `page ${passage.page}` : null, passage.heading].filter(Boolean).join(' — ');
}

function systemPrompt(answer: AvatarAnswer, knowledge: string): string {
  const parts = [`You are ${answer.avatar.name}.`, answer.avatar.context.trim()];
  if (knowledge) {
    parts.push(
      "Knowledge from your files follows. Use it where it answers the question and say so when it does not; do not invent what the files do not say.",
      knowledge,
    );
  }
  return parts.filter(Boolean).join('\n\n');
}

/**
 * The turns of an avatar's answer: the system prompt (context and knowledge) first, Claude's files on the
 * prompt's turn; the citations are saved with the answer (or, continuing, the ones it has are kept).
 */
export async function avatarTurns(ctx: AppContext, answer: AvatarAnswer, turns: ChatTurn[], messageId: number): Promise<{ turns: ChatTurn[]; citations: MessageCitation[] }> {
  const linked = await linkedFiles(ctx, answer.avatar.avatarId);
  const names = new Map(linked.map((f) => [f.fileId, f.name]));
  // Claude's blocks: the permitted types within Anthropic's size limits; the rest goes as text.
  const blocks: typeof linked = [];
  let bytes = 0;
  for (const file of answer.claude ? linked : []) {
    const mediaType = CLAUDE_MEDIA_TYPES[file.type];
    if (!mediaType || (mediaType !== 'application/pdf' && file.size > CLAUDE_IMAGE_MAX_BYTES) || bytes + file.size > CLAUDE_FILES_MAX_BYTES) continue;
    bytes += file.size;
    blocks.push(file);
  }
  const asBlocks = new Set(blocks.map((f) => f.fileId));
  const textIds = linked.map((f) => f.fileId).filter((id) => !asBlocks.has(id));
  const [passages, whole, attachments] = await Promise.all([
    searchPassages({ ctx, fileIds: linked.map((f) => f.fileId), query: answer.prompt, language: answer.language }),
    wholeFileText({ ctx, fileIds: textIds, budgetChars: KNOWLEDGE_BUDGET_CHARS }),
    Promise.all(
      blocks.map(async (file): Promise<ChatAttachment> => {
        if (!ctx.services.storage) throw new Error('storage service is not configured');
        return { mediaType: CLAUDE_MEDIA_TYPES[file.type], data: await base64Of(await ctx.services.storage.get(file.storageKey)), title: file.name };
      }),
    ),
  ]);

  let knowledge: string;
  if (whole !== null) {
    knowledge = whole
      .filter((w) => w.text.trim())
      .map((w) => `=== ${names.get(w.file_id) ?? ''} ===\n${w.text}`)
      .join('\n\n');
  } else {
    knowledge = passages
      .filter((p) => !asBlocks.has(p.file_id))
      .map((p, index) => `[${index + 1}] ${sourceLabel(names.get(p.file_id) ?? '', p)}\n${p.text}`)
      .join('\n\n');
  }
  const system: ChatTurn = { role: 'system', content: systemPrompt(answer, knowledge) };
  const withFiles = [...turns];
  const last = withFiles.findLastIndex((t) => t.role === 'user');
  if (attachments.length > 0 && last >= 0) withFiles[last] = { ...withFiles[last], attachments };

  let citations: MessageCitation[];
  if (answer.cite) {
    citations = passages.map((p) => ({ file_id: p.file_id, name: names.get(p.file_id) ?? '', page: p.page, heading: p.heading, text: p.text }));
    await saveCitations(ctx.db, messageId, citations);
  } else {
    citations = (await citationsOf(ctx.db, [{ messageId, avatarId: answer.avatar.avatarId, role: 'assistant' }])).get(messageId) ?? [];
  }
  return { turns: [system, ...withFiles], citations };
}

/**
 * The avatar answer of a message, or null without an avatar (no query at all when neither the request nor
 * the conversation names one). Refusals come before anything is saved: Claude's file limits, and a trained
 * model whose owner's key is gone (409 ai_key_required).
 */
export async function avatarAnswerFor(
  ctx: AppContext,
  options: { actor: Actor; conversation: ConversationRow; requested: number | null | undefined; model: string | null; prompt: string },
): Promise<AvatarAnswer | null> {
  const { actor, conversation, requested } = options;
  if (requested === undefined && conversation.avatarId === null) return null;
  const avatar = await avatarForMessage(ctx, actor, conversation, requested);
  if (!avatar) {
    await keepAvatar(ctx, actor, conversation, requested, null);
    return null;
  }
  // Only the actor's own trainings count (selectedTrainingModel filters by user): a public avatar used by
  // someone else answers with the conversation's model.
  const selected = await selectedTrainingModel({ actor, db: ctx.db, avatarId: avatar.avatarId });
  let trained: TrainedModel | null = null;
  if (selected) {
    const apiKey = await requireUserAiKey(ctx, actor.user.userId).catch((err: unknown) => {
      throw err instanceof AppError ? trainedKeyRequired() : err;
    });
    trained = { ...selected, apiKey };
  }
  // A trained model is OpenAI's: Claude's blocks and page limit apply only when Claude answers.
  const claude = !trained && (await ctx.services.ai?.providerOf(options.model)) === 'anthropic';
  if (claude) await assertClaudeFileLimits(ctx, avatar.avatarId);
  await keepAvatar(ctx, actor, conversation, requested, avatar.avatarId);
  return {
    avatar: { avatarId: avatar.avatarId, name: avatar.name, context: avatar.context },
    prompt: options.prompt,
    language: actor.user.lang,
    claude,
    cite: true,
    trained,
  };
}
