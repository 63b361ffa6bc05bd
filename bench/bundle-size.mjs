// Bundle budget: the JavaScript a first visit to the login route downloads before it can render —
// the entry chunk, its static imports, and the lazily loaded login route chunk(s) with their static
// imports — brotli-compressed (quality 11), against the 170 KB goal. Reads web/dist/.vite/manifest.json
// (build.manifest in web/vite.config.ts); builds the web app first when the manifest is missing.
// Standalone: `node bench/bundle-size.mjs` (add --build to rebuild). bench/run.mjs imports the default export.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'web', 'dist');
const MANIFEST = path.join(DIST, '.vite', 'manifest.json');
export const GOAL_KB = 170;
const BENCHMARK = 'Login route critical-path JS (brotli 11)';

/**
 * Source modules the router loads lazily to show /login and /auth/login (manifest keys are paths
 * relative to web/). Their chunks and static imports count towards the budget.
 */
export const LOGIN_ROUTE_MODULES = [/^src\/features\/auth\/.*Login[^/]*\.tsx$/, /^src\/features\/auth\/AuthLayout\.tsx$/];

const kb = (bytes) => bytes / 1024;
const formatKb = (bytes) => `${kb(bytes).toFixed(1)} KB`;

function brotliSize(file) {
  const source = readFileSync(path.join(DIST, file));
  return brotliCompressSync(source, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
  }).length;
}

/** Manifest keys reachable from `keys` through static imports (dynamic imports load later, on demand). */
function staticClosure(manifest, keys) {
  const seen = new Set();
  const queue = [...keys];
  while (queue.length) {
    const key = queue.shift();
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    queue.push(...(manifest[key].imports ?? []));
  }
  return seen;
}

export function buildWeb() {
  const result = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build -w web failed');
}

/** Measures the budget from an existing build. Returns the chunks and the total, in bytes. */
export function measureLoginCriticalPath() {
  if (!existsSync(MANIFEST)) throw new Error(`${path.relative(ROOT, MANIFEST)} is missing: build with build.manifest enabled`);
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entryKey) throw new Error('the manifest has no entry chunk');
  const entryKeys = staticClosure(manifest, [entryKey]);
  const loginRoots = Object.keys(manifest).filter((key) => LOGIN_ROUTE_MODULES.some((pattern) => pattern.test(key)));
  if (loginRoots.length === 0) throw new Error(`no chunk of the login route found in the manifest (looked for ${LOGIN_ROUTE_MODULES.join(', ')})`);
  const loginKeys = [...staticClosure(manifest, loginRoots)].filter((key) => !entryKeys.has(key));

  const chunk = (key, part) => {
    const file = manifest[key].file;
    return { part, key, file, raw: readFileSync(path.join(DIST, file)).length, brotli: brotliSize(file) };
  };
  const chunks = [...[...entryKeys].map((key) => chunk(key, 'entry')), ...loginKeys.map((key) => chunk(key, 'login route'))]
    // One file can back several manifest keys; count it once.
    .filter((item, index, all) => all.findIndex((other) => other.file === item.file) === index)
    .filter((item) => item.file.endsWith('.js'));
  const total = chunks.reduce((sum, item) => sum + item.brotli, 0);
  const raw = chunks.reduce((sum, item) => sum + item.raw, 0);
  return { chunks, total, raw };
}

/**
 * Signed-in routes whose first load has its own goal (issue 31 item 5): the JavaScript before the route
 * renders — the entry, the signed-in shell and the route's page, each with its static imports, brotli 11.
 * What the page then loads on demand (the block editor; the analytics charts) is reported beside it.
 */
export const ROUTE_GOAL_KB = 250;
const SHELL_MODULE = 'src/app/shell/ShellApp.tsx';
export const ROUTES = [
  { label: 'editor /documents/{id}', page: 'src/features/documents/DocumentEditorPage.tsx', later: /^src\/features\/documents\/DocumentEditor\.tsx$/, laterName: 'the block editor' },
  // The charts' chunk (src/features/analytics/charts.tsx, a shared chunk named "charts") imports Mantine's charts on demand.
  { label: 'admin analytics /admin/analytics/income', page: 'src/features/analytics/IncomePage.tsx', laterOf: /^_charts-/, laterName: 'the charts' },
  { label: 'admin analytics /admin/analytics/customers', page: 'src/features/analytics/CustomersPage.tsx' },
  { label: 'admin analytics /admin/analytics/products', page: 'src/features/analytics/ProductsPage.tsx', laterOf: /^_charts-/, laterName: 'the charts' },
];

