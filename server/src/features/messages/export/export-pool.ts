// PDF and Word exports run in worker threads, never on the server's event loop (issue "No request may
// stall the server"): a few workers at most, a short queue behind them (503 export_busy beyond it), and a
// time limit after which the worker is terminated and the request gets 422 export_too_complex.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ErrorIds } from '@pluma/common/errors';
import { AppError } from '../../../platform/http/errors';
import type { ExportJob, ExportReply } from './export-worker';
import type { ExportFormat } from './render';

export interface ExportPoolOptions {
  /** Time one export may take in its worker (start-up included) before the worker is terminated. */
  timeLimitMs: number;
  /** Workers rendering at the same time. */
  maxWorkers: number;
  /** Exports waiting for a worker; one more is refused with 503. */
  maxQueued: number;
  /** An idle worker is stopped after this long (it holds pdfkit, docx and the parser in memory). */
  idleMs: number;
}

/** The options every pool reads at each export (tests change them for a while). */
export const exportPoolDefaults: ExportPoolOptions = {
  timeLimitMs: 20_000,
  // Leave a core to the event loop: exports wait rather than slow every other request.
  maxWorkers: Math.max(1, Math.min(4, availableParallelism() - 1)),
  maxQueued: 8,
  idleMs: 30_000,
};

/** A worker's heap is bounded too: an input that needs more is "too complex" rather than a crash. */
const WORKER_HEAP_MB = 512;

export const exportTooComplex = () => new AppError(422, ErrorIds.exportTooComplex, 'export_too_complex');
export const exportBusy = () => new AppError(503, ErrorIds.exportBusy, 'export_busy');

function workerFile(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // dist/main.js → dist/export-worker.js (build.mjs); from source, the .ts entry through tsx.
  const built = path.join(here, 'export-worker.js');
  return existsSync(built) ? built : path.join(here, 'export-worker-dev.mjs');
}

interface Job extends ExportJob {
  resolve: (bytes: Buffer) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer?: NodeJS.Timeout;
}

export interface ExportPool {
  render(format: ExportFormat, text: string): Promise<Buffer>;
  close(): Promise<void>;
}

export function createExportPool(options: ExportPoolOptions = exportPoolDefaults): ExportPool {
  const slots = new Set<Slot>();
  const queue: Job[] = [];
  let nextId = 0;
  let closed = false;

  const retire = (slot: Slot) => {
    clearTimeout(slot.timer);
    slots.delete(slot);
    void slot.worker.terminate();
  };

  const finish = (slot: Slot) => {
    clearTimeout(slot.timer);
    slot.job = null;
    slot.worker.unref();
    slot.timer = setTimeout(() => retire(slot), options.idleMs);
    slot.timer.unref();
    dispatch();
  };

  const fail = (slot: Slot, err: Error) => {
    const job = slot.job;
    slot.job = null;
    retire(slot);
    job?.reject(err);
    dispatch();
  };

  function spawn(): Slot {
    const worker = new Worker(workerFile(), { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    const slot: Slot = { worker, job: null };
    worker.on('message', (reply: ExportReply) => {
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      finish(slot);
      if ('bytes' in reply) job.resolve(Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength));
      else job.reject(new Error(`export failed: ${reply.error}`));
    });
    // Out of memory (ERR_WORKER_OUT_OF_MEMORY) means the input asked too much; anything else is a fault.
    worker.on('error', (err: Error & { code?: string }) => fail(slot, err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? exportTooComplex() : err));
    worker.on('exit', (code) => {
      if (slots.has(slot)) fail(slot, new Error(`the export worker stopped (exit code ${code})`));
    });
    slots.add(slot);
    return slot;
  }

  function start(slot: Slot, job: Job) {
    clearTimeout(slot.timer);
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => fail(slot, exportTooComplex()), options.timeLimitMs);
    slot.worker.postMessage({ id: job.id, format: job.format, text: job.text } satisfies ExportJob);
  }

  function dispatch() {
    while (queue.length && !closed) {
      const idle = [...slots].find((slot) => slot.job === null);
      const slot = idle ?? (slots.size < options.maxWorkers ? spawn() : null);
      if (!slot) return;
      start(slot, queue.shift() as Job);
    }
  }

  return {
    render(format, text) {
      const busy = [...slots].filter((slot) => slot.job !== null).length;
      if (closed || (busy >= options.maxWorkers && queue.length >= options.maxQueued)) return Promise.reject(exportBusy());
      return new Promise<Buffer>((resolve, reject) => {
        queue.push({ id: ++nextId, format, text, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(exportBusy());
      const stopping = [...slots].map((slot) => {
        const job = slot.job;
        slot.job = null;
        retire(slot);
        job?.reject(exportBusy());
        return slot.worker.terminate();
      });
      await Promise.all(stopping);
    },
  };
}
