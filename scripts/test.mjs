// `npm test`: typecheck, lint, schema/migrations drift, unit + API tests on PGlite (and PostgreSQL when
// TEST_DATABASE_URL is set), web tests, then the browser journeys on the build. Prints per-suite counts, each
// stage's wall time, the slowest test files and a final "N passed, N failed" line.
//
// The stages run in lanes (issue 26; docs/testing.md): at most TEST_LANES at once (default 2, one per core
// of the CI machine), longest first, each stage as soon as what it needs is done (the journeys need the
// build). A stage's output is kept in node_modules/.test-reports/<stage>.log and printed when it ends.
// The PostgreSQL run takes only the server test files that touch a database (scripts/test-files.mjs);
// the others run once, in the PGlite run.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { serverTestFiles } from './test-files.mjs';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, 'node_modules', '.test-reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const lanes = Math.max(1, Number(process.env.TEST_LANES) || 2);
const started = Date.now();
const seconds = (ms) => (ms / 1000).toFixed(1);
const clock = () => `${seconds(Date.now() - started).padStart(6)}s`;

const slug = (name) => name.replace(/[^\w]+/g, '-').replace(/^-|-$/g, '');
const vitestArgs = (name, args) => ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(reports, `${slug(name)}.json`)}`];

const { databaseFree } = serverTestFiles();
const withJourneys = existsSync(path.join(root, 'e2e', 'vitest.config.ts')) && process.env.SKIP_E2E !== '1';

/**
 * The stages, longest first (the order they start in when lanes are free). `needs`: stages that must pass
 * first; `lanes`: how many lanes it takes (1 by default). `vitest`: counts come from its JSON report;
 * otherwise a stage counts as one check.
 */
const stages = [
  { name: 'build', command: 'npm', args: ['run', '--silent', 'build'], when: withJourneys },
  // Journeys drive the built app (server/dist + web/dist). Their two workers spend most of their time
  // waiting on pages and streams (~0.7 of a core measured alone), so they take one lane beside the API tests.
  { name: 'browser journeys', vitest: true, args: ['--config', 'e2e/vitest.config.ts'], needs: ['build'], when: withJourneys },
  // Two workers: a PGlite file spends most of its time waiting on round trips to its database thread (the
  // stage used ~0.65 of a core with one worker), so a second worker fills the gaps.
  { name: 'unit+api (PGlite)', vitest: true, args: ['--project', 'common', '--project', 'server', '--maxWorkers=2'], env: { TEST_DB: 'pglite' } },
  // Two workers as well: a file here mostly waits on the PostgreSQL server (one worker used ~0.34 of a core,
  // 126 CPU-seconds over 369 s), and it ran last, after the PGlite run, on the critical path.
  {
    name: 'api (PostgreSQL)',
    vitest: true,
    args: ['--project', 'server', '--maxWorkers=2', ...databaseFree.flatMap((file) => ['--exclude', path.relative(root, file)])],
    env: { TEST_DB: 'pg' },
    when: Boolean(process.env.TEST_DATABASE_URL),
  },
  { name: 'web', vitest: true, args: ['--project', 'web'] },
  { name: 'lint', command: 'npx', args: ['eslint', '.', '--max-warnings=0'] },
  { name: 'typecheck', command: 'npm', args: ['run', '--silent', 'typecheck'] },
  // Schema changed without `npm run db:generate -w server`? (no database needed)
  { name: 'migrations', command: 'node', args: ['scripts/check-migrations.mjs'] },
  // Import cycles, features importing each other, service shapes: none may get worse (DESIGN.md §7).
  { name: 'architecture', command: 'node', args: ['scripts/architecture.mjs'] },
].filter((stage) => stage.when !== false);

if (!process.env.TEST_DATABASE_URL) console.log('(TEST_DATABASE_URL not set: the PostgreSQL run is skipped; CI sets it.)');
console.log(`=== npm test: ${stages.map((s) => s.name).join(', ')} — ${lanes} at a time`);

const GNU_TIME = '/usr/bin/time';
/** The stage's CPU seconds from GNU time's "user system" line, when it wrote one. */
function cpuSecondsOf(file) {
  if (!existsSync(file)) return undefined;
  const [user, system] = readFileSync(file, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
  return Number.isFinite(user + system) ? (user + system) * 1000 : undefined;
}

/** Runs one stage with its output in its log file; resolves with its result when it exits. */
function runStage(stage) {
  const log = path.join(reports, `${slug(stage.name)}.log`);
  let [command, args] = stage.vitest ? ['npx', vitestArgs(stage.name, stage.args)] : [stage.command, stage.args];
  // CPU seconds (user + system, the stage's whole process tree) say what a stage costs whatever else runs
  // beside it; GNU time writes them to a file of their own.
  const cpuFile = path.join(reports, `${slug(stage.name)}.cpu`);
  if (existsSync(GNU_TIME)) [command, args] = [GNU_TIME, ['-f', '%U %S', '-o', cpuFile, command, ...args]];
  const out = createWriteStream(log);
  const begun = Date.now();
  console.log(`${clock()}  start  ${stage.name}: ${[command, ...args].join(' ').slice(0, 200)}`);
  return new Promise((resolve) => {
    // FORCE_COLOR: the logs are printed to the terminal later, as if it had been written to directly.
    const child = spawn(command, args, { cwd: root, env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0', ...stage.env } });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('close', (code) => {
      out.end(() => {
        const result = { ...stage, ok: code === 0, wall: Date.now() - begun, cpu: cpuSecondsOf(cpuFile), log };
        console.log(`\n${clock()}  ${result.ok ? 'done' : 'FAIL'}   ${stage.name} (${seconds(result.wall)}s) — its output:\n`);
        process.stdout.write(readFileSync(log));
        resolve(result);
      });
    });
  });
}

/** Starts stages as lanes free up and what they need has passed; a stage whose need failed is not run. */
async function runAll() {
  const results = new Map();
  const running = new Map();
  const waiting = [...stages];
  const busy = () => [...running.keys()].reduce((sum, name) => sum + (stages.find((s) => s.name === name).lanes ?? 1), 0);
  while (waiting.length || running.size) {
    for (const stage of [...waiting]) {
      if (busy() + (stage.lanes ?? 1) > lanes) continue;
      const needs = stage.needs ?? [];
      if (needs.some((need) => results.has(need) && !results.get(need).ok)) {
        waiting.splice(waiting.indexOf(stage), 1);
        results.set(stage.name, { ...stage, ok: false, wall: 0, skippedBecause: needs.join(', ') });
        continue;
      }
      if (!needs.every((need) => results.has(need))) continue;
      waiting.splice(waiting.indexOf(stage), 1);
      running.set(stage.name, runStage(stage));
    }
    if (!running.size) {
      // Nothing runs and nothing can start: what is left needs a stage that is not in this run.
      for (const stage of waiting.splice(0)) results.set(stage.name, { ...stage, ok: false, wall: 0, skippedBecause: (stage.needs ?? []).join(', ') });
      break;
    }
    const finished = await Promise.race(running.values());
    running.delete(finished.name);
    results.set(finished.name, finished);
  }
  return stages.map((stage) => results.get(stage.name));
}

function countsOf(result) {
  if (!result.vitest) return { passed: result.ok ? 1 : 0, failed: result.ok ? 0 : 1, skipped: 0, files: [] };
  const file = path.join(reports, `${slug(result.name)}.json`);
  if (!existsSync(file)) return { passed: 0, failed: result.ok ? 0 : 1, skipped: 0, files: [] };
  const json = JSON.parse(readFileSync(file, 'utf8'));
  const files = (json.testResults ?? []).map((t) => ({ suite: result.name, file: path.relative(root, t.name), ms: (t.endTime ?? 0) - (t.startTime ?? 0) }));
  return { passed: json.numPassedTests, failed: json.numFailedTests, skipped: json.numPendingTests + (json.numTodoTests ?? 0), files };
}

const results = await runAll();
console.log('\n=== Summary (wall time per stage — stages overlap — and CPU time, user + system)');
let passed = 0;
let failed = 0;
let skipped = 0;
const files = [];
for (const result of results) {
  const counts = countsOf(result);
  // A stage that failed without a failing test (a crash, a timeout, a type error) still counts as one failure.
  if (!result.ok && counts.failed === 0) counts.failed = 1;
  const note = result.skippedBecause ? `  (not run: ${result.skippedBecause} failed)` : '';
  console.log(
    `${result.ok ? 'ok  ' : 'FAIL'} ${result.name.padEnd(20)} ${String(counts.passed).padStart(5)} passed ${String(counts.failed).padStart(4)} failed ${String(counts.skipped).padStart(3)} skipped  ${seconds(result.wall).padStart(7)}s${result.cpu === undefined ? '' : ` ${seconds(result.cpu).padStart(7)} CPU-s`}${note}`,
  );
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped;
  files.push(...counts.files);
}
const cpuTotal = results.reduce((sum, r) => sum + (r.cpu ?? 0), 0);
if (cpuTotal) console.log(`\nCPU time ${seconds(cpuTotal)}s in all (${(cpuTotal / (Date.now() - started)).toFixed(2)} cores busy on average)`);
console.log(`\nTotal wall time ${seconds(Date.now() - started)}s (budget: 25 minutes for .ci/run on the 2-core machine; docs/testing.md)`);
console.log('\n=== The 10 slowest test files');
for (const f of files.sort((a, b) => b.ms - a.ms).slice(0, 10)) {
  console.log(`${seconds(f.ms).padStart(7)}s  ${f.suite.padEnd(20)} ${f.file}`);
}
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(results.every((result) => result.ok) ? 0 : 1);
