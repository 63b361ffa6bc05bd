// One dialect, two deployments: embedded PGlite in DATA_DIR, or a PostgreSQL server (DESIGN.md §1.3).
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { PgliteThread, startPgliteThread } from './pglite-thread';
import { migrationsFolder } from './pglite-template';
import * as schema from './schema';

export { migrationsFolder };

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle, usable wherever a Db is. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Runs raw SQL; used by pg-boss and by tools that need plain SQL on either driver. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  executeSql: ExecuteSql;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Present for PostgreSQL: the connection string (pg-boss and Socket.IO helpers use it). */
  url?: string;
  /** Present for PGlite: the data directory as a tar (the tests' template database). */
  dumpDataDir?(): Promise<Uint8Array>;
}

/**
 * `loadDataDir`: an in-memory database (dataDir null) starts as a copy of this tar file (dumpDataDir).
 * `thread`: one startPgliteThread already started on `dataDir` (main.ts).
 */
export async function openPglite(dataDir: string | null, options: { loadDataDir?: string; thread?: Promise<PgliteThread> } = {}): Promise<Database> {
  // PGlite runs in a worker thread, off the server's event loop (pglite-worker.mjs).
  const client = await (options.thread ?? (dataDir ? startPgliteThread(dataDir) : PgliteThread.create(null, { loadDataDir: options.loadDataDir })));
  // drizzle's PGlite driver calls query(), exec() and transaction(), which the thread client forwards.
  const db = drizzlePglite({ client: client as unknown as PGlite, schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    async executeSql(text, values) {
      // PGlite's query() takes one statement; pg-boss sends multi-statement SQL without parameters.
      if (!values || values.length === 0) {
        const results = await client.exec(text);
        return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
      }
      const result = await client.query(text, values as unknown[]);
      return { rows: result.rows as Record<string, unknown>[] };
    },
    migrate: () => migratePglite(db as never, { migrationsFolder: migrationsFolder() }),
    dumpDataDir: () => client.dumpDataDir(),
    close: () => client.close(),
  };
}

export async function openPostgres(url: string): Promise<Database> {
  // jit off: PostgreSQL's JIT compiles any query whose estimate passes jit_above_cost, which the back
  // office's aggregates over a month of a large shop do; compiling took 2.3 of 4.1 s of such a query on two
  // cores, for queries that run once (docs/decisions.md "Back-office at scale").
  const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c jit=off' });
  // An idle client's error (server restart, database dropped) must not crash the process; the pool
  // discards that client and the next query opens a new connection.
  pool.on('error', (err) => console.error('PostgreSQL idle client error:', err.message));
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    url,
    async executeSql(text, values) {
      const result = await pool.query(text, values as unknown[]);
      return { rows: result.rows };
    },
    migrate: () => migratePostgres(pool),
    close: () => pool.end(),
  };
}

/** Key of the migration advisory lock: any fixed bigint no other code on the database uses. */
const MIGRATION_LOCK_KEY = '7013371220240501';

/**
 * drizzle's migrator is not safe to run from two sessions at once: on a fresh database both run
 * CREATE SCHEMA / CREATE TABLE and all but one fail, and two nodes could each apply a pending
 * migration. So nodes booting together take turns: a session-level advisory lock (scoped to this
 * database) is held on one pooled connection, and the migrator runs through a drizzle instance bound
 * to that same connection. The others wait in pg_advisory_lock, then find nothing left to apply.
 * If the process dies, PostgreSQL closes its connection and with it the lock.
 */
async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg({ client, schema }) as never, { migrationsFolder: migrationsFolder() });
    await client.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]);
  } catch (err) {
    // Discarding the connection (not returning it to the pool) also releases the lock if held.
    client.release(err as Error);
    throw err;
  }
  client.release();
}

export function openDatabase(options: { databaseUrl?: string; dataDir: string; pgliteThread?: Promise<PgliteThread> }): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir, { thread: options.pgliteThread });
}
