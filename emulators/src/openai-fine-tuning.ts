// OpenAI's Files and Fine-tuning APIs (issue 13 item 8), so the trainings feature runs its real code (the
// official SDK's files.create, fineTuning.jobs.create / retrieve / listEvents / cancel) offline:
//   POST /v1/files (multipart: file, purpose), GET and DELETE /v1/files/{id}
//   POST /v1/fine_tuning/jobs, GET /v1/fine_tuning/jobs[/{id}], GET .../{id}/events, POST .../{id}/cancel
// A job moves with the clock: validating_files (first 10% of its duration), queued (to 20%), running (steps
// reported as `metrics` events with step / total_steps), then succeeded with `fine_tuned_model`. The file is
// validated as OpenAI does (JSON lines with `messages` and an assistant turn, at least 10 examples), and a
// bad one fails the job with `invalid_training_file`. On demand, from the training file's text:
//   [fine-tune:fail]      the job fails while running (error code `fine_tune_failed`)
//   [fine-tune:ms=NNNN]   the job takes NNNN ms in all (default 4000)
// Files and jobs belong to the API key that made them: another key gets OpenAI's 404.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomId, sendJson } from './http-kit';

/** OpenAI's minimum number of training examples. */
export const MIN_FINE_TUNE_EXAMPLES = 10;
const DEFAULT_DURATION_MS = 4000;
const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** The base models OpenAI fine-tunes (a fine-tuned `ft:` model may be tuned further). */
export const FINE_TUNABLE_MODELS = ['gpt-4o-mini-2024-07-18', 'gpt-4o-2024-08-06', 'gpt-4.1-mini-2025-04-14', 'gpt-4.1-2025-04-14', 'gpt-3.5-turbo-0125'];

type Fail = (res: ServerResponse, status: number, detail?: { message?: string; model?: string }) => void;

interface StoredFile {
  id: string;
  owner: string;
  filename: string;
  purpose: string;
  bytes: number;
  createdAt: number;
  text: string;
}

interface Job {
  id: string;
  owner: string;
  model: string;
  trainingFile: string;
  suffix: string | null;
  createdAt: number;
  durationMs: number;
  totalSteps: number;
  trainedTokens: number;
  /** Set when the file is invalid (fails after validation) or `[fine-tune:fail]` (fails while running). */
  failure: { at: 'validation' | 'running'; code: string; message: string } | null;
  cancelledAt: number | null;
  modelName: string;
}

type Status = 'validating_files' | 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

const seconds = (ms: number) => Math.floor(ms / 1000);

/** OpenAI's checks of a fine-tuning file (chat format): the first problem found, or the examples counted. */
export function checkTrainingFile(text: string): { examples: number; tokens: number; problem: string | null } {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  let tokens = 0;
  for (const [index, line] of lines.entries()) {
    let example: unknown;
    try {
      example = JSON.parse(line);
    } catch {
      return { examples: 0, tokens, problem: `Invalid file format. Line ${index + 1} is not valid JSON.` };
    }
    const messages = (example as { messages?: unknown })?.messages;
    if (!Array.isArray(messages) || messages.length === 0) {
      return { examples: 0, tokens, problem: `Invalid file format. Example ${index + 1} is missing key "messages".` };
    }
    for (const message of messages as { role?: unknown; content?: unknown }[]) {
      if (!['system', 'user', 'assistant'].includes(String(message?.role)) || typeof message?.content !== 'string') {
        return { examples: 0, tokens, problem: `Invalid file format. Example ${index + 1} has a message without a valid role and content.` };
      }
      tokens += Math.ceil(message.content.length / 4);
    }
    if (!messages.some((m: { role?: unknown }) => m?.role === 'assistant')) {
      return { examples: 0, tokens, problem: `Invalid file format. Example ${index + 1} has no assistant message.` };
    }
  }
  if (lines.length < MIN_FINE_TUNE_EXAMPLES) {
    return { examples: lines.length, tokens, problem: `Training file has ${lines.length} example(s), but must have at least ${MIN_FINE_TUNE_EXAMPLES} examples` };
  }
  return { examples: lines.length, tokens, problem: null };
}

