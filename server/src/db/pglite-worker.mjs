// The embedded database's thread (DESIGN.md §6: "PGlite runs on the event loop … if a benchmark shows
// event-loop stalls, move it to a worker thread" — bench/chat-first-token.mjs showed them: GET /api/health
// p99 went from 5 ms to 173 ms during 100 streams). PGlite executes here; the server's thread only sends
// SQL and receives rows (pglite-thread.ts). Plain JavaScript, so it runs unchanged from src/ (tsx, Vitest)
// and from dist/ (copied by build.mjs).
//
// Run as a process instead (`node pglite-worker.mjs --init <dir>`), it creates a new database in <dir> and
// exits: pglite-thread.ts does that before the first boot, so initdb's memory is given back to the system
// with the process (docs/deploy.md, "Memory").
import { readFile } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse, protocol } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { vector } from '@electric-sql/pglite-pgvector';
import { copyDataDir } from './pglite-copy.mjs';

/**
 * shared_buffers=16MB: the 128MB initdb chooses is allocated and zero-filled inside the WebAssembly memory
 * when PostgreSQL starts, so all of it is resident from the first second; 16MB saves ~112MB on an idle
 * server. Passed at every start (so existing databases get it too) and to initdb (written to
 * postgresql.conf, and its bootstrap runs use less memory).
 */
const OPTIONS = {
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'],
  initDbStartParams: ['--set', 'shared_buffers=16MB'],
  // pg_trgm: the back office's substring searches (migration 0011 creates the extension and its indexes).
  // unaccent and vector (pgvector): the knowledge area's accent-folded full-text search and chunk vectors (0013).
  extensions: { pg_trgm, unaccent, vector },
};

/** @type {PGlite} */
let db;
/** Open transactions by id: the handle to run statements on and how to end it. */
const transactions = new Map();
let nextTransactionId = 1;

const identity = (value) => value;

/** PGlite's query options from the message: drizzle asks for timestamps, dates and intervals as text. */
function queryOptions(message) {
  const options = { rowMode: message.rowMode ?? 'object' };
  if (message.rawTypes?.length) options.parsers = Object.fromEntries(message.rawTypes.map((oid) => [oid, identity]));
  return options;
}

/** The handle a statement runs on: the open transaction it belongs to, else the database. */
function target(message) {
  if (message.transactionId === undefined) return db;
  const open = transactions.get(message.transactionId);
  if (!open) throw new Error(`transaction ${message.transactionId} is not open`);
  return open.tx;
}

/** Errors cross threads as plain objects: PostgreSQL's fields (code, constraint, detail …) must survive. */
function serializeError(err) {
  if (!(err instanceof Error)) return { message: String(err) };
  const fields = {};
  for (const [key, value] of Object.entries(err)) {
    if (value === undefined || typeof value === 'function') continue;
    fields[key] = typeof value === 'object' && value !== null ? JSON.parse(JSON.stringify(value)) : value;
  }
  return { ...fields, name: err.name, message: err.message };
}

/** BEGIN: PGlite's transaction() holds its lock (other statements wait) until COMMIT or ROLLBACK arrives. */
function begin() {
  return new Promise((resolveBegun, rejectBegun) => {
    const transactionId = nextTransactionId++;
    let end;
    const finished = db
      .transaction(
        (tx) =>
          new Promise((commit, rollback) => {
            end = { commit, rollback };
            transactions.set(transactionId, { tx, end, finished });
            resolveBegun({ transactionId });
          }),
      )
      .finally(() => transactions.delete(transactionId));
    finished.catch(rejectBegun);
  });
}

async function end(message, outcome) {
  const open = transactions.get(message.transactionId);
  if (!open) throw new Error(`transaction ${message.transactionId} is not open`);
  if (outcome === 'commit') {
    open.end.commit();
    await open.finished;
  } else {
    open.end.rollback(new Error('rolled back'));
    await open.finished.catch(() => undefined);
  }
  return null;
}

/**
 * Statements prepared once and run by name (issue 31 item 2: PGlite P1 first token). PGlite's query() sends
 * Parse, Describe, Bind, Describe, Execute and Sync as six calls into PostgreSQL and parses and plans the
 * SQL every time; the statement before each answer's first token (save-prompt.ts) spent most of its ~4 ms
 * there. drizzle sends the same text for the same query (values are parameters), so statements are keyed
 * by their text, the least recently used closed beyond MAX_STATEMENTS, and a run is Bind … Sync in one call.
 * Only outside transactions: a transaction's statements run on its own handle (PGlite's lock).
 */
const MAX_STATEMENTS = 200;
/** SQL text → { name, paramTypes }, in order of last use. */
const statements = new Map();
let nextStatement = 1;
/** PostgreSQL's codes for a named statement that no longer fits (a migration changed its table) or is gone. */
const STALE_STATEMENT = new Set(['0A000', '26000']);

