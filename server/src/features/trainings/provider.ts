// The provider side of a training, through the official `openai` SDK on the user's OWN key (spec part 1 §1:
// training is billed to their account): upload the JSONL, create the fine-tuning job, read its state and
// its progress (the newest `metrics` event's step / total_steps), cancel, delete the file.
import type { TrainingStatus } from '@pluma/common/trainings';
import OpenAI, { toFile } from 'openai';

export type ProviderJob = OpenAI.FineTuning.Jobs.FineTuningJob;

export async function uploadTrainingFile(client: OpenAI, name: string, jsonl: Buffer): Promise<string> {
  const file = await client.files.create({ file: await toFile(jsonl, name), purpose: 'fine-tune' });
  return file.id;
}

/** OpenAI's suffix: up to 64 characters of [a-z0-9-]. */
export function modelSuffix(name: string, trainingId: number): string {
  const slug = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
  return `${slug || 'avatar'}-${trainingId}`;
}

const STATUSES: Record<string, TrainingStatus> = {
  validating_files: 'validating_files',
  queued: 'queued',
  running: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
};

export interface ProviderState {
  status: TrainingStatus;
  progress: number;
  fineTunedModel: string | null;
  error: { code: string; message: string } | null;
  finishedAt: Date | null;
}

/** The job's state and a percent: a few points while validating and queued, then the training steps. */
export async function readProviderState(client: OpenAI, jobId: string): Promise<ProviderState> {
  const job = await client.fineTuning.jobs.retrieve(jobId);
  const status = STATUSES[job.status] ?? 'running';
  let progress = status === 'validating_files' ? 3 : status === 'queued' ? 6 : status === 'succeeded' ? 100 : 0;
  if (status === 'running' || status === 'failed' || status === 'cancelled') {
    const events = await client.fineTuning.jobs.listEvents(jobId, { limit: 20 });
    const metrics = events.data.find((e) => e.type === 'metrics' && e.data && typeof (e.data as { step?: unknown }).step === 'number');
    const data = metrics?.data as { step?: number; total_steps?: number } | undefined;
    progress = data?.step && data.total_steps ? 10 + Math.round((85 * data.step) / data.total_steps) : 10;
  }
  return {
    status,
    progress: Math.min(100, progress),
    fineTunedModel: job.fine_tuned_model ?? null,
    error: job.error && job.status === 'failed' ? { code: job.error.code || 'fine_tune_failed', message: job.error.message || 'The fine-tuning job failed.' } : null,
    finishedAt: job.finished_at ? new Date(job.finished_at * 1000) : null,
  };
}
