// The embedded database in its own thread (pglite-worker.mjs): this client offers what drizzle's PGlite
// driver, its migrator and our pg-boss adapter call on a PGlite instance — query(), exec(), transaction(),
// close() — and forwards each call to the worker. The server's event loop only posts SQL and receives rows.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { migrationsFolder, templateFor } from './pglite-template';

export interface ThreadResult {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

interface QueryOptions {
  rowMode?: 'array' | 'object';
  /** Only identity parsers are supported (drizzle's: timestamps, dates and intervals kept as text). */
  parsers?: Record<number, unknown>;
}

interface Pending {
  resolve: (value: never) => void;
  reject: (err: Error) => void;
}

type Request = { op: 'query'; sql: string; params?: unknown[]; rowMode?: string; rawTypes?: number[] } | { op: 'exec'; sql: string } | { op: 'begin' } | { op: 'commit' | 'rollback' } | { op: 'close' } | { op: 'dump' };

/** A PostgreSQL error from the worker, with its fields (code, constraint, detail …) as PGlite gave them. */
function rebuildError(fields: Record<string, unknown>): Error {
  const err = new Error(String(fields.message));
  Object.assign(err, fields);
  return err;
}

function workerFile(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // src/db/pglite-thread.ts → src/db/pglite-worker.mjs; dist/main.js → dist/pglite-worker.mjs
  const file = path.join(here, 'pglite-worker.mjs');
  if (!existsSync(file)) throw new Error(`pglite-worker.mjs not found near ${here}`);
  return file;
}

/**
 * Creates the database in `dataDir` in a short-lived process (`node pglite-worker.mjs --init <dir>`).
 * Done in the server's process, initdb left ~400 MB resident for good: a second PGlite instance and a copy
 * of its WebAssembly memory (garbage that no collection is prompted to reclaim on an idle server) and the
 * freed buffers malloc keeps. A process returns all of it when it exits (docs/deploy.md, "Memory").
 * --liftoff-only: initdb's code mostly runs once, so V8's optimising compiler only costs time there
 * (creating a database took ~40% less time with it on a busy 2-core machine).
 */
async function createDatabase(dataDir: string): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, ['--liftoff-only', workerFile(), '--init', dataDir], { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const { stderr, message } = err as { stderr?: string; message: string };
    throw new Error(`the embedded database could not be created in ${dataDir}: ${stderr?.trim() || message}`);
  }
}

/** The statements of one open transaction, run on the worker's transaction handle. */
class ThreadTransaction {
  constructor(
    private readonly thread: PgliteThread,
    readonly transactionId: number,
  ) {}

  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<ThreadResult> {
    return this.thread.query(sql, params, options, this.transactionId);
  }

  exec(sql: string): Promise<ThreadResult[]> {
    return this.thread.exec(sql, this.transactionId);
  }
}

export class PgliteThread {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: { id: number; result?: unknown; error?: Record<string, unknown> }) => {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (this.pending.size === 0) worker.unref();
      if (message.error) waiting.reject(rebuildError(message.error));
      else waiting.resolve(message.result as never);
    });
    // A crashed worker fails every waiting and later call instead of leaving them hanging.
    const fail = (err: Error) => {
      this.failure ??= err;
      for (const waiting of this.pending.values()) waiting.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the database thread stopped (exit code ${code})`)));
  }

  /**
   * Starts the worker and opens the database (in `dataDir`, created first if new; in memory when null).
   * `loadDataDir`: an in-memory database starts as a copy of this tar (see dumpDataDir) instead of initdb.
   * `template`: a new `dataDir` starts as a copy of this migrated data directory (pglite-template.ts), made
   * by the thread, so the copy runs beside whatever the server's thread does meanwhile.
   */
  static async create(dataDir: string | null, options: { loadDataDir?: string; template?: string | null } = {}): Promise<PgliteThread> {
    if (dataDir && !options.template && !existsSync(path.join(dataDir, 'PG_VERSION'))) await createDatabase(dataDir);
    // The thread's JavaScript only relays rows: a young generation of 8 MB instead of V8's default (which
    // grows to 16 MB resident and stays there when idle) saves ~10 MB.
    const worker = new Worker(workerFile(), { workerData: { dataDir, loadDataDir: options.loadDataDir, template: options.template }, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`the database thread stopped while opening (exit code ${code})`));
      worker.once('error', reject);
      worker.once('exit', onExit);
      worker.once('message', (message: { ready: boolean; error?: Record<string, unknown> }) => {
        worker.off('error', reject);
        worker.off('exit', onExit);
        if (message.ready) resolve();
        else {
          reject(rebuildError(message.error ?? { message: 'the database could not be opened' }));
          void worker.terminate();
        }
      });
    });
    // The thread keeps the process alive only while a call waits on it (like a socket with a request out).
    worker.unref();
    return new PgliteThread(worker);
  }

  private send<T>(request: Request & { transactionId?: number }): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: never) => void, reject });
      this.worker.ref();
      this.worker.postMessage({ ...request, id });
    });
  }

  query(sql: string, params?: unknown[], options?: QueryOptions, transactionId?: number): Promise<ThreadResult> {
    const rawTypes = options?.parsers ? Object.keys(options.parsers).map(Number) : undefined;
    return this.send({ op: 'query', sql, params, rowMode: options?.rowMode, rawTypes, transactionId });
  }

  /** Several statements without parameters (migrations, pg-boss); one result per statement. */
  exec(sql: string, transactionId?: number): Promise<ThreadResult[]> {
    return this.send({ op: 'exec', sql, transactionId });
  }

  /** Like PGlite's transaction(): commits when `fn` resolves, rolls back when it throws. */
  async transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const { transactionId } = await this.send<{ transactionId: number }>({ op: 'begin' });
    let result: T;
    try {
      result = await fn(new ThreadTransaction(this, transactionId));
    } catch (err) {
      await this.send({ op: 'rollback', transactionId });
      throw err;
    }
    await this.send({ op: 'commit', transactionId });
    return result;
  }

  /** The data directory as an uncompressed tar, for `create(null, { loadDataDir })`. */
  dumpDataDir(): Promise<Uint8Array> {
    return this.send({ op: 'dump' });
  }

  async close(): Promise<void> {
    if (!this.failure) await this.send({ op: 'close' });
    await this.worker.terminate();
  }
}

/**
 * The embedded database's thread on `dataDir` (its `pglite/`). A new data directory starts as a copy of the
 * build's migrated template (pglite-template.ts), which the thread makes before opening it. Here, without
 * drizzle, so main.ts starts it before the rest of the server loads.
 */
export function startPgliteThread(dataDir: string): Promise<PgliteThread> {
  const pgliteDir = path.join(dataDir, 'pglite');
  return PgliteThread.create(pgliteDir, { template: templateFor(pgliteDir, migrationsFolder()) });
}
