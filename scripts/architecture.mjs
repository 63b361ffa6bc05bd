// The shape of the code, counted (DESIGN.md §7 "Kept by tools, not by memory"; issue 29): import cycles in
// server/src, features that import each other, service operations on and off the one contract, and the web's
// imports across features. Run by `npm test` (stage "architecture"); `node scripts/architecture.mjs --list`
// prints every finding. Each figure may only go down: scripts/architecture-baseline.json holds the current
// ones, a change that makes one worse fails, and one that makes it better asks for the baseline to be lowered.
//
// Syntax only (the TypeScript parser, no type checker: the whole run takes ~2 s):
// - an import is a runtime edge unless it is `import type`/`export type` or every name in it is `type X`;
// - an operation is an exported async function (or one declared to return a Promise) of a service module —
//   `service.ts`, `*-service.ts` or a file under a `services/` folder of a feature;
// - its shape is read from its first parameter: the destructured names, or the members of its inline type or
//   of a type/interface declared in the same file;
// - an operation with no actor by nature (a visitor's, a public page's, a job's) says so in its doc comment:
//   `@contract-exception <reason>`; it is listed with its reason and not counted off the contract.
import { readdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const baselineFile = path.join(root, 'scripts', 'architecture-baseline.json');
const args = new Set(process.argv.slice(2));

function walk(dir, keep) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') out.push(...walk(full, keep));
    } else if (keep(full)) out.push(full);
  }
  return out;
}

const isTest = (file) => /\.test\.tsx?$/.test(file) || /[/\\]test[/\\]/.test(file) || /[/\\]test-[^/\\]*\.tsx?$/.test(file);
const rel = (file) => path.relative(root, file).split(path.sep).join('/');

