// Refine and sync (spec part 2 §2 "refine (the model rewrites the context from files and liked outputs), sync
// (re-index the files)"; §4 "Avatar actions take up to 15 minutes"; §7 POST /avatars/refine {avatar_id}).
// A refine runs in the job queue (pg-boss) on the requester's own AI key (spec part 1 §1, like trainings):
// its state is persisted on the avatar (queued → running → done | failed with the reason), so a reload shows
// the truth, and each change is pushed to the owner (and to the admin who asked) as `avatar_refine`.
// The new context replaces the old only when the model answered with text; any failure keeps the old one.
import { AVATAR_CONTEXT_MAX, AVATAR_REFINE_EVENT, type AvatarRefineEventPayload, type AvatarWithFiles } from '@pluma/common/avatars';
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import OpenAI from 'openai';
import type { AppContext, JobProgress } from '../../context';
import { avatarFiles, avatars, files, outputs } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { modelText } from '../../platform/ai/model-text';
import { getConfig } from '../../platform/appconfig/read';
import { JOB_EXPIRE_SECONDS } from '../../platform/jobs';
import { isKnowledgeFileType } from '../ingestion';
import { reindex, wholeFileText } from '../knowledge';
import { userKeyClient } from '../../platform/ai/user-key-client';
import { requireUserAiKey } from '../users';
import { avatarPolicy, type AvatarRow } from './policy';
import { presentRefine } from './present';

export const REFINE_QUEUE = 'avatar-refine';

/** What the model reads: the files' text up to this many characters, and the newest liked outputs. */
const FILES_BUDGET_CHARS = 60_000;
const LIKED_OUTPUTS = 20;
const OUTPUT_MAX_CHARS = 3_000;
/** A refine still 'queued' or 'running' after the job's own expiry was lost with its process: a new one may start. */
const STALE_MS = 2 * JOB_EXPIRE_SECONDS * 1000;

type RefineChange = Pick<AvatarRow, 'refineStatus' | 'refineErrorCode' | 'refineErrorMessage'> & { context?: string };

async function saveRefine(ctx: AppContext, avatarId: number, change: RefineChange, notify: number[]): Promise<AvatarRow | null> {
  const now = new Date();
  const [row] = await ctx.db
    .update(avatars)
    // A new context is an edit of the avatar (updatedAt); a status change alone is not.
    .set({ ...change, refineUpdatedAt: now, ...(change.context !== undefined ? { updatedAt: now } : {}) })
    .where(eq(avatars.avatarId, avatarId))
    .returning();
  if (!row) return null;
  const payload: AvatarRefineEventPayload = { avatar_id: row.avatarId, refine: presentRefine(row) };
  for (const userId of new Set([row.userId, ...notify])) ctx.services.realtime?.emitToUser(userId, AVATAR_REFINE_EVENT, payload);
  return row;
}

const busy = (row: AvatarRow) =>
  (row.refineStatus === 'queued' || row.refineStatus === 'running') && row.refineUpdatedAt !== null && Date.now() - row.refineUpdatedAt.getTime() < STALE_MS;

/**
 * POST /avatars/refine (the route checks access and the requester's key first): queues the refine. A second
 * click while one is queued or running starts nothing new and answers the same state.
 */
export async function requestRefine(options: { ctx: AppContext; actor: Actor; avatarId: number; present: (row: AvatarRow) => Promise<AvatarWithFiles> }) {
  const { ctx, actor, present } = options;
  const jobs = ctx.services.jobs;
  if (!jobs) throw new Error('job service is not running');
  const avatar = await avatarPolicy.require(ctx.db, actor, options.avatarId, 'refine');
  if (busy(avatar)) return present(avatar);
  const row = await saveRefine(ctx, avatar.avatarId, { refineStatus: 'queued', refineErrorCode: null, refineErrorMessage: null }, [actor.user.userId]);
  // The requester's key runs it: the owner's, or the admin's who asked (spec part 1 §1: billed to them).
  await jobs.send(REFINE_QUEUE, { avatarId: avatar.avatarId, userId: actor.user.userId }, { singletonKey: `avatar-refine-${avatar.avatarId}`, retryLimit: 1 });
  return present(row ?? avatar);
}

/** POST /avatars/sync: every indexable file of the avatar is queued for indexing again (chunks are replaced, never added). */
export async function syncAvatarFiles(options: { ctx: AppContext; actor: Actor; avatarId: number; present: (row: AvatarRow) => Promise<AvatarWithFiles> }) {
  const { ctx, actor } = options;
  const avatar = await avatarPolicy.require(ctx.db, actor, options.avatarId, 'sync');
  const linked = await ctx.db
    .select({ fileId: avatarFiles.fileId, type: files.type })
    .from(avatarFiles)
    .innerJoin(files, eq(files.fileId, avatarFiles.fileId))
    .where(eq(avatarFiles.avatarId, avatar.avatarId));
  await reindex({ ctx, fileIds: linked.filter((f) => isKnowledgeFileType(f.type)).map((f) => f.fileId), language: actor.user.lang ?? undefined });
  return options.present(avatar);
}