/** A route's first load and what its page loads after, from an existing build. */
export function measureRoute({ page, later, laterOf }) {
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  for (const key of [SHELL_MODULE, page]) if (!manifest[key]) throw new Error(`${key} is not a chunk of the build (the manifest has no such key)`);
  const sizes = (keys) => {
    const files = [...new Set([...keys].map((key) => manifest[key].file))].filter((file) => file.endsWith('.js'));
    return { files: files.length, brotli: files.reduce((sum, file) => sum + brotliSize(file), 0) };
  };
  const first = staticClosure(manifest, [entryKey, SHELL_MODULE, page]);
  const laterRoots = [
    ...Object.keys(manifest).filter((key) => later?.test(key)),
    ...[...first].filter((key) => laterOf?.test(key)).flatMap((key) => manifest[key].dynamicImports ?? []),
  ];
  const laterKeys = [...staticClosure(manifest, laterRoots)].filter((key) => !first.has(key));
  return { first: sizes(first), later: sizes(laterKeys) };
}

function routeRows() {
  return ROUTES.map((route) => {
    const { first, later } = measureRoute(route);
    const met = kb(first.brotli) <= ROUTE_GOAL_KB;
    return {
      benchmark: 'Route first-load JS (brotli 11)',
      measure: `${route.label} (${first.files} files: entry, shell, page)`,
      value: formatKb(first.brotli),
      goal: `<= ${ROUTE_GOAL_KB} KB ${met ? '(met)' : '(OVER)'}`,
      note: later.files ? `then ${route.laterName}, on demand: ${formatKb(later.brotli)} in ${later.files} files` : undefined,
    };
  });
}

/** bench/run.mjs rows: { benchmark, measure, value, baseline?, ratio?, goal?, note? }. */
export default async function bundleSize({ build = !existsSync(MANIFEST) } = {}) {
  if (build) buildWeb();
  const { chunks, total, raw } = measureLoginCriticalPath();
  const withinGoal = kb(total) <= GOAL_KB;
  const largest = [...chunks].sort((a, b) => b.brotli - a.brotli).slice(0, 4);
  const part = (name) => {
    const items = chunks.filter((item) => item.part === name);
    const bytes = items.reduce((sum, item) => sum + item.brotli, 0);
    return { benchmark: BENCHMARK, measure: `${name} (${items.length} files)`, value: formatKb(bytes) };
  };
  return [
    part('entry'),
    part('login route'),
    {
      benchmark: BENCHMARK,
      measure: `total (${chunks.length} files, ${formatKb(raw)} uncompressed)`,
      value: formatKb(total),
      ratio: `${((kb(total) / GOAL_KB) * 100).toFixed(0)}% of goal`,
      goal: `<= ${GOAL_KB} KB ${withinGoal ? '(met)' : '(OVER)'}`,
      note: `${withinGoal ? '' : `over budget by ${formatKb(total - GOAL_KB * 1024)}; `}largest: ${largest
        .map((item) => `${item.file} ${formatKb(item.brotli)}`)
        .join(', ')}`,
    },
    ...routeRows(),
  ];
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  if (process.argv.includes('--build') || !existsSync(MANIFEST)) buildWeb();
  const { chunks } = measureLoginCriticalPath();
  console.log('Files on the login route\'s critical path (brotli 11):');
  for (const item of [...chunks].sort((a, b) => b.brotli - a.brotli)) {
    console.log(`  ${formatKb(item.brotli).padStart(9)}  ${formatKb(item.raw).padStart(9)} raw  ${item.part.padEnd(11)}  ${item.file}`);
  }
  console.log('');
  const rows = await bundleSize({ build: false });
  const { printTable } = await import('./lib/table.mjs');
  printTable(rows);
  const total = rows.find((row) => row.benchmark === BENCHMARK && row.measure.startsWith('total'));
  console.log(`\nLogin route critical-path JS: ${total.value} brotli vs the ${GOAL_KB} KB goal: ${total.goal.endsWith('(met)') ? 'within budget' : 'OVER budget'}.`);
}
