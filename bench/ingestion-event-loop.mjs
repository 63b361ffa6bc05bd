// Ingestion and the event loop (issue 27: one ingestion pipeline, DESIGN.md §6 "PGlite runs on the event
// loop"): the built server on PGlite, a user uploads five large, valid Word documents at once to their Super
// Fetch avatar through the real API (POST /api/avatars/add-file/{id}), and the bench waits until every file
// is indexed (GET /api/avatars/{id}/files). Meanwhile the server's main thread measures its own event-loop
// delay (perf_hooks.monitorEventLoopDelay, loaded with --import from lib/event-loop-probe.mjs). Baseline: the
// same server idle for a few seconds just before. Goal: p99 ≤ 50 ms while indexing (reading runs in worker
// threads; chunking, full-text rows and the job queue stay on the main thread). The histogram samples every
// 10 ms, so its figures include that interval (an idle loop shows p50 ≈ 10 ms). `node bench/run.mjs ingestion`
// or `node bench/ingestion-event-loop.mjs` (after `npm run build -w server`).
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Document, Packer, Paragraph } from 'docx';
import { chatUsers, closeUsers, withServer } from './chat-setup.mjs';
import { removeDir, tempDataDir } from './lib/server-process.mjs';
import { formatMs } from './lib/table.mjs';

const FILES = 5;
/** Characters of text in each document (the pipeline takes up to 3,000,000 a file). */
const CHARACTERS_PER_FILE = 600_000;
const IDLE_MS = 3_000;
const GOAL_MS = 50;
const PROBE = path.join(import.meta.dirname, 'lib', 'event-loop-probe.mjs');

/** A Word document of ordinary prose: paragraphs of ~600 characters. */
async function largeDocx(index) {
  const paragraphs = [];
  let length = 0;
  for (let p = 0; length < CHARACTERS_PER_FILE; p++) {
    const text = Array.from({ length: 8 }, (_, s) => `Document ${index}, paragraph ${p}, sentence ${s} says something about gardens, trains and the sea ${randomBytes(4).toString('hex')}.`).join(' ');
    paragraphs.push(new Paragraph({ text }));
    length += text.length;
  }
  return Packer.toBuffer(new Document({ sections: [{ children: paragraphs }] }));
}

/** Asks the server for its figures since the last ask (SIGUSR2, see lib/event-loop-probe.mjs). */
async function phase(pid, file) {
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      // not written yet (or half written)
    }
  }
  throw new Error('the server did not write its event-loop figures (is lib/event-loop-probe.mjs loaded?)');
}

async function upload(server, token, avatarId, name, bytes) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }), name);
  const res = await fetch(`${server.url}/api/avatars/add-file/${avatarId}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (res.status !== 201) throw new Error(`upload of ${name} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return res.json();
}

async function untilIndexed(api, avatarId, fileIds, timeoutMs = 600_000) {
  const since = performance.now();
  while (performance.now() - since < timeoutMs) {
    const { avatar_files: files } = await api.expect(200, 'GET', `/api/avatars/${avatarId}/files`);
    const mine = files.filter((f) => fileIds.includes(f.file_id));
    const failed = mine.find((f) => f.index.status === 'failed');
    if (failed) throw new Error(`${failed.file_data.name} failed to index: ${failed.index.failure_reason}`);
    if (mine.length === fileIds.length && mine.every((f) => f.index.status === 'ready')) return performance.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the files were not indexed within ${timeoutMs / 1000} s`);
}

function row(measure, figures, { goal = false, idle } = {}) {
  return {
    benchmark: 'Ingestion event loop',
    measure,
    value: `p99 ${formatMs(figures.p99)}, max ${formatMs(figures.max)} (p50 ${figures.p50.toFixed(1)} ms, ${(figures.durationMs / 1000).toFixed(1)} s)`,
    baseline: idle ? `idle p99 ${formatMs(idle.p99)}, max ${formatMs(idle.max)}` : undefined,
    ratio: goal ? `p99 ${(figures.p99 / GOAL_MS).toFixed(2)}× goal, max ${(figures.max / GOAL_MS).toFixed(2)}× goal` : undefined,
    goal: goal ? `p99 ≤ ${GOAL_MS} ms` : 'none (baseline)',
  };
}

export default async function ingestionEventLoop() {
  const documents = await Promise.all(Array.from({ length: FILES }, (_, i) => largeDocx(i + 1)));
  const megabytes = documents.reduce((sum, d) => sum + d.length, 0) / (1024 * 1024);
  const scratch = tempDataDir('event-loop');
  const file = path.join(scratch, 'event-loop.json');
  try {
    return await withServer(
      'PGlite',
      null,
      async (server) => {
        const [user] = await chatUsers(server, 1);
        try {
          const avatar = await user.api.expect(200, 'GET', '/api/avatars/super-fetch');
          const token = user.api.token;
          await phase(server.pid, file);
          await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
          const idle = await phase(server.pid, file);
          const uploaded = await Promise.all(documents.map((bytes, i) => upload(server, token, avatar.avatar_id, `large-${i + 1}.docx`, bytes)));
          const indexMs = await untilIndexed(user.api, avatar.avatar_id, uploaded.map((f) => f.file_id));
          const busy = await phase(server.pid, file);
          return [
            row(`idle server, ${IDLE_MS / 1000} s`, idle),
            row(`${FILES} docx at once (${(CHARACTERS_PER_FILE / 1000).toFixed(0)}k characters each, ${megabytes.toFixed(1)} MB in all), uploaded and indexed in ${(indexMs / 1000).toFixed(1)} s`, busy, { goal: true, idle }),
          ];
        } finally {
          closeUsers([user]);
        }
      },
      { env: { BENCH_EVENT_LOOP_FILE: file }, nodeArgs: ['--import', PROBE] },
    );
  } finally {
    removeDir(scratch);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('./lib/table.mjs');
  printTable(await ingestionEventLoop());
}
