// Training operations (spec part 2 §7 "Trainings": list, public list, get, create, update, execute, sync,
// refine, delete; issue 13 item 4), framework-free and scoped by policy.ts's visibleTo. The provider calls
// are made on the user's own key (the routes refuse without one: 409 ai_key_required).
import { DEFAULT_TRAINING_BASE_MODEL, MIN_TRAINING_EXAMPLES, type ListTrainingsQuery } from '@pluma/common/trainings';
import { and, count, desc, eq, ilike, inArray, isNotNull, ne, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { avatars, trainings } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError, badRequest } from '../../platform/http/errors';
import { escapeLikePattern } from '../../platform/http/like-pattern';
import { requireAvatar } from './avatar-scope';
import { sharedPublicly } from '../avatars';
import { requireUserAiKey } from '../users';
import { pollDeadline, sendTrainingJob, announceTraining } from './job';
import { isActive, trainingPolicy, type TrainingRow } from './policy';
import { readProviderState } from './provider';
import { userKeyClient } from '../../platform/ai/user-key-client';
import { buildTrainingExamples, toJsonl, trainingFileProblem } from './training-file';

interface Scope {
  actor: Actor;
  db: Db;
}

const busy = () => new AppError(409, 'training_busy', 'training_busy');
const notFinished = () => new AppError(409, 'training_not_finished', 'training_not_finished');

/** One page of the trainings in `scope`, filtered by the list query, newest `order` first, with the total. */
async function pageOfTrainings(db: Db, scope: SQL, order: AnyPgColumn, query: ListTrainingsQuery): Promise<{ rows: TrainingRow[]; total: number }> {
  const filters: SQL[] = [scope];
  if (query.avatar_id) filters.push(eq(trainings.avatarId, query.avatar_id));
  if (query.query) filters.push(ilike(trainings.name, `%${escapeLikePattern(query.query)}%`));
  const rows = await db
    .select()
    .from(trainings)
    .where(and(...filters))
    .orderBy(desc(order), desc(trainings.trainingId))
    .limit(query.limit)
    .offset(query.offset);
  const [{ total }] = await db
    .select({ total: count() })
    .from(trainings)
    .where(and(...filters));
  return { rows, total };
}

/** GET /trainings: the actor's own trainings in this context, optionally of one avatar, with search. */
export function listTrainings({ actor, db, query }: Scope & { query: ListTrainingsQuery }): Promise<{ rows: TrainingRow[]; total: number }> {
  return pageOfTrainings(db, trainingPolicy.visibleTo(actor), trainings.updatedAt, query);
}

/**
 * GET /trainings/public/all: finished trainings of public avatars — names only. Their models live in their
 * authors' provider accounts, so nothing more is shown, and each is still a 404 on every other route.
 */
export function listPublicTrainings({ db, query }: Scope & { query: ListTrainingsQuery }): Promise<{ rows: TrainingRow[]; total: number }> {
  const scope = and(eq(trainings.status, 'succeeded'), inArray(trainings.avatarId, db.select({ id: avatars.avatarId }).from(avatars).where(sharedPublicly())))!;
  return pageOfTrainings(db, scope, trainings.finishedAt, query);
}

export function getTraining({ actor, db, trainingId }: Scope & { trainingId: number }): Promise<TrainingRow> {
  return trainingPolicy.require(db, actor, trainingId);
}

/** POST /trainings: a draft training of one of the actor's own avatars (in this context). */
export async function createTraining({ actor, db, input }: Scope & { input: { avatar_id: number; name: string; base_model?: string } }): Promise<TrainingRow> {
  const avatar = await requireAvatar(db, actor, input.avatar_id);
  const [row] = await db
    .insert(trainings)
    .values({
      userId: actor.user.userId,
      organizationId: actor.organization?.organizationId ?? null,
      avatarId: avatar.avatarId,
      name: input.name,
      baseModel: input.base_model ?? DEFAULT_TRAINING_BASE_MODEL,
    })
    .returning();
  return row;
}

