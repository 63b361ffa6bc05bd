// The training job (issue 13 item 4; spec part 2 §9: up to 15 minutes): jobs of the queue (pg-boss) that
// upload the training file, start the provider's fine-tuning job and poll it until it ends or the deadline
// passes, saving each step on the training row and pushing it live to the owner (`training` event).
// One job is one poll and a pause; it then queues the next one (one per training: the singleton key), so a
// node's worker takes turns between trainings instead of being held by one for 15 minutes.
// Everything it needs is on the row, so it survives a restart: when the app closes, a running job stops at
// once (its row keeps polling = true), and a starting app sends a job for every row still polling, which
// carries on where the old one was — the provider's job keeps running meanwhile. A crashed process's job is
// retried by pg-boss once it expires.
import { TRAINING_EVENT, TRAINING_POLL_MINUTES, type TrainingEventPayload } from '@pluma/common/trainings';
import { eq } from 'drizzle-orm';
import OpenAI from 'openai';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context';
import { trainings } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { requireUserAiKey } from '../users';
import { isActive, type TrainingRow } from './policy';
import { presentTraining } from './present';
import { modelSuffix, readProviderState, uploadTrainingFile } from './provider';
import { userKeyClient } from '../../platform/ai/user-key-client';

export const TRAINING_QUEUE = 'training-run';
/** How often a job asks the provider; tests make it short. */
export const trainingTiming = { pollMs: 5_000 };
export const pollDeadline = (from = new Date()) => new Date(from.getTime() + TRAINING_POLL_MINUTES * 60_000);

const stopping = new WeakMap<AppContext, AbortController>();
const stopSignal = (ctx: AppContext) => {
  let controller = stopping.get(ctx);
  if (!controller) stopping.set(ctx, (controller = new AbortController()));
  return controller.signal;
};

/** Called when the app closes: running jobs stop at once, their rows stay polling for the next start. */
export function stopTrainingJobs(ctx: AppContext): void {
  stopSignal(ctx);
  stopping.get(ctx)?.abort();
}

/** The owner as an actor, for the presenter's abilities (only the ids count there). */
const ownerOf = (row: TrainingRow) =>
  ({ user: { userId: row.userId }, staffRole: null, organization: row.organizationId ? { organizationId: row.organizationId } : null }) as unknown as Actor;

export function announceTraining(ctx: AppContext, row: TrainingRow): void {
  const payload: TrainingEventPayload = { training_id: row.trainingId, avatar_id: row.avatarId, status: row.status as TrainingEventPayload['status'], progress: row.progress, training: presentTraining(ownerOf(row), row) };
  ctx.services.realtime?.emitToUser(row.userId, TRAINING_EVENT, payload);
}

async function save(ctx: AppContext, trainingId: number, changes: Partial<typeof trainings.$inferInsert>): Promise<TrainingRow | null> {
  const [row] = await ctx.db
    .update(trainings)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(trainings.trainingId, trainingId))
    .returning();
  if (row) announceTraining(ctx, row);
  return row ?? null;
}

/** Queues the polling job of a training (none while one is waiting or running for it). */
export async function sendTrainingJob(ctx: AppContext, trainingId: number): Promise<string | null> {
  const jobs = ctx.services.jobs;
  if (!jobs) throw new Error('job service is not running');
  return jobs.send(TRAINING_QUEUE, { trainingId }, { singletonKey: `training-${trainingId}` });
}

/** The next poll's job, once this one has completed (its singleton key is free again). */
function queueNextPoll(ctx: AppContext, trainingId: number, signal: AbortSignal): void {
  const attempt = async () => {
    for (let i = 0; i < 50 && !signal.aborted; i++) {
      if (await sendTrainingJob(ctx, trainingId)) return;
      await sleep(100, signal);
    }
  };
  // In the background: the row stays polling, so a failure here is picked up by the next start or sync.
  setTimeout(() => void attempt().catch(() => undefined), 20);
}

