// Output operations (spec part 2 §7 "Outputs"; issue 13 item 5), framework-free and scoped by policy.ts.
import { OUTPUT_THREAD_MAX, THREAD_PAGE_SIZE, type ListOutputsQuery } from '@pluma/common/outputs';
import { and, asc, count, desc, eq, ilike, isNull, lt, or, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { outputMessages, outputs } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError, notFound } from '../../platform/http/errors';
import { escapeLikePattern } from '../../platform/http/like-pattern';
import { avatarPolicy, type AvatarRow } from '../avatars';
import { selectedTrainingModel, trainingPolicy } from '../trainings';
import { aiKeyRequired, requireUserAiKey } from '../users';
import { answerThread, writeOutputs, type Log, type ModelChoice } from './generate';
import { outputPolicy, type OutputRow } from './policy';

interface Scope {
  actor: Actor;
  db: Db;
}

type ThreadMessageRow = typeof outputMessages.$inferSelect;
/** An output with its follow-up thread, oldest message first. */
export interface OutputWithThreadRows {
  row: OutputRow;
  thread: ThreadMessageRow[];
}

const notReady = () => new AppError(409, 'training_not_finished', 'training_not_finished');

function listFilters(q: ListOutputsQuery): SQL[] {
  const filters: SQL[] = [];
  if (q.query) {
    const pattern = `%${escapeLikePattern(q.query)}%`;
    filters.push(or(ilike(outputs.prompt, pattern), ilike(outputs.content, pattern)) as SQL);
  }
  if (q.liked === 'true') filters.push(eq(outputs.liked, true));
  if (q.liked === 'false') filters.push(eq(outputs.liked, false));
  if (q.liked === 'none') filters.push(isNull(outputs.liked));
  return filters;
}

async function listWhere({ actor, db }: Scope, scope: SQL, q: ListOutputsQuery): Promise<{ rows: OutputRow[]; total: number }> {
  const where = and(outputPolicy.visibleTo(actor), scope, ...listFilters(q));
  const rows = await db.select().from(outputs).where(where).orderBy(desc(outputs.createdAt), desc(outputs.outputId)).limit(q.limit).offset(q.offset);
  const [{ total }] = await db.select({ total: count() }).from(outputs).where(where);
  return { rows, total };
}

/** GET /outputs/avatar/{id}: the actor's outputs of an avatar they may see. */
export async function listAvatarOutputs(scope: Scope & { avatarId: number; query: ListOutputsQuery }): Promise<{ rows: OutputRow[]; total: number }> {
  const avatar = await avatarPolicy.require(scope.db, scope.actor, scope.avatarId);
  return listWhere(scope, eq(outputs.avatarId, avatar.avatarId), scope.query);
}

/** GET /outputs/training/{id}: the actor's outputs made with one of their trainings. */
export async function listTrainingOutputs(scope: Scope & { trainingId: number; query: ListOutputsQuery }): Promise<{ rows: OutputRow[]; total: number }> {
  const training = await trainingPolicy.require(scope.db, scope.actor, scope.trainingId);
  return listWhere(scope, eq(outputs.trainingId, training.trainingId), scope.query);
}

function threadOf(db: Db, outputId: number): Promise<ThreadMessageRow[]> {
  return db.select().from(outputMessages).where(eq(outputMessages.outputId, outputId)).orderBy(asc(outputMessages.outputMessageId));
}

/**
 * GET /messages/thread/{id}[/{x}] (spec part 2 §7): the thread of the actor's output {id} (else 404), newest
 * first, THREAD_PAGE_SIZE at a time; `cursor` (x) must be a message of this thread (else 404) and returns the
 * ones before it (keyset paging on output_message_id, DESIGN.md §6).
 */
export async function listThreadMessages({ actor, db, outputId, cursor }: Scope & { outputId: number; cursor?: number }): Promise<{ rows: ThreadMessageRow[]; nextCursor: number | null }> {
  const output = await outputPolicy.require(db, actor, outputId);
  const inThread = eq(outputMessages.outputId, output.outputId);
  if (cursor !== undefined) {
    const [mark] = await db
      .select({ id: outputMessages.outputMessageId })
      .from(outputMessages)
      .where(and(inThread, eq(outputMessages.outputMessageId, cursor)))
      .limit(1);
    if (!mark) throw notFound();
  }
  const rows = await db
    .select()
    .from(outputMessages)
    .where(cursor === undefined ? inThread : and(inThread, lt(outputMessages.outputMessageId, cursor)))
    .orderBy(desc(outputMessages.outputMessageId))
    .limit(THREAD_PAGE_SIZE + 1);
  const page = rows.slice(0, THREAD_PAGE_SIZE);
  return { rows: page, nextCursor: rows.length > THREAD_PAGE_SIZE ? page[page.length - 1].outputMessageId : null };
}

export async function getOutput({ actor, db, outputId }: Scope & { outputId: number }): Promise<OutputWithThreadRows> {
  const row = await outputPolicy.require(db, actor, outputId);
  return { row, thread: await threadOf(db, row.outputId) };
}

/**
 * The model an avatar writes with: the training asked for (the actor's own, finished), else the training the
 * actor selected for the avatar, else the app's default model. A fine-tuned model needs the user's key.
 */
async function chooseModel(ctx: AppContext, actor: Actor, avatar: AvatarRow, trainingId: number | null | undefined): Promise<ModelChoice & { trainingId: number | null }> {
  const apiKey = await requireUserAiKey(ctx, actor.user.userId).catch(() => null);
  let chosen: { trainingId: number; model: string } | null = null;
  if (trainingId) {
    const training = await trainingPolicy.require(ctx.db, actor, trainingId);
    if (training.avatarId !== avatar.avatarId || !training.fineTunedModel) throw notReady();
    chosen = { trainingId: training.trainingId, model: training.fineTunedModel };
  } else {
    chosen = await selectedTrainingModel({ actor, db: ctx.db, avatarId: avatar.avatarId });
  }
  if (chosen && !apiKey) throw aiKeyRequired();
  return { fineTuned: chosen?.model ?? null, apiKey, trainingId: chosen?.trainingId ?? null };
}

