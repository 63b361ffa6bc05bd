// Cold start: process spawn → first 200 from GET /api/health, on a first boot (fresh PGlite DATA_DIR,
// or a fresh PostgreSQL database), so migrations and seeding are included. Baseline: a bare Node HTTP
// server spawned the same way, measured in the same run. Median of several runs. Also a restart on a
// PostgreSQL database that is already migrated (what every deploy after the first does).
// Goals (issue 31 item 4): ≤ 3 s on a new PGlite DATA_DIR (the build's migrated template is copied,
// server/src/db/pglite-template.ts), ≤ 2 s on PostgreSQL already migrated. On a busy machine compare the
// ratio to bare Node, measured in the same run, and the CPU time the server used to get there (its main thread,
// where the modules load, and the whole process), which other processes on the machine barely change.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createScratchDatabase, postgresAvailable } from './lib/postgres.mjs';
import { removeDir, startProcess, tempDataDir } from './lib/server-process.mjs';
import { formatMs, median } from './lib/table.mjs';

const RUNS = 3;
const GOAL_PGLITE_MS = 3000;
const GOAL_POSTGRES_MIGRATED_MS = 2000;

const BARE_SERVER = `import { createServer } from 'node:http';
createServer((req, res) => res.end('{"status":"ok"}')).listen(Number(process.env.PORT), process.env.HOST);
process.on('SIGTERM', () => process.exit(0));
`;

/** `start()` resolves with a started server's { startupMs, startupCpu } (startProcess), once stopped. */
async function timeRuns(start) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await start());
  const times = runs.map((run) => run.startupMs);
  const cpus = runs.map((run) => run.startupCpu).filter(Boolean);
  const cpu = cpus.length ? { mainThread: median(cpus.map((c) => c.mainThread)), process: median(cpus.map((c) => c.process)) } : null;
  return { median: median(times), min: Math.min(...times), max: Math.max(...times), cpu };
}

async function bareNode() {
  const dir = tempDataDir('bare');
  const entry = path.join(dir, 'bare-server.mjs');
  writeFileSync(entry, BARE_SERVER);
  try {
    return await timeRuns(async () => {
      const server = await startProcess({ entry });
      await server.stop();
      return server;
    });
  } finally {
    removeDir(dir);
  }
}

async function pgliteFirstBoot() {
  return timeRuns(async () => {
    const dataDir = tempDataDir('cold-pglite');
    try {
      const server = await startProcess({ env: { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' } });
      await server.stop();
      return server;
    } finally {
      removeDir(dataDir);
    }
  });
}

async function postgresFirstBoot() {
  return timeRuns(async () => {
    const database = await createScratchDatabase('cold');
    const dataDir = tempDataDir('cold-pg');
    try {
      const server = await startProcess({ env: { DATA_DIR: dataDir, DATABASE_URL: database.url, REDIS_URL: '' } });
      await server.stop();
      return server;
    } finally {
      await database.drop();
      removeDir(dataDir);
    }
  });
}

/** Restarts on one PostgreSQL database that a first boot migrated and seeded. */
async function postgresMigratedRestart() {
  const database = await createScratchDatabase('cold-migrated');
  const dataDir = tempDataDir('cold-pg-migrated');
  const env = { DATA_DIR: dataDir, DATABASE_URL: database.url, REDIS_URL: '' };
  try {
    await (await startProcess({ env })).stop();
    return await timeRuns(async () => {
      const server = await startProcess({ env });
      await server.stop();
      return server;
    });
  } finally {
    await database.drop();
    removeDir(dataDir);
  }
}

function row(measure, timing, baseline, goalMs) {
  return {
    benchmark: 'Cold start to healthy',
    measure,
    value: `${formatMs(timing.median)} (min ${formatMs(timing.min)}, max ${formatMs(timing.max)})`,
    baseline: baseline ? `${formatMs(baseline.median)} (bare Node HTTP)` : undefined,
    ratio: baseline ? `${(timing.median / baseline.median).toFixed(1)}× baseline` : undefined,
    goal: goalMs ? `≤ ${formatMs(goalMs)} ${timing.median <= goalMs ? 'met' : 'MISSED'}` : 'none (reported)',
    note: timing.cpu ? `CPU to healthy (median): main thread ${formatMs(timing.cpu.mainThread)}, whole process ${formatMs(timing.cpu.process)}` : undefined,
  };
}

export default async function coldStart() {
  const baseline = await bareNode();
  const rows = [row(`bare Node HTTP server, median of ${RUNS}`, baseline)];
  rows.push(row(`PGlite, fresh DATA_DIR, median of ${RUNS}`, await pgliteFirstBoot(), baseline, GOAL_PGLITE_MS));
  if (await postgresAvailable()) {
    rows.push(row(`PostgreSQL, fresh database, median of ${RUNS}`, await postgresFirstBoot(), baseline));
    rows.push(row(`PostgreSQL, already migrated, median of ${RUNS}`, await postgresMigratedRestart(), baseline, GOAL_POSTGRES_MIGRATED_MS));
  } else {
    rows.push({ benchmark: 'Cold start to healthy', measure: 'PostgreSQL, fresh database', value: 'n/a', note: 'no PostgreSQL server answered (set BENCH_DATABASE_URL)' });
  }
  return rows;
}
