// Files are read in worker threads, never on the server's event loop (issue 27: one .docx froze /api/health
// for 15 s and crashed the process out of memory). A few workers at most, each with a bounded heap
// (`resourceLimits`), a wall-time limit after which the worker is terminated, and a short queue behind them;
// one pool per process, shared by indexing jobs and requests (Super Fetch, documents' tools).
import { INGESTION_LIMITS, type IngestionFailure } from '@pluma/common/ingestion';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FileReadFailure } from './failure';
import type { ReadChunks, ReadJob, ReadReply, ReadText } from './worker';

export interface IngestionPoolOptions {
  /** Time one read may take in its worker (start-up included) before the worker is terminated. */
  timeLimitMs: number;
  /** Heap of each worker (old generation); a file that needs more fails as too_much_memory. */
  heapMb: number;
  /** Workers reading at the same time. */
  maxWorkers: number;
  /** Reads waiting for a worker; one more is refused (IngestionBusyError). */
  maxQueued: number;
  /** An idle worker is stopped after this long. */
  idleMs: number;
}

/** What every read uses, read at each read (tests change them for a while). */
export const ingestionPoolDefaults: IngestionPoolOptions = {
  timeLimitMs: INGESTION_LIMITS.timeLimitMs,
  heapMb: INGESTION_LIMITS.heapMb,
  // Leave a core to the event loop: reads wait rather than slow every other request.
  maxWorkers: Math.max(1, Math.min(2, availableParallelism() - 1)),
  maxQueued: 16,
  idleMs: 30_000,
};

export class IngestionBusyError extends Error {
  constructor() {
    super('too many files are being read');
    this.name = 'IngestionBusyError';
  }
}

function workerFile(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // dist/main.js → dist/ingestion-worker.js (build.mjs); from source, the .ts entry through tsx.
  const built = path.join(here, 'ingestion-worker.js');
  return existsSync(built) ? built : path.join(here, 'worker-dev.mjs');
}

type Result = ReadText | ReadChunks;

interface Pending {
  job: ReadJob;
  resolve: (result: Result) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Pending | null;
  timer?: NodeJS.Timeout;
}

const slots = new Set<Slot>();
const queue: Pending[] = [];
let nextId = 0;

const failure = (reason: IngestionFailure, detail: string) => new FileReadFailure(reason, detail);

function retire(slot: Slot) {
  clearTimeout(slot.timer);
  slots.delete(slot);
  void slot.worker.terminate();
}

function finish(slot: Slot) {
  clearTimeout(slot.timer);
  slot.pending = null;
  slot.worker.unref();
  slot.timer = setTimeout(() => retire(slot), ingestionPoolDefaults.idleMs);
  slot.timer.unref();
  dispatch();
}

function fail(slot: Slot, err: Error) {
  const pending = slot.pending;
  slot.pending = null;
  retire(slot);
  pending?.reject(err);
  dispatch();
}

function spawn(): Slot {
  const { heapMb } = ingestionPoolDefaults;
  const worker = new Worker(workerFile(), {
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(16, Math.round(heapMb / 8))) },
  });
  const slot: Slot = { worker, pending: null };
  worker.on('message', (reply: ReadReply) => {
    const pending = slot.pending;
    if (!pending || pending.job.id !== reply.id) return;
    finish(slot);
    if ('ok' in reply) pending.resolve(reply.ok);
    else pending.reject(failure(reply.failure, reply.detail));
  });
  // Out of memory means the file asked too much; anything else is a fault of ours, reported as such.
  worker.on('error', (err: Error & { code?: string }) =>
    fail(slot, err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? failure('too_much_memory', err.message) : err),
  );
  worker.on('exit', (code) => {
    if (slots.has(slot)) fail(slot, failure('too_much_memory', `the reading worker stopped (exit code ${code})`));
  });
  slots.add(slot);
  return slot;
}

function start(slot: Slot, pending: Pending) {
  clearTimeout(slot.timer);
  slot.pending = pending;
  slot.worker.ref();
  slot.timer = setTimeout(() => fail(slot, failure('too_slow', `more than ${ingestionPoolDefaults.timeLimitMs} ms`)), ingestionPoolDefaults.timeLimitMs);
  // The bytes are a copy of their own, moved to the worker (never a pooled Buffer's memory).
  const bytes = new Uint8Array(pending.job.bytes);
  slot.worker.postMessage({ ...pending.job, bytes } satisfies ReadJob, [bytes.buffer]);
}

function dispatch() {
  while (queue.length) {
    const idle = [...slots].find((slot) => slot.pending === null);
    const slot = idle ?? (slots.size < ingestionPoolDefaults.maxWorkers ? spawn() : null);
    if (!slot) return;
    start(slot, queue.shift() as Pending);
  }
}

/** Reads one file in a worker: resolves with its text or chunks, rejects with FileReadFailure or IngestionBusyError. */
export function readInWorker(job: Omit<ReadJob, 'id'>): Promise<Result> {
  const busy = [...slots].filter((slot) => slot.pending !== null).length;
  if (busy >= ingestionPoolDefaults.maxWorkers && queue.length >= ingestionPoolDefaults.maxQueued) return Promise.reject(new IngestionBusyError());
  return new Promise<Result>((resolve, reject) => {
    queue.push({ job: { ...job, id: ++nextId }, resolve, reject });
    dispatch();
  });
}

/** Workers alive now (tests: an idle pool keeps none running a file). */
export function ingestionWorkersBusy(): number {
  return [...slots].filter((slot) => slot.pending !== null).length;
}