const systemOf = (avatar: AvatarRow) => avatar.context.trim() || avatar.name;

/**
 * POST /outputs/generate: one pending output per prompt, answered at once (202); each is written in the
 * background and announced with `output` (or `document_avatar` for the editor's avatar section).
 */
export async function generateOutputs(options: {
  ctx: AppContext;
  log: Log;
  actor: Actor;
  input: { messages: string[]; assistant_id: number; training_id?: number | null; target?: 'output' | 'document' };
}): Promise<OutputRow[]> {
  const { ctx, log, actor, input } = options;
  const avatar = await avatarPolicy.require(ctx.db, actor, input.assistant_id);
  const choice = await chooseModel(ctx, actor, avatar, input.training_id);
  const rows = await ctx.db
    .insert(outputs)
    .values(
      input.messages.map((prompt) => ({
        userId: actor.user.userId,
        organizationId: actor.organization?.organizationId ?? null,
        avatarId: avatar.avatarId,
        trainingId: choice.trainingId,
        prompt,
        content: null,
        status: 'pending',
        model: choice.fineTuned,
      })),
    )
    .returning();
  // In the background; writeOutputs saves and announces failures itself.
  void writeOutputs({ ctx, log, actor, outputIds: rows.map((r) => r.outputId), system: systemOf(avatar), choice, event: input.target === 'document' ? 'document_avatar' : 'output' }).catch(
    (err: unknown) => log.error({ err }, 'output generation failed'),
  );
  return rows;
}

/** POST /outputs: an output the user writes (e.g. a sample in the avatar's voice, liked for training). */
export async function createOutput({ actor, db, input }: Scope & { input: { avatar_id: number; training_id?: number | null; prompt: string; content: string; liked?: boolean | null } }): Promise<OutputRow> {
  const avatar = await avatarPolicy.require(db, actor, input.avatar_id);
  const training = input.training_id ? await trainingPolicy.require(db, actor, input.training_id) : null;
  const [row] = await db
    .insert(outputs)
    .values({
      userId: actor.user.userId,
      organizationId: actor.organization?.organizationId ?? null,
      avatarId: avatar.avatarId,
      trainingId: training?.trainingId ?? null,
      prompt: input.prompt,
      content: input.content,
      status: 'done',
      liked: input.liked ?? null,
    })
    .returning();
  return row;
}

async function change(scope: Scope, current: OutputRow, changes: Partial<typeof outputs.$inferInsert>): Promise<OutputRow> {
  const [row] = await scope.db
    .update(outputs)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(outputs.outputId, current.outputId))
    .returning();
  return row;
}

const pending = () => new AppError(409, 'output_pending', 'output_pending');

/** PUT /outputs: the text (and the rating). */
export async function updateOutput(scope: Scope & { input: { output_id: number; content?: string; liked?: boolean | null } }): Promise<OutputRow> {
  const current = await outputPolicy.require(scope.db, scope.actor, scope.input.output_id);
  if (!outputPolicy.can(scope.actor, 'update', current)) throw pending();
  const changes: Partial<typeof outputs.$inferInsert> = {};
  if (scope.input.content !== undefined) changes.content = scope.input.content;
  if (scope.input.liked !== undefined) changes.liked = scope.input.liked;
  return change(scope, current, changes);
}

/** POST /outputs/rate {output_id, liked}: liked outputs feed the avatar's next training. */
export async function rateOutput(scope: Scope & { outputId: number; liked: boolean | null }): Promise<OutputRow> {
  const current = await outputPolicy.require(scope.db, scope.actor, scope.outputId);
  if (!outputPolicy.can(scope.actor, 'rate', current)) throw pending();
  return change(scope, current, { liked: scope.liked });
}

export async function deleteOutput({ actor, db, outputId }: Scope & { outputId: number }): Promise<void> {
  const current = await outputPolicy.require(db, actor, outputId);
  await db.delete(outputs).where(eq(outputs.outputId, current.outputId));
}

/** POST /outputs/message: a follow-up in an output's thread; answered in the background (`thread_messages`). */
export async function messageOutput(options: { ctx: AppContext; log: Log; actor: Actor; outputId: number; content: string }): Promise<OutputWithThreadRows> {
  const { ctx, log, actor, outputId, content } = options;
  const current = await outputPolicy.require(ctx.db, actor, outputId);
  if (!outputPolicy.can(actor, 'message', current)) throw pending();
  const avatar = await avatarPolicy.require(ctx.db, actor, current.avatarId);
  const choice = await chooseModel(ctx, actor, avatar, current.trainingId && current.model ? current.trainingId : null);
  const [{ n }] = await ctx.db.select({ n: count() }).from(outputMessages).where(eq(outputMessages.outputId, current.outputId));
  if (n + 2 > OUTPUT_THREAD_MAX) throw new AppError(409, 'output_thread_full', 'output_thread_full');
  const [, answer] = await ctx.db
    .insert(outputMessages)
    .values([
      { outputId: current.outputId, role: 'user', content },
      { outputId: current.outputId, role: 'assistant', content: null },
    ])
    .returning();
  void answerThread({ ctx, log, actor, outputId: current.outputId, pendingId: answer.outputMessageId, system: systemOf(avatar), choice }).catch((err: unknown) =>
    log.error({ err }, 'output thread answer failed'),
  );
  return { row: current, thread: await threadOf(ctx.db, current.outputId) };
}
