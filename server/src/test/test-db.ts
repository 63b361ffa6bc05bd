// Each test file gets its own database: in-memory PGlite, or a fresh PostgreSQL database
// when TEST_DB=pg (TEST_DATABASE_URL names the server); it is dropped at the end.
//
// Migrating is paid once per run, not per file (issue 26): the server project's global setup
// (global-setup.ts) builds a migrated template — with pg-boss's schema — and names it in the environment.
// A PGlite database then starts as a copy of the template's data directory (a tar), a PostgreSQL one with
// CREATE DATABASE … TEMPLATE. Without a template (a script, or the global setup not run) each database is
// migrated as before.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { openPglite, openPostgres, type Database } from '../db/client';
import { TEMPLATE_ENV } from './template-env';

export { TEMPLATE_ENV };

export function testDbKind(): 'pglite' | 'postgres' {
  return process.env.TEST_DB === 'pg' ? 'postgres' : 'pglite';
}

function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=pg needs TEST_DATABASE_URL');
  return url;
}

function databaseUrl(name: string): string {
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

/** Runs one statement on the server's maintenance database (CREATE/DROP DATABASE). */
async function onServer(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** Migrations and pg-boss's schema: what the app would create on a new database at boot. */
async function prepare(database: Database): Promise<void> {
  await database.migrate();
  // pg-boss checks its schema's version at start and creates nothing when it is there.
  await database.executeSql(PgBoss.getConstructionPlans('pgboss'));
}

export async function createTestDatabase(kind: 'pglite' | 'postgres' = testDbKind()): Promise<Database> {
  const template = process.env[TEMPLATE_ENV[kind]];
  if (kind === 'pglite') {
    const database = await openPglite(null, { loadDataDir: template });
    if (!template) await database.migrate();
    return database;
  }
  const name = uniqueName('pluma_t');
  await onServer(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const database = await openPostgres(databaseUrl(name));
  if (!template) await database.migrate();
  const close = database.close;
  database.close = async () => {
    await close();
    await onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  return database;
}

export interface TestTemplate {
  /** What TEMPLATE_ENV[kind] is set to: the tar file (PGlite) or the database's name (PostgreSQL). */
  ref: string;
  drop(): Promise<void>;
}

/** Builds the run's migrated template (global-setup.ts). `tarFile`: where PGlite's copy is written. */
export async function createTestTemplate(kind: 'pglite' | 'postgres', tarFile: string): Promise<TestTemplate> {
  if (kind === 'pglite') {
    const database = await openPglite(null);
    try {
      await prepare(database);
      writeFileSync(tarFile, await database.dumpDataDir!());
    } finally {
      await database.close();
    }
    return { ref: tarFile, drop: async () => undefined };
  }
  const name = uniqueName('pluma_tpl');
  await onServer(`CREATE DATABASE ${name}`);
  const database = await openPostgres(databaseUrl(name));
  try {
    await prepare(database);
  } finally {
    // No connection may stay open on a template: CREATE DATABASE … TEMPLATE refuses a template in use.
    await database.close();
  }
  return { ref: name, drop: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