async function readRaw(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FILE_BYTES + 64 * 1024) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function createFineTuning(fail: Fail) {
  const files = new Map<string, StoredFile>();
  const jobs = new Map<string, Job>();

  const statusAt = (job: Job, now: number): { status: Status; step: number; finishedAt: number | null } => {
    const elapsed = now - job.createdAt;
    const at = (share: number) => job.createdAt + job.durationMs * share;
    if (job.cancelledAt !== null) return { status: 'cancelled', step: 0, finishedAt: job.cancelledAt };
    if (elapsed < job.durationMs * 0.1) return { status: 'validating_files', step: 0, finishedAt: null };
    if (job.failure?.at === 'validation') return { status: 'failed', step: 0, finishedAt: at(0.1) };
    if (elapsed < job.durationMs * 0.2) return { status: 'queued', step: 0, finishedAt: null };
    const runShare = Math.min(1, (elapsed - job.durationMs * 0.2) / (job.durationMs * 0.8));
    const step = Math.floor(runShare * job.totalSteps);
    if (job.failure?.at === 'running' && runShare >= 0.5) return { status: 'failed', step: Math.floor(job.totalSteps / 2), finishedAt: at(0.6) };
    if (elapsed < job.durationMs) return { status: 'running', step, finishedAt: null };
    return { status: 'succeeded', step: job.totalSteps, finishedAt: at(1) };
  };

  const jobJson = (job: Job, now = Date.now()) => {
    const { status, finishedAt } = statusAt(job, now);
    const failed = status === 'failed' && job.failure;
    return {
      object: 'fine_tuning.job',
      id: job.id,
      model: job.model,
      created_at: seconds(job.createdAt),
      finished_at: finishedAt === null ? null : seconds(finishedAt),
      fine_tuned_model: status === 'succeeded' ? job.modelName : null,
      organization_id: 'org-pluma-emulator',
      result_files: status === 'succeeded' ? [`file-result-${job.id.slice(-8)}`] : [],
      status,
      validation_file: null,
      training_file: job.trainingFile,
      hyperparameters: { n_epochs: 3, batch_size: 1, learning_rate_multiplier: 1.8 },
      trained_tokens: status === 'succeeded' ? job.trainedTokens : null,
      error: failed ? { code: job.failure!.code, message: job.failure!.message, param: job.failure!.at === 'validation' ? 'training_file' : null } : null,
      seed: 42,
      estimated_finish: finishedAt === null ? seconds(job.createdAt + job.durationMs) : null,
      integrations: [],
      user_provided_suffix: job.suffix,
      method: { type: 'supervised' },
      metadata: null,
    };
  };

  /** The job's events so far, oldest first (OpenAI lists them newest first). */
  const eventsOf = (job: Job, now = Date.now()) => {
    const { status, step, finishedAt } = statusAt(job, now);
    const events: { level: string; message: string; type: 'message' | 'metrics'; at: number; data: Record<string, unknown> | null }[] = [];
    const add = (at: number, message: string, level = 'info', type: 'message' | 'metrics' = 'message', data: Record<string, unknown> | null = null) =>
      events.push({ level, message, type, at, data });
    add(job.createdAt, `Created fine-tuning job: ${job.id}`);
    add(job.createdAt, `Validating training file: ${job.trainingFile}`);
    if (status !== 'validating_files' && job.failure?.at !== 'validation' && job.cancelledAt === null) {
      add(job.createdAt + job.durationMs * 0.1, 'Files validated, moving job to queued state');
      if (status !== 'queued') add(job.createdAt + job.durationMs * 0.2, 'Fine-tuning job started');
      for (let s = 1; s <= step; s++) {
        const loss = Number((2.5 / (1 + s / 3)).toFixed(4));
        add(job.createdAt + job.durationMs * (0.2 + (0.8 * s) / job.totalSteps), `Step ${s}/${job.totalSteps}: training loss=${loss}`, 'info', 'metrics', {
          step: s,
          total_steps: job.totalSteps,
          train_loss: loss,
        });
      }
    }
    if (status === 'succeeded') {
      add(finishedAt!, `New fine-tuned model created: ${job.modelName}`);
      add(finishedAt!, 'The job has successfully completed');
    }
    if (status === 'failed' && job.failure) add(finishedAt!, job.failure.message, 'error');
    if (status === 'cancelled') add(finishedAt!, 'Fine-tuning job cancelled', 'warn');
    return events.map((e, index) => ({
      object: 'fine_tuning.job.event',
      id: `ftevent-${job.id.slice(-12)}-${index}`,
      created_at: seconds(e.at),
      level: e.level,
      message: e.message,
      type: e.type,
      data: e.data ?? {},
    }));
  };

  const fileJson = (file: StoredFile) => ({
    object: 'file',
    id: file.id,
    bytes: file.bytes,
    created_at: seconds(file.createdAt),
    filename: file.filename,
    purpose: file.purpose,
    status: 'processed',
    status_details: null,
  });

  const noFile = (res: ServerResponse, id: string) => fail(res, 404, { message: `No such File object: ${id}` });
  const noJob = (res: ServerResponse, id: string) => fail(res, 404, { message: `Could not find fine-tune: ${id}` });

  async function uploadFile(req: IncomingMessage, res: ServerResponse, owner: string) {
    const raw = await readRaw(req);
    if (!raw) return fail(res, 413, { message: 'File is too large.' });
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(raw), { headers: { 'content-type': String(req.headers['content-type'] ?? '') } }).formData();
    } catch {
      return fail(res, 400, { message: "Invalid 'file': expected a multipart/form-data upload." });
    }
    const purpose = form.get('purpose');
    const file = form.get('file');
    if (typeof purpose !== 'string' || !purpose) return fail(res, 400, { message: "Missing required parameter: 'purpose'." });
    if (!file || typeof file === 'string') return fail(res, 400, { message: "Missing required parameter: 'file'." });
    const text = await file.text();
    if (purpose === 'fine-tune' && !/\.jsonl$/i.test(file.name)) {
      return fail(res, 400, { message: `Invalid file format for Fine-Tuning API. Must be .jsonl` });
    }
    const stored: StoredFile = { id: randomId('file-'), owner, filename: file.name, purpose, bytes: file.size, createdAt: Date.now(), text };
    files.set(stored.id, stored);
    sendJson(res, 200, fileJson(stored));
  }

  async function createJob(body: Record<string, unknown>, res: ServerResponse, owner: string) {
    const model = typeof body.model === 'string' ? body.model : '';
    const trainingFile = typeof body.training_file === 'string' ? body.training_file : '';
    if (!model) return fail(res, 400, { message: "Missing required parameter: 'model'." });
    if (!trainingFile) return fail(res, 400, { message: "Missing required parameter: 'training_file'." });
    if (!FINE_TUNABLE_MODELS.includes(model) && !model.startsWith('ft:')) {
      return fail(res, 400, { message: `Model ${model} is not available for fine-tuning or does not exist.` });
    }
    const file = files.get(trainingFile);
    if (!file || file.owner !== owner) return fail(res, 400, { message: `invalid training_file: ${trainingFile}` });
    if (file.purpose !== 'fine-tune') return fail(res, 400, { message: `File ${trainingFile} has purpose '${file.purpose}', expected 'fine-tune'.` });
    const suffix = typeof body.suffix === 'string' && body.suffix ? body.suffix.slice(0, 64) : null;
    const checked = checkTrainingFile(file.text);
    const ms = /\[fine-tune:ms=(\d{1,7})\]/.exec(file.text);
    const failure = checked.problem
      ? { at: 'validation' as const, code: 'invalid_training_file', message: `The job failed due to an invalid training file. ${checked.problem}` }
      : file.text.includes('[fine-tune:fail]')
        ? { at: 'running' as const, code: 'fine_tune_failed', message: 'The job failed due to an internal error while training.' }
        : null;
    const id = randomId('ftjob-');
    const base = model.startsWith('ft:') ? model.split(':')[1] : model;
    const job: Job = {
      id,
      owner,
      model,
      trainingFile,
      suffix,
      createdAt: Date.now(),
      durationMs: ms ? Number(ms[1]) : DEFAULT_DURATION_MS,
      totalSteps: Math.max(3, Math.min(30, checked.examples * 3)),
      trainedTokens: checked.tokens * 3,
      failure,
      cancelledAt: null,
      modelName: `ft:${base}:pluma-emulator:${suffix ?? 'custom'}:${id.slice(-8)}`,
    };
    jobs.set(id, job);
    sendJson(res, 200, jobJson(job));
  }

  /** Answers a /v1/files or /v1/fine_tuning path after the caller has checked the key; false for other paths. */
  async function handle(req: IncomingMessage, res: ServerResponse, path: string, owner: string, readBody: () => Promise<Record<string, unknown> | null>): Promise<boolean> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://emulator');
    if (path === '/v1/files' && method === 'POST') return uploadFile(req, res, owner).then(() => true);
    if (path === '/v1/files' && method === 'GET') {
      sendJson(res, 200, { object: 'list', data: [...files.values()].filter((f) => f.owner === owner).map(fileJson), has_more: false });
      return true;
    }
    const fileMatch = /^\/v1\/files\/([^/]+)$/.exec(path);
    if (fileMatch) {
      const file = files.get(fileMatch[1]);
      if (!file || file.owner !== owner) return (noFile(res, fileMatch[1]), true);
      if (method === 'DELETE') {
        files.delete(file.id);
        sendJson(res, 200, { object: 'file', id: file.id, deleted: true });
      } else sendJson(res, 200, fileJson(file));
      return true;
    }
    if (path === '/v1/fine_tuning/jobs' && method === 'POST') {
      const body = await readBody();
      if (body) await createJob(body, res, owner);
      return true;
    }
    if (path === '/v1/fine_tuning/jobs' && method === 'GET') {
      const limit = Math.max(1, Math.min(100, Number(url.searchParams.get('limit') ?? 20) || 20));
      const own = [...jobs.values()].filter((j) => j.owner === owner).reverse();
      sendJson(res, 200, { object: 'list', data: own.slice(0, limit).map((j) => jobJson(j)), has_more: own.length > limit });
      return true;
    }
    const jobMatch = /^\/v1\/fine_tuning\/jobs\/([^/]+)(?:\/(events|cancel))?$/.exec(path);
    if (!jobMatch) return false;
    const job = jobs.get(jobMatch[1]);
    if (!job || job.owner !== owner) return (noJob(res, jobMatch[1]), true);
    if (jobMatch[2] === 'events' && method === 'GET') {
      const limit = Math.max(1, Math.min(100, Number(url.searchParams.get('limit') ?? 20) || 20));
      const all = eventsOf(job).reverse();
      const after = url.searchParams.get('after');
      const start = after ? all.findIndex((e) => e.id === after) + 1 : 0;
      const page = all.slice(start, start + limit);
      sendJson(res, 200, { object: 'list', data: page, has_more: start + limit < all.length });
      return true;
    }
    if (jobMatch[2] === 'cancel' && method === 'POST') {
      const { status } = statusAt(job, Date.now());
      if (status === 'succeeded' || status === 'failed' || status === 'cancelled') {
        fail(res, 400, { message: `Job ${job.id} has already completed and cannot be cancelled.` });
        return true;
      }
      job.cancelledAt = Date.now();
      sendJson(res, 200, jobJson(job));
      return true;
    }
    if (!jobMatch[2] && method === 'GET') {
      sendJson(res, 200, jobJson(job));
      return true;
    }
    return false;
  }

  /**
   * The key a fine-tuned model made here belongs to, once its job succeeded (OpenAI serves a fine-tuned model
   * only to its own organization); null for a name this emulator did not make.
   */
  function modelOwner(model: string, now = Date.now()): string | null {
    for (const job of jobs.values()) {
      if (job.modelName === model && statusAt(job, now).status === 'succeeded') return job.owner;
    }
    return null;
  }

  return { handle, modelOwner };
}
