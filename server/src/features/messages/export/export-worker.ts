// Entry of an export worker thread (export-pool.ts): renders one document at a time, off the server's
// event loop. Bundled to dist/export-worker.js (build.mjs); run from source through export-worker-dev.mjs.
import { parentPort } from 'node:worker_threads';
import { renderExport, type ExportFormat } from './render';

export interface ExportJob {
  id: number;
  format: ExportFormat;
  text: string;
}

export type ExportReply = { id: number; bytes: Uint8Array } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('export-worker must run in a worker thread');

port.on('message', (job: ExportJob) => {
  renderExport(job.format, job.text).then(
    (buffer) => {
      // A copy of its own, so transferring it cannot detach a pooled Buffer's memory.
      const bytes = new Uint8Array(buffer);
      port.postMessage({ id: job.id, bytes } satisfies ExportReply, [bytes.buffer]);
    },
    (err: unknown) => port.postMessage({ id: job.id, error: err instanceof Error ? err.message : String(err) } satisfies ExportReply),
  );
});