async function readAll(body: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** A refusal the provider will repeat (bad key, bad file): the training fails with the provider's words. */
const refused = (err: unknown): err is InstanceType<typeof OpenAI.APIError> =>
  err instanceof OpenAI.APIError && err.status !== undefined && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429;

async function failTraining(ctx: AppContext, row: TrainingRow, code: string, message: string) {
  await save(ctx, row.trainingId, { status: 'failed', polling: false, errorCode: code, errorMessage: message, finishedAt: new Date() });
}

export async function runTrainingJob(ctx: AppContext, data: Record<string, unknown>): Promise<{ status: string }> {
  const trainingId = Number(data.trainingId);
  const signal = stopSignal(ctx);
  // Upload, create and the first poll may follow each other in one run; then a pause and the next job.
  for (let step = 0; step < 3; step++) {
    if (signal.aborted) return { status: 'paused' };
    const [row] = await ctx.db.select().from(trainings).where(eq(trainings.trainingId, trainingId)).limit(1);
    // Deleted, or ended (a sync or another node did it): nothing to do.
    if (!row || !row.polling) return { status: 'gone' };
    if (row.deadlineAt && Date.now() > row.deadlineAt.getTime()) {
      await save(ctx, trainingId, { polling: false });
      return { status: 'deadline' };
    }
    let apiKey: string;
    try {
      apiKey = await requireUserAiKey(ctx, row.userId);
    } catch {
      await failTraining(ctx, row, 'ai_key_required', 'The AI key this training runs on was removed.');
      return { status: 'failed' };
    }
    const client = userKeyClient(ctx, apiKey);
    try {
      if (!row.fileId) {
        if (!row.fileKey || !row.file || !ctx.services.storage) throw new Error(`training ${trainingId} has no stored file`);
        const jsonl = await readAll(await ctx.services.storage.get(row.fileKey));
        const fileId = await uploadTrainingFile(client, row.file, jsonl);
        await save(ctx, trainingId, { fileId, status: 'validating_files', progress: 2 });
        continue;
      }
      if (!row.providerJobId) {
        const job = await client.fineTuning.jobs.create({ model: row.baseModel, training_file: row.fileId, suffix: modelSuffix(row.name, trainingId) });
        await save(ctx, trainingId, { providerJobId: job.id, status: 'validating_files', progress: 3 });
        continue;
      }
      const state = await readProviderState(client, row.providerJobId);
      const ended = !isActive(state.status);
      const changed = state.status !== row.status || state.progress !== row.progress || ended;
      if (changed) {
        await save(ctx, trainingId, {
          status: state.status,
          progress: state.progress,
          // A refine keeps the previous model until the new one is there.
          fineTunedModel: state.fineTunedModel ?? row.fineTunedModel,
          errorCode: state.error?.code ?? null,
          errorMessage: state.error?.message ?? null,
          finishedAt: ended ? (state.finishedAt ?? new Date()) : null,
          polling: !ended,
        });
      }
      if (ended) return { status: state.status };
      break;
    } catch (err) {
      if (refused(err)) {
        await failTraining(ctx, row, String(err.code ?? err.type ?? `provider_${err.status}`), err.message);
        return { status: 'failed' };
      }
      // The provider or the network hiccuped: pg-boss tries this job again (its retry limit and delay).
      throw err;
    }
  }
  await sleep(trainingTiming.pollMs, signal);
  if (signal.aborted) return { status: 'paused' };
  queueNextPoll(ctx, trainingId, signal);
  return { status: 'polling' };
}

/** Registers the worker and resumes what a previous process left polling (called when the routes load). */
export async function startTrainingWorker(ctx: AppContext): Promise<void> {
  const jobs = ctx.services.jobs;
  if (!jobs) return;
  await jobs.work(TRAINING_QUEUE, (data) => runTrainingJob(ctx, data));
  const left = await ctx.db.select({ trainingId: trainings.trainingId }).from(trainings).where(eq(trainings.polling, true));
  for (const { trainingId } of left) await sendTrainingJob(ctx, trainingId);
}
