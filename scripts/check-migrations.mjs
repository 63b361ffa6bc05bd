// Fails when the schema (server/src/db/schema/) and the committed migrations (server/src/db/migrations/)
// differ, i.e. someone changed the schema without running `npm run db:generate -w server`.
// `drizzle-kit check` only checks the snapshots against each other, so instead this runs
// `drizzle-kit generate` into a temporary copy of the migrations folder (through a temporary config
// that extends server/drizzle.config.ts) and fails if it wrote anything. Needs no database and leaves
// the working tree untouched.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const server = path.join(root, 'server');
const committed = path.join(server, 'src', 'db', 'migrations');
const FIX = 'run `npm run db:generate -w server` and commit the new SQL file and meta/ snapshot';

/** Every file under dir (relative path → contents). */
function tree(dir, prefix = '') {
  const files = new Map();
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) for (const [k, v] of tree(dir, rel)) files.set(k, v);
    else files.set(rel, readFileSync(path.join(dir, rel), 'utf8'));
  }
  return files;
}

const temp = mkdtempSync(path.join(os.tmpdir(), 'pluma-migrations-'));
let exitCode = 0;
try {
  const out = path.join(temp, 'migrations');
  cpSync(committed, out, { recursive: true });
  const config = path.join(temp, 'drizzle.config.ts');
  writeFileSync(
    config,
    `import base from ${JSON.stringify(path.join(server, 'drizzle.config.ts'))};\n` +
      // drizzle-kit prefixes `out` with './', so it must be relative to its working directory.
      `export default { ...base, out: ${JSON.stringify(path.relative(server, out))} };\n`,
  );
  // stdin closed: if drizzle-kit wants to ask (a rename or a drop), it fails instead of waiting.
  const result = spawnSync('npx', ['drizzle-kit', 'generate', `--config=${config}`], {
    cwd: server,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  const before = tree(committed);
  const after = tree(out);
  const added = [...after.keys()].filter((file) => !before.has(file));
  const changed = [...after.keys()].filter((file) => before.has(file) && before.get(file) !== after.get(file));

  // drizzle-kit exits 0 even when it fails (bad config, unreadable snapshots), so only its own
  // "nothing to migrate" line together with an unchanged folder counts as a pass.
  const clean = /No schema changes, nothing to migrate/.test(output);

  if (added.length > 0 || changed.length > 0) {
    console.error('\ncheck-migrations: the schema in server/src/db/schema/ differs from the committed migrations.');
    for (const file of added) console.error(`  would add     server/src/db/migrations/${file}`);
    for (const file of changed) console.error(`  would change  server/src/db/migrations/${file}`);
    const sql = added.filter((file) => file.endsWith('.sql'));
    for (const file of sql) console.error(`\n--- ${file}\n${after.get(file).trim()}`);
    console.error(`\nTo fix: ${FIX}.`);
    exitCode = 1;
  } else if (result.status !== 0 || result.error || !clean) {
    console.error(output);
    console.error(`\ncheck-migrations: drizzle-kit generate failed${result.error ? ` (${result.error.message})` : ''}.`);
    console.error(`If the schema changed in a way that needs a decision (rename or drop), ${FIX}.`);
    exitCode = 1;
  } else {
    console.log('check-migrations: schema and committed migrations agree.');
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
process.exit(exitCode);