function joinMessages(...parts) {
  const joined = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

/** The statement of `sql`, prepared now if new (its parameter types from Describe), the least used closed. */
async function statementFor(sql) {
  const known = statements.get(sql);
  if (known) {
    statements.delete(sql);
    statements.set(sql, known);
    return known;
  }
  const name = `pluma_${nextStatement++}`;
  const { serialize } = protocol;
  const described = await db.execProtocolStream(joinMessages(serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()), { syncToFs: false });
  const statement = { name, paramTypes: parse.parseDescribeStatementResults(described) };
  statements.set(sql, statement);
  if (statements.size > MAX_STATEMENTS) {
    const [oldestSql, oldest] = statements.entries().next().value;
    statements.delete(oldestSql);
    await db.execProtocolStream(joinMessages(serialize.close({ type: 'S', name: oldest.name }), serialize.sync()), { syncToFs: false });
  }
  return statement;
}

/**
 * PGlite's parsers with drizzle's identity ones over them, merged once per set of types: parseResults merges
 * them on every call when given options.parsers, copying ~300 entries (0.17 ms a query on this machine).
 */
const mergedParsers = new Map();
function parsersFor(rawTypes) {
  if (!rawTypes?.length) return db.parsers;
  const key = rawTypes.join(',');
  let merged = mergedParsers.get(key);
  if (!merged) {
    merged = { ...db.parsers, ...Object.fromEntries(rawTypes.map((oid) => [oid, identity])) };
    mergedParsers.set(key, merged);
  }
  return merged;
}

/** A query outside any transaction, by its prepared statement: what PGlite's query() returns, in one call. */
function preparedQuery(message) {
  const { serialize } = protocol;
  const params = message.params ?? [];
  const options = queryOptions(message);
  return db._runExclusiveTransaction(() =>
    db._runExclusiveQuery(async () => {
      let statement;
      try {
        statement = await statementFor(message.sql);
        const values = params.map((value, index) => {
          if (value === null || value === undefined) return null;
          const serializer = db.serializers[statement.paramTypes[index]];
          return serializer ? serializer(value) : value.toString();
        });
        const run = joinMessages(serialize.bind({ statement: statement.name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync());
        const messages = await db.execProtocolStream(run, { syncToFs: false });
        await db.syncToFs();
        return parse.parseResults(messages, parsersFor(message.rawTypes), { rowMode: options.rowMode })[0];
      } catch (err) {
        // As PGlite's query() reports it: the statement and its values on the error.
        if (err && typeof err === 'object') Object.assign(err, { query: message.sql, params: message.params, queryOptions: options });
        if (statement && STALE_STATEMENT.has(err?.code)) {
          statements.delete(message.sql);
          err.staleStatement = true;
        }
        throw err;
      }
    }),
  );
}

/**
 * A substring search (LIKE) keeps PGlite's own path, planned for each run's pattern: after five runs a named
 * statement may settle on one generic plan, blind to how rare the pattern is, and the heavy-users bench showed
 * it (documents and avatars search 1.6–1.75× → 2.4–2.7× heavy ÷ light, A/B under the same load). Forcing
 * custom plans for every named statement instead cost the chat's first token ~1.3 ms (A/B, quiet).
 */
const SUBSTRING_SEARCH = /\blike\b/i;

async function runQuery(message) {
  if (message.transactionId !== undefined || SUBSTRING_SEARCH.test(message.sql)) return target(message).query(message.sql, message.params, queryOptions(message));
  try {
    return await preparedQuery(message);
  } catch (err) {
    // A statement a migration made stale is prepared again once, by PGlite's own path.
    if (!err?.staleStatement) throw err;
    return db.query(message.sql, message.params, queryOptions(message));
  }
}

async function handle(message) {
  switch (message.op) {
    case 'query': {
      const result = await runQuery(message);
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
    }
    case 'exec': {
      const results = await target(message).exec(message.sql);
      return results.map((result) => ({ rows: result.rows, fields: result.fields, affectedRows: result.affectedRows }));
    }
    case 'begin':
      return begin();
    case 'commit':
    case 'rollback':
      return end(message, message.op);
    case 'dump': {
      // The whole data directory as an uncompressed tar: tests migrate once and open copies of it.
      const file = await db.dumpDataDir('none');
      return new Uint8Array(await file.arrayBuffer());
    }
    case 'close':
      await db.close();
      return null;
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

async function serve() {
  // WebAssembly code stays on V8's baseline compiler (Liftoff): the optimising tier (TurboFan) recompiles
  // PostgreSQL's hot functions in the background and malloc keeps its freed working memory, ~50 MB on an
  // idle server. Requests are not slower for it (GET /api/users: same req/s and p99 on a busy 2-core
  // machine; a CPU-bound aggregate query is 20–50% slower). Set before PGlite compiles its module; V8's flags are
  // per process, so any WebAssembly the server compiles later (undici's HTTP parser) runs on Liftoff too.
  setFlagsFromString('--liftoff-only');
  parentPort.on('message', (message) => {
    handle(message).then(
      (result) => parentPort.postMessage({ id: message.id, result }),
      (err) => parentPort.postMessage({ id: message.id, error: serializeError(err) }),
    );
  });
  try {
    // A new data directory: the build's migrated template, copied here (pglite-copy.mjs, pglite-thread.ts).
    if (workerData.template) copyDataDir(workerData.template, workerData.dataDir);
    if (workerData.dataDir) db = await PGlite.create(workerData.dataDir, OPTIONS);
    else if (workerData.loadDataDir) db = await PGlite.create({ ...OPTIONS, loadDataDir: new Blob([await readFile(workerData.loadDataDir)]) });
    else db = await PGlite.create(OPTIONS);
    parentPort.postMessage({ ready: true });
  } catch (err) {
    parentPort.postMessage({ ready: false, error: serializeError(err) });
  }
}

/** `node pglite-worker.mjs --init <dir>`: creates the database (PGlite runs initdb), closes it, exits. */
async function initialize(dataDir) {
  const created = await PGlite.create(dataDir, OPTIONS);
  await created.close();
}

if (isMainThread) {
  const [flag, dataDir] = process.argv.slice(2);
  if (flag !== '--init' || !dataDir) {
    console.error('usage: node pglite-worker.mjs --init <data directory>');
    process.exit(2);
  }
  await initialize(dataDir);
} else {
  await serve();
}
