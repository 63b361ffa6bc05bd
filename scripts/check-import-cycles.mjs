// Fails when the commerce features import each other in a cycle (DESIGN.md §7 "Kept by tools": no import
// cycles; issue 28: payments/ and paypal/ imported each other through 8 files). A feature is a folder of
// server/src/features; feature A depends on B when a non-test file of A imports from B (type-only imports
// count: they tie the folders as much). Cycles inside one feature are allowed (its own files). Checked: the
// folders of CHECKED (the purchase lifecycle, its provider adapters and what they build on), among
// themselves; `--all` reports every feature (the AI features and users still form one large cycle: to do).
// No dependencies: the import specifiers are read with a regular expression, and only relative ones matter
// (features meet through '../<feature>'). Runs in well under a second (npm test's "import cycles" stage).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const CHECKED = ['credits', 'discounts', 'payments', 'paypal', 'products', 'purchase-lifecycle', 'purchases', 'purchases-admin'];
const all = process.argv.includes('--all');
const root = path.resolve(import.meta.dirname, '..');
const featuresDir = path.join(root, 'server', 'src', 'features');

/** Every non-test .ts file under dir. */
function sources(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/g;
const featureOf = (file) => {
  const rel = path.relative(featuresDir, file);
  return rel.startsWith('..') ? null : rel.split(path.sep)[0];
};

/** feature → Map(other feature → the first file that imports it, for the message) */
const edges = new Map();
for (const file of sources(featuresDir)) {
  const from = featureOf(file);
  if (!from || from.endsWith('.ts')) continue;
  const text = readFileSync(file, 'utf8');
  for (const [, specifier] of text.matchAll(SPECIFIER)) {
    if (!specifier.startsWith('.')) continue;
    const to = featureOf(path.resolve(path.dirname(file), specifier));
    if (!to || to === from || to.endsWith('.ts')) continue;
    if (!all && !(CHECKED.includes(from) && CHECKED.includes(to))) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, path.relative(root, file));
  }
}

// Tarjan's strongly connected components: each component of more than one feature is a cycle.
let index = 0;
const stack = [];
const state = new Map();
const cycles = [];
function visit(v) {
  state.set(v, { index, low: index, onStack: true });
  index++;
  stack.push(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!state.has(w)) {
      visit(w);
      state.get(v).low = Math.min(state.get(v).low, state.get(w).low);
    } else if (state.get(w).onStack) state.get(v).low = Math.min(state.get(v).low, state.get(w).index);
  }
  if (state.get(v).low === state.get(v).index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      state.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  }
}
for (const v of edges.keys()) if (!state.has(v)) visit(v);

if (cycles.length === 0) {
  console.log(`Import cycles: none among ${all ? 'the server features' : CHECKED.join(', ')}.`);
} else {
  console.error('Import cycles between server features (make one side an adapter that the other does not import):');
  for (const component of cycles) {
    console.error(`- ${component.join(' <-> ')}`);
    for (const a of component) {
      for (const [b, file] of edges.get(a) ?? []) if (component.includes(b)) console.error(`    ${a} -> ${b} (${file})`);
    }
  }
  process.exitCode = 1;
}