function parse(file) {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

/** The runtime imports of a file (relative specifiers), unresolved. */
function runtimeSpecifiers(source) {
  const out = [];
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause &&
        (clause.isTypeOnly ||
          (!clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) out.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = node.isTypeOnly || (node.exportClause && ts.isNamedExports(node.exportClause) && node.exportClause.elements.length > 0 && node.exportClause.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) out.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      out.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function resolveRelative(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier.replace(/\.(m?js|tsx?)$/, ''));
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** Strongly connected components with more than one file (Tarjan), each sorted. */
function cyclesOf(graph) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const idx = new Map();
  const low = new Map();
  const out = [];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? new Set()).has(v)) out.push(component.map(rel).sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return out;
}

const featureOf = (file, prefix) => {
  const r = rel(file);
  return r.startsWith(prefix) ? r.slice(prefix.length).split('/')[0] : null;
};

// --- server: the runtime import graph --------------------------------------------------------------------
const serverFiles = walk(path.join(root, 'server', 'src'), (f) => /\.ts$/.test(f) && !f.endsWith('.d.ts') && !isTest(f));
const sources = new Map(serverFiles.map((f) => [f, parse(f)]));
const graph = new Map();
for (const [file, source] of sources) {
  graph.set(file, new Set(runtimeSpecifiers(source).map((s) => resolveRelative(file, s)).filter((t) => t && sources.has(t))));
}
const cycles = cyclesOf(graph);

const FEATURES = 'server/src/features/';
const featureEdges = new Map();
for (const [file, targets] of graph) {
  const from = featureOf(file, FEATURES);
  if (!from) continue;
  for (const target of targets) {
    const to = featureOf(target, FEATURES);
    if (to && to !== from) {
      if (!featureEdges.has(from)) featureEdges.set(from, new Set());
      featureEdges.get(from).add(to);
    }
  }
}
const featureGraph = new Map([...featureEdges].map(([from, tos]) => [from, tos]));
const featureCycles = cyclesOf(featureGraph).map((cycle) => cycle.map((name) => name.replace(/^.*\//, '')));
const mutualFeatures = [];
for (const [a, tos] of featureEdges) for (const b of tos) if (a < b && featureEdges.get(b)?.has(a)) mutualFeatures.push(`${a} <-> ${b}`);

// --- server: service operations and their shapes --------------------------------------------------------
const isServiceModule = (file) => {
  const r = rel(file);
  return r.startsWith(FEATURES) && (/(^|[/-])service\.ts$/.test(r) || /\/services\/[^/]+\.ts$/.test(r));
};

function memberNames(typeNode, source) {
  if (!typeNode) return null;
  if (ts.isTypeLiteralNode(typeNode)) return typeNode.members.map((m) => m.name?.getText(source)).filter(Boolean);
  if (ts.isIntersectionTypeNode(typeNode)) {
    const parts = typeNode.types.map((t) => memberNames(t, source));
    return parts.every((p) => p === null) ? null : parts.flatMap((p) => p ?? []);
  }
  if (ts.isTypeReferenceNode(typeNode) && ts.isIdentifier(typeNode.typeName)) {
    const name = typeNode.typeName.text;
    for (const statement of source.statements) {
      if (ts.isInterfaceDeclaration(statement) && statement.name.text === name) {
        const own = statement.members.map((m) => m.name?.getText(source)).filter(Boolean);
        const inherited = (statement.heritageClauses ?? []).flatMap((h) => h.types.flatMap((t) => memberNames(t, source) ?? []));
        return [...own, ...inherited];
      }
      if (ts.isTypeAliasDeclaration(statement) && statement.name.text === name) return memberNames(statement.type, source);
    }
  }
  if (ts.isExpressionWithTypeArguments(typeNode) && ts.isIdentifier(typeNode.expression)) {
    return memberNames(ts.factory.createTypeReferenceNode(typeNode.expression.text), source);
  }
  return null;
}

/** The shape of an operation, from its first parameter. */
function shapeOf(fn, source) {
  const first = fn.parameters[0];
  if (!first) return '()';
  let names = null;
  if (ts.isObjectBindingPattern(first.name)) {
    names = first.name.elements.map((e) => (e.propertyName ?? e.name).getText(source));
    if (first.name.elements.some((e) => e.dotDotDotToken)) names.push('...');
    const typed = memberNames(first.type, source);
    if (typed) names.push(...typed);
  } else {
    names = memberNames(first.type, source);
    if (!names) return `(${first.name.getText(source)}, …)`;
  }
  const has = (n) => names.includes(n);
  if (has('actor') && has('db')) return '{ actor, db }';
  if (has('actor') && has('ctx')) return '{ ctx, actor }';
  if (has('db')) return '{ db } (no actor)';
  if (has('ctx')) return '{ ctx } (no actor)';
  if (has('actor')) return '{ actor } (no db)';
  return '{ … } (neither)';
}
const ON_CONTRACT = new Set(['{ actor, db }', '{ ctx, actor }']);

const isAsync = (fn) => fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword) || (fn.type && /^Promise</.test(fn.type.getText()));
const exported = (node) => node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The reason given by an `@contract-exception` tag in the statement's doc comment, if any. */
function exceptionOf(statement) {
  for (const doc of ts.getJSDocCommentsAndTags(statement)) {
    for (const tag of ts.isJSDoc(doc) ? (doc.tags ?? []) : [doc]) {
      if (tag.tagName?.text === 'contract-exception') return ts.getTextOfJSDocComment(tag.comment)?.trim() || '(no reason given)';
    }
  }
  return null;
}

const operations = [];
for (const [file, source] of sources) {
  if (!isServiceModule(file)) continue;
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && exported(statement) && statement.name && isAsync(statement)) {
      operations.push({ file: rel(file), name: statement.name.text, shape: shapeOf(statement, source), exception: exceptionOf(statement) });
    } else if (ts.isVariableStatement(statement) && exported(statement)) {
      for (const d of statement.declarationList.declarations) {
        const init = d.initializer;
        if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) && isAsync(init)) {
          operations.push({ file: rel(file), name: d.name.getText(source), shape: shapeOf(init, source), exception: exceptionOf(statement) });
        }
      }
    }
  }
}
const shapes = new Map();
for (const op of operations) shapes.set(op.shape, (shapes.get(op.shape) ?? 0) + 1);
const exceptions = operations.filter((op) => !ON_CONTRACT.has(op.shape) && op.exception);
const offContract = operations.filter((op) => !ON_CONTRACT.has(op.shape) && !op.exception);

// --- server: services return rows or domain objects, routes present (DESIGN.md §7) -----------------------
const isPresenter = (file) => /(^|[/-])present(-[^/]*)?\.ts$|-present\.ts$/.test(rel(file));
const presentingServices = [...sources.keys()]
  .filter(isServiceModule)
  .filter((file) => [...(graph.get(file) ?? [])].some((target) => isPresenter(target) && featureOf(target, FEATURES) === featureOf(file, FEATURES)))
  .map(rel);

