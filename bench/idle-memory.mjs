// Idle memory: resident memory (RSS) of a fresh built server 10 s after its first 200 from /api/health,
// on the embedded PGlite (new DATA_DIR) and on PostgreSQL (new database), plus PGlite restarted on the
// DATA_DIR it created. RSS is VmRSS from /proc, summed over the server and any child process it still
// has. Goal (issue 9): under 300 MB on PGlite, so the default runs on a 1 GB machine. Median of RUNS.
// Also the peak of the short-lived process that creates a new PGlite database on a first boot (it has
// exited by the time the server is healthy). Where the memory goes: docs/deploy.md, "Memory".
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createScratchDatabase, postgresAvailable } from './lib/postgres.mjs';
import { ROOT, removeDir, startProcess, tempDataDir } from './lib/server-process.mjs';
import { formatMs } from './lib/table.mjs';
import { median } from './lib/table.mjs';

const RUNS = 3;
const IDLE_MS = 10_000;
const GOAL_MB = 300;

/** A /proc/<pid>/status field in MB (0 once the process is gone). */
function statusMb(pid, field) {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The pid and its descendants (children of every thread). */
function processTree(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    let tasks = [];
    try {
      tasks = readFileSync(`/proc/${pids[i]}/task/${pids[i]}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    } catch {
      // gone, or no children file
    }
    pids.push(...tasks.map(Number));
  }
  return pids;
}

/** Starts the server, waits IDLE_MS once healthy, reads its memory, stops it. */
async function idleMemory(env) {
  const server = await startProcess({ env: { REDIS_URL: '', ...env } });
  try {
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const pids = processTree(server.pid);
    return {
      rss: pids.reduce((sum, pid) => sum + statusMb(pid, 'VmRSS'), 0),
      peak: statusMb(server.pid, 'VmHWM'),
      processes: pids.length,
    };
  } finally {
    await server.stop();
  }
}

async function runs(measure) {
  const results = [];
  for (let i = 0; i < RUNS; i++) results.push(await measure());
  return {
    rss: median(results.map((r) => r.rss)),
    min: Math.min(...results.map((r) => r.rss)),
    max: Math.max(...results.map((r) => r.rss)),
    peak: median(results.map((r) => r.peak)),
    processes: Math.max(...results.map((r) => r.processes)),
  };
}

const mb = (value) => `${Math.round(value)} MB`;

/** Runs what the server runs on a new DATA_DIR (pglite-thread.ts, createDatabase) and samples its peak RSS. */
async function databaseCreation() {
  const dataDir = tempDataDir('idle-init');
  const started = performance.now();
  try {
    const child = spawn(process.execPath, ['--liftoff-only', path.join(ROOT, 'server', 'dist', 'pglite-worker.mjs'), '--init', path.join(dataDir, 'pglite')], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    let peak = 0;
    let code;
    while ((code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve(undefined), 50))])) === undefined) {
      peak = Math.max(peak, statusMb(child.pid, 'VmHWM'));
    }
    if (code !== 0) throw new Error(`pglite-worker.mjs --init exited with ${code}`);
    return { peak, ms: performance.now() - started };
  } finally {
    removeDir(dataDir);
  }
}

function row(measure, result, { baseline, goal } = {}) {
  return {
    benchmark: 'Idle memory (RSS)',
    measure,
    value: `${mb(result.rss)} (min ${mb(result.min)}, max ${mb(result.max)})`,
    baseline: baseline ? `${mb(baseline.rss)} (PostgreSQL)` : undefined,
    ratio: baseline ? `${(result.rss / baseline.rss).toFixed(1)}× PostgreSQL` : undefined,
    goal: goal ? `< ${GOAL_MB} MB ${result.max < GOAL_MB ? '(met by every run)' : result.rss < GOAL_MB ? '(median met, not every run)' : '(missed)'}` : 'none (reported)',
    note: `median of ${RUNS}, ${IDLE_MS / 1000} s idle after the first 200; peak RSS during boot ${mb(result.peak)}; ${result.processes} process(es)`,
  };
}

export default async function idleMemoryBench() {
  if (process.platform !== 'linux') {
    return [{ benchmark: 'Idle memory (RSS)', measure: 'all', value: 'n/a', note: 'reads /proc: Linux only' }];
  }
  let postgres = null;
  if (await postgresAvailable()) {
    postgres = await runs(async () => {
      const database = await createScratchDatabase('idle');
      const dataDir = tempDataDir('idle-pg');
      try {
        return await idleMemory({ DATA_DIR: dataDir, DATABASE_URL: database.url });
      } finally {
        await database.drop();
        removeDir(dataDir);
      }
    });
  }
  const dataDirs = [];
  try {
    const fresh = await runs(() => {
      const dataDir = tempDataDir('idle-pglite');
      dataDirs.push(dataDir);
      return idleMemory({ DATA_DIR: dataDir, DATABASE_URL: '' });
    });
    // Restarts on the directories the fresh runs created (migrations and seeds already applied).
    let restart = 0;
    const restarted = await runs(() => idleMemory({ DATA_DIR: dataDirs[restart++], DATABASE_URL: '' }));
    const rows = [
      row('PGlite, fresh DATA_DIR', fresh, { baseline: postgres, goal: true }),
      row('PGlite, restarted on that DATA_DIR', restarted, { baseline: postgres, goal: true }),
    ];
    const creation = await databaseCreation();
    rows.push({
      benchmark: 'Idle memory (RSS)',
      measure: 'PGlite first boot: the process creating the database',
      value: `${mb(creation.peak)} peak for ${formatMs(creation.ms)}`,
      goal: 'none (reported)',
      note: 'sampled every 50 ms; it then exits, and the server waits for it before opening the database',
    });
    if (postgres) rows.push(row('PostgreSQL, fresh database', postgres));
    else rows.push({ benchmark: 'Idle memory (RSS)', measure: 'PostgreSQL, fresh database', value: 'n/a', note: 'no PostgreSQL server answered (set BENCH_DATABASE_URL)' });
    return rows;
  } finally {
    for (const dir of dataDirs) removeDir(dir);
  }
}