/** PUT /trainings: rename, and select (or unselect) a finished training's model for its avatar. */
export async function updateTraining({ actor, db, input }: Scope & { input: { training_id: number; name?: string; selected?: boolean } }): Promise<TrainingRow> {
  const current = await trainingPolicy.require(db, actor, input.training_id);
  if (input.selected === true && !trainingPolicy.can(actor, 'select', current)) throw notFinished();
  const row = await db.transaction(async (tx) => {
    if (input.selected === true) {
      await tx
        .update(trainings)
        .set({ selected: false })
        .where(and(eq(trainings.avatarId, current.avatarId), eq(trainings.selected, true), ne(trainings.trainingId, current.trainingId)));
    }
    const changes: Partial<typeof trainings.$inferInsert> = { updatedAt: new Date() };
    if (input.name !== undefined) changes.name = input.name;
    if (input.selected !== undefined) changes.selected = input.selected;
    const [updated] = await tx.update(trainings).set(changes).where(eq(trainings.trainingId, current.trainingId)).returning();
    return updated;
  });
  return row;
}

/**
 * Builds and checks the training file, stores it, and queues the job. `model` is the model tuned: the base
 * model (execute) or the training's fine-tuned model (refine: a further run on top of it with what the
 * avatar has now — new files, newly liked outputs).
 */
async function startRun(ctx: AppContext, actor: Actor, current: TrainingRow, model: string): Promise<TrainingRow> {
  const avatar = await requireAvatar(ctx.db, actor, current.avatarId);
  const examples = await buildTrainingExamples({ ctx, avatar, userId: actor.user.userId });
  const jsonl = toJsonl(examples);
  const problem = trainingFileProblem(jsonl);
  if (problem) {
    throw badRequest('training_too_few_examples', { training_file: 'training_too_few_examples' }, { min: String(MIN_TRAINING_EXAMPLES), count: String(problem.count) });
  }
  if (!ctx.services.storage) throw new Error('storage service is not configured');
  const now = new Date();
  const file = `training-${current.trainingId}-${now.getTime()}.jsonl`;
  const fileKey = `trainings/${current.userId}/${file}`;
  await ctx.services.storage.put(fileKey, Buffer.from(jsonl, 'utf8'), 'application/jsonl');
  // Claimed only from the status the actor saw: two clicks start one run.
  const [row] = await ctx.db
    .update(trainings)
    .set({
      baseModel: model,
      status: 'queued',
      progress: 0,
      file,
      fileKey,
      examples: examples.length,
      fileId: null,
      providerJobId: null,
      errorCode: null,
      errorMessage: null,
      polling: true,
      deadlineAt: pollDeadline(now),
      startedAt: now,
      finishedAt: null,
      updatedAt: now,
    })
    .where(and(eq(trainings.trainingId, current.trainingId), eq(trainings.status, current.status)))
    .returning();
  if (!row) {
    await ctx.services.storage.delete(fileKey).catch(() => undefined);
    throw busy();
  }
  if (current.fileKey) await ctx.services.storage.delete(current.fileKey).catch(() => undefined);
  announceTraining(ctx, row);
  await sendTrainingJob(ctx, row.trainingId);
  return row;
}

/** POST /trainings/execute: a draft (or failed, or cancelled) training starts (the web shows the cost note first). */
export async function executeTraining({ ctx, actor, trainingId }: { ctx: AppContext; actor: Actor; trainingId: number }): Promise<TrainingRow> {
  const current = await trainingPolicy.require(ctx.db, actor, trainingId);
  if (isActive(current.status)) throw busy();
  if (!trainingPolicy.can(actor, 'execute', current)) throw notFinished();
  // A failed refine runs again on the model it was refining (base_model holds it).
  return startRun(ctx, actor, current, current.baseModel);
}