const SYSTEM_PROMPT = [
  "You rewrite the instructions (the 'context') of an AI persona called an avatar.",
  'Keep its voice, purpose and rules, and improve them with what its knowledge files and its liked outputs show:',
  'facts it must know, its tone, its style and the kind of answers its user liked.',
  'Write in the language of the current context. Answer with the new context only: no preamble, no notes,',
  `at most ${AVATAR_CONTEXT_MAX} characters.`,
].join(' ');

/** The material the model reads: the current context, the liked outputs and the files' text. */
async function refineMaterial(ctx: AppContext, avatar: AvatarRow): Promise<string | null> {
  const liked = await ctx.db
    .select({ prompt: outputs.prompt, content: outputs.content })
    .from(outputs)
    // The owner's liked outputs (the avatar's own taste), newest first.
    .where(and(eq(outputs.avatarId, avatar.avatarId), eq(outputs.userId, avatar.userId), eq(outputs.liked, true), eq(outputs.status, 'done'), isNotNull(outputs.content)))
    .orderBy(desc(outputs.updatedAt))
    .limit(LIKED_OUTPUTS);
  const fileRows = await ctx.db
    .select({ fileId: avatarFiles.fileId, name: files.name })
    .from(avatarFiles)
    .innerJoin(files, eq(files.fileId, avatarFiles.fileId))
    .where(eq(avatarFiles.avatarId, avatar.avatarId));
  const names = new Map(fileRows.map((f) => [f.fileId, f.name]));
  // The whole text when it fits; else each file's share of the budget.
  let texts = await wholeFileText({ ctx, fileIds: fileRows.map((f) => f.fileId), budgetChars: FILES_BUDGET_CHARS });
  if (texts === null) {
    texts = [];
    const share = Math.floor(FILES_BUDGET_CHARS / Math.max(1, fileRows.length));
    for (const { fileId } of fileRows) {
      const one = await wholeFileText({ ctx, fileIds: [fileId], budgetChars: Number.MAX_SAFE_INTEGER });
      for (const t of one ?? []) texts.push({ file_id: t.file_id, text: t.text.slice(0, share) });
    }
  }
  texts = texts.filter((t) => t.text.trim() !== '');
  const examples = liked.filter((o) => (o.content ?? '').trim() !== '');
  if (texts.length === 0 && examples.length === 0) return null;
  const parts = [`Current context:\n${avatar.context}`];
  if (examples.length > 0) {
    parts.push(
      `Liked outputs (${examples.length}):\n` +
        examples.map((o, i) => `#${i + 1} Prompt: ${o.prompt.slice(0, 500)}\nOutput: ${(o.content ?? '').slice(0, OUTPUT_MAX_CHARS)}`).join('\n\n'),
    );
  }
  for (const t of texts) parts.push(`Knowledge file "${names.get(t.file_id) ?? t.file_id}":\n${t.text}`);
  return parts.join('\n\n---\n\n');
}

/** The job: read the material, ask the model on the requester's key, save the answer or the reason. */
export async function runRefineJob(ctx: AppContext, data: Record<string, unknown>, progress: JobProgress): Promise<{ status: string }> {
  const avatarId = Number(data.avatarId);
  const requester = Number(data.userId);
  const [avatar] = await ctx.db.select().from(avatars).where(eq(avatars.avatarId, avatarId)).limit(1);
  if (!avatar) return { status: 'gone' };
  const notify = [requester];
  const fail = async (code: string, message: string | null) => {
    await saveRefine(ctx, avatarId, { refineStatus: 'failed', refineErrorCode: code, refineErrorMessage: message }, notify);
    return { status: 'failed' };
  };
  await saveRefine(ctx, avatarId, { refineStatus: 'running', refineErrorCode: null, refineErrorMessage: null }, notify);
  await progress(5);

  let apiKey: string;
  try {
    apiKey = await requireUserAiKey(ctx, requester);
  } catch {
    return fail('ai_key_required', null);
  }
  const material = await refineMaterial(ctx, avatar);
  if (material === null) return fail('no_material', null);
  await progress(20);

  let answer: string;
  try {
    const model = (await getConfig(ctx, 'openai_model')) || 'gpt-4o-mini';
    const completion = await userKeyClient(ctx, apiKey).chat.completions.create({
      model,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: material },
      ],
    });
    answer = modelText(completion.choices[0]?.message?.content ?? '').trim();
  } catch (err) {
    // The provider refused or could not be reached (the SDK already retried what is worth retrying): the
    // old context stays, and the page shows why.
    if (err instanceof OpenAI.APIError) return fail(String(err.code ?? err.type ?? `provider_${err.status ?? 'error'}`), err.message);
    return fail('provider_unreachable', err instanceof Error ? err.message : null);
  }
  await progress(90);
  if (!answer) return fail('empty_answer', null);
  await saveRefine(ctx, avatarId, { refineStatus: 'done', refineErrorCode: null, refineErrorMessage: null, context: answer.slice(0, AVATAR_CONTEXT_MAX) }, notify);
  return { status: 'done' };
}

/** Registers the refine worker (called once when the avatars routes load; boot.ts starts jobs first). */
export async function startRefineWorker(ctx: AppContext): Promise<void> {
  const jobs = ctx.services.jobs;
  if (!jobs) return;
  await jobs.work(REFINE_QUEUE, (data, progress) => runRefineJob(ctx, data, progress));
}