// --- server: policies written with definePolicy (one vocabulary) ------------------------------------------
const policyFiles = [...sources.keys()].filter((file) => /server\/src\/features\/[^/]+\/policy\.ts$/.test(rel(file)));
const handWrittenPolicies = policyFiles.filter((file) => !/\bdefine(Policy|Rules)\s*[<(]/.test(readFileSync(file, 'utf8'))).map(rel);

// --- web: imports across features ------------------------------------------------------------------------
const WEB_FEATURES = 'web/src/features/';
// The shell: it imports the features (their feature.ts), so a feature importing it ties the two together.
const WEB_APP = 'web/src/app/';
const webFiles = walk(path.join(root, 'web', 'src'), (f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts') && !isTest(f));
const webDeepImports = [];
const webAppImports = [];
for (const file of webFiles) {
  const from = featureOf(file, WEB_FEATURES);
  // web/src/features/index.ts is the registry of every feature, not a feature: it reads each one's feature.ts.
  if (!from || /\.tsx?$/.test(from)) continue;
  for (const specifier of runtimeSpecifiers(parse(file))) {
    const target = resolveRelative(file, specifier);
    if (!target) continue;
    const to = featureOf(target, WEB_FEATURES);
    if (to && to !== from && !/\/index\.tsx?$/.test(target)) webDeepImports.push(`${rel(file)} -> ${rel(target)}`);
    if (rel(target).startsWith(WEB_APP)) webAppImports.push(`${rel(file)} -> ${rel(target)}`);
  }
}

// --- report ----------------------------------------------------------------------------------------------
const figures = {
  serverCycles: cycles.length,
  featureCycles: featureCycles.length,
  mutualFeatureImports: mutualFeatures.length,
  operationsOffContract: offContract.length,
  policiesWithoutDefinePolicy: handWrittenPolicies.length,
  servicesCallingPresenters: presentingServices.length,
  webDeepFeatureImports: webDeepImports.length,
  webFeatureImportsIntoApp: webAppImports.length,
};
const share = operations.length ? ((100 * (operations.length - offContract.length - exceptions.length)) / operations.length).toFixed(1) : '100.0';
console.log(`architecture: ${operations.length} service operations, ${share}% on the contract ({ actor, db } or { ctx, actor }), ${exceptions.length} documented exceptions`);
for (const [shape, n] of [...shapes].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(4)}  ${shape}`);
console.log(`  policies: ${policyFiles.length - handWrittenPolicies.length} of ${policyFiles.length} feature policy.ts files use definePolicy (or defineRules); service modules calling a presenter: ${presentingServices.length}`);
console.log(`  import cycles in server/src: ${cycles.length} among files, ${featureCycles.length} among features; features importing each other: ${mutualFeatures.length}; web imports into another feature's files: ${webDeepImports.length}, from a feature into web/src/app: ${webAppImports.length}`);
if (args.has('--list')) {
  for (const cycle of cycles) console.log(`cycle: ${cycle.join(' -> ')}`);
  for (const cycle of featureCycles) console.log(`feature cycle: ${cycle.join(' -> ')}`);
  for (const pair of mutualFeatures) console.log(`mutual: ${pair}`);
  for (const file of handWrittenPolicies) console.log(`policy without definePolicy: ${file}`);
  for (const file of presentingServices) console.log(`service calling a presenter: ${file}`);
  for (const op of exceptions) console.log(`exception: ${op.file} ${op.name}: ${op.exception}`);
  for (const op of offContract) console.log(`off contract: ${op.file} ${op.name} ${op.shape}`);
  for (const line of webDeepImports) console.log(`web deep import: ${line}`);
  for (const line of webAppImports) console.log(`web app import: ${line}`);
}

if (args.has('--write-baseline')) {
  writeFileSync(baselineFile, `${JSON.stringify(figures, null, 2)}\n`);
  console.log(`wrote ${rel(baselineFile)}`);
  process.exit(0);
}
const baseline = JSON.parse(readFileSync(baselineFile, 'utf8'));
let failed = false;
// Issue 29's acceptance: at least 95% of operations on the contract, exceptions (with their reasons) included.
const MIN_SHARE = 95;
if (Number(share) < MIN_SHARE) {
  console.error(`architecture: ${share}% of operations on the contract, below ${MIN_SHARE}% (the exceptions count against it)`);
  failed = true;
}
for (const [key, value] of Object.entries(figures)) {
  const allowed = baseline[key] ?? 0;
  if (value > allowed) {
    console.error(`architecture: ${key} went up from ${allowed} to ${value} (node scripts/architecture.mjs --list shows them)`);
    failed = true;
  } else if (value < allowed) {
    console.log(`architecture: ${key} is down from ${allowed} to ${value}: lower it in ${rel(baselineFile)} (--write-baseline)`);
  }
}
process.exit(failed ? 1 : 0);
