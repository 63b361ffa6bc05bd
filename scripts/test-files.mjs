// Which server test files touch a database (issue 26: "no test runs twice unless it exercises a database").
// A test file touches one when it opens a database itself, or when a chain of its (non-type) relative imports
// reaches the test database helper. `npm test` runs the others once, in the PGlite run only.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const DATABASE_HELPER = path.join(root, 'server', 'src', 'test', 'test-db.ts');
/** Opening a database without the helper (a test of the clients, the migrator, the boot). */
const OPENS_A_DATABASE = /\b(openPglite|openPostgres|openDatabase|createTestDatabase|TEST_DATABASE_URL)\b/;
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function resolveImport(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, `${base}.js`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && !candidate.endsWith('/') && !isDirectory(candidate)) return candidate;
  }
  return null;
}

function isDirectory(file) {
  try {
    return readdirSync(file) && true;
  } catch {
    return false;
  }
}

const reaches = new Map();
/** Whether `file`'s import chains reach the database helper (memoized; cycles count as no). */
function reachesHelper(file) {
  if (file === DATABASE_HELPER) return true;
  if (reaches.has(file)) return reaches.get(file);
  reaches.set(file, false);
  const source = readFileSync(file, 'utf8');
  let found = false;
  for (const match of source.matchAll(IMPORT)) {
    const target = resolveImport(file, match[1] ?? match[2]);
    if (target && reachesHelper(target)) {
      found = true;
      break;
    }
  }
  reaches.set(file, found);
  return found;
}

export function touchesDatabase(file) {
  return OPENS_A_DATABASE.test(readFileSync(file, 'utf8')) || reachesHelper(file);
}

function testFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The server project's test files (server/ and emulators/), split by whether they touch a database. */
export function serverTestFiles() {
  const files = [...testFiles(path.join(root, 'server', 'src')), ...testFiles(path.join(root, 'emulators', 'src'))].sort();
  const database = files.filter(touchesDatabase);
  return { database, databaseFree: files.filter((file) => !database.includes(file)) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { database, databaseFree } = serverTestFiles();
  console.log(`database: ${database.length}, database-free: ${databaseFree.length}`);
  for (const file of databaseFree) console.log(`  free: ${path.relative(root, file)}`);
}
