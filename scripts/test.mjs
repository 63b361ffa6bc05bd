// `npm test`: typecheck, lint, schema/migrations drift, unit + API tests on PGlite (and PostgreSQL when
// TEST_DATABASE_URL is set), web tests, then the browser journeys. Prints per-suite counts and a final
// "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, 'node_modules', '.test-reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const summary = [];
let failedSteps = 0;

function run(name, command, args, env = {}) {
  console.log(`\n=== ${name}: ${[command, ...args].join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = result.status === 0;
  if (!ok) failedSteps++;
  return { ok, seconds: ((Date.now() - started) / 1000).toFixed(1) };
}

function vitest(name, args, env = {}) {
  const file = path.join(reports, `${name}.json`);
  const step = run(name, 'npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`], env);
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (existsSync(file)) {
    const json = JSON.parse(readFileSync(file, 'utf8'));
    passed = json.numPassedTests;
    failed = json.numFailedTests;
    skipped = json.numPendingTests + (json.numTodoTests ?? 0);
  } else if (!step.ok) failed = 1;
  summary.push({ name, passed, failed, skipped, seconds: step.seconds, ok: step.ok });
}

function check(name, command, args) {
  const step = run(name, command, args);
  summary.push({ name, passed: step.ok ? 1 : 0, failed: step.ok ? 0 : 1, skipped: 0, seconds: step.seconds, ok: step.ok });
}

check('typecheck', 'npm', ['run', '--silent', 'typecheck']);
check('lint', 'npx', ['eslint', '.', '--max-warnings=0']);
// Schema changed without `npm run db:generate -w server`? (no database needed)
check('migrations', 'node', ['scripts/check-migrations.mjs']);
vitest('unit+api (PGlite)', ['--project', 'common', '--project', 'server'], { TEST_DB: 'pglite' });
if (process.env.TEST_DATABASE_URL) {
  vitest('api (PostgreSQL)', ['--project', 'server'], { TEST_DB: 'pg' });
} else {
  console.log('\n(TEST_DATABASE_URL not set: the PostgreSQL run is skipped; CI sets it.)');
}
vitest('web', ['--project', 'web']);
if (existsSync(path.join(root, 'e2e', 'vitest.config.ts')) && process.env.SKIP_E2E !== '1') {
  // The journeys drive the built app (server/dist + web/dist), so build it first.
  check('build', 'npm', ['run', '--silent', 'build']);
  if (summary.at(-1).ok) vitest('browser journeys', ['--config', 'e2e/vitest.config.ts']);
}

console.log('\n=== Summary');
let passed = 0;
let failed = 0;
let skipped = 0;
for (const s of summary) {
  console.log(`${s.ok ? 'ok  ' : 'FAIL'} ${s.name.padEnd(22)} ${String(s.passed).padStart(5)} passed ${String(s.failed).padStart(4)} failed ${String(s.skipped).padStart(3)} skipped  (${s.seconds}s)`);
  passed += s.passed;
  failed += s.failed;
  skipped += s.skipped;
}
if (failedSteps > 0 && failed === 0) failed = failedSteps;
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedSteps > 0 ? 1 : 0);