/** POST /trainings/refine: a finished training is tuned further with what the avatar has now. */
export async function refineTraining({ ctx, actor, trainingId }: { ctx: AppContext; actor: Actor; trainingId: number }): Promise<TrainingRow> {
  const current = await trainingPolicy.require(ctx.db, actor, trainingId);
  if (isActive(current.status)) throw busy();
  if (!trainingPolicy.can(actor, 'refine', current) || !current.fineTunedModel) throw notFinished();
  return startRun(ctx, actor, current, current.fineTunedModel);
}

/**
 * POST /trainings/sync: reads the provider's job now; one still running there is polled again (another 15
 * minutes) when no job polls it.
 */
export async function syncTraining({ ctx, actor, trainingId }: { ctx: AppContext; actor: Actor; trainingId: number }): Promise<TrainingRow> {
  const current = await trainingPolicy.require(ctx.db, actor, trainingId);
  if (!current.providerJobId) {
    // Nothing at the provider yet: a queued run is (re)polled, a draft has nothing to sync.
    if (!isActive(current.status)) return current;
    const [row] = await ctx.db.update(trainings).set({ polling: true, deadlineAt: pollDeadline(), updatedAt: new Date() }).where(eq(trainings.trainingId, current.trainingId)).returning();
    await sendTrainingJob(ctx, row.trainingId);
    return row;
  }
  const client = userKeyClient(ctx, await requireUserAiKey(ctx, actor.user.userId));
  const state = await readProviderState(client, current.providerJobId);
  const active = isActive(state.status);
  const [row] = await ctx.db
    .update(trainings)
    .set({
      status: state.status,
      progress: state.progress,
      fineTunedModel: state.fineTunedModel ?? current.fineTunedModel,
      errorCode: state.error?.code ?? null,
      errorMessage: state.error?.message ?? null,
      finishedAt: active ? null : (state.finishedAt ?? new Date()),
      polling: active,
      deadlineAt: active ? pollDeadline() : current.deadlineAt,
      updatedAt: new Date(),
    })
    .where(eq(trainings.trainingId, current.trainingId))
    .returning();
  announceTraining(ctx, row);
  if (active) await sendTrainingJob(ctx, row.trainingId);
  return row;
}

/**
 * DELETE /trainings/{id}: a running provider job is cancelled and the uploaded file deleted there (best
 * effort: the row goes either way). The fine-tuned model stays in the user's provider account.
 */
export async function deleteTraining({ ctx, actor, trainingId }: { ctx: AppContext; actor: Actor; trainingId: number }): Promise<void> {
  const current = await trainingPolicy.require(ctx.db, actor, trainingId);
  await ctx.db.delete(trainings).where(eq(trainings.trainingId, current.trainingId));
  if (current.fileKey) await ctx.services.storage?.delete(current.fileKey).catch(() => undefined);
  if (!current.providerJobId && !current.fileId) return;
  const apiKey = await requireUserAiKey(ctx, actor.user.userId).catch(() => null);
  if (!apiKey) return;
  const client = userKeyClient(ctx, apiKey);
  if (current.providerJobId && isActive(current.status)) await client.fineTuning.jobs.cancel(current.providerJobId).catch(() => undefined);
  if (current.fileId) await client.files.delete(current.fileId).catch(() => undefined);
}

/**
 * The model an avatar answers with for the actor: their own selected, finished training of it (else null).
 * Only the actor's own trainings count: a public avatar used by someone else answers with its base model.
 */
export async function selectedTrainingModel({ actor, db, avatarId }: { actor: Actor; db: Db; avatarId: number }): Promise<{ trainingId: number; model: string } | null> {
  const userId = actor.user.userId;
  const [row] = await db
    .select({ trainingId: trainings.trainingId, model: trainings.fineTunedModel })
    .from(trainings)
    .where(and(eq(trainings.avatarId, avatarId), eq(trainings.userId, userId), eq(trainings.selected, true), isNotNull(trainings.fineTunedModel)))
    .limit(1);
  return row?.model ? { trainingId: row.trainingId, model: row.model } : null;
}
