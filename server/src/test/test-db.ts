// Each test file gets its own database: in-memory PGlite, or a fresh PostgreSQL database
// when TEST_DB=pg (TEST_DATABASE_URL names the server); it is dropped at the end.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPglite, openPostgres, type Database } from '../db/client';

export function testDbKind(): 'pglite' | 'postgres' {
  return process.env.TEST_DB === 'pg' ? 'postgres' : 'pglite';
}

export async function createTestDatabase(kind: 'pglite' | 'postgres' = testDbKind()): Promise<Database> {
  if (kind === 'pglite') {
    const database = await openPglite(null);
    await database.migrate();
    return database;
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DB=pg needs TEST_DATABASE_URL');
  const name = `pluma_t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString());
  await database.migrate();
  const close = database.close;
  database.close = async () => {
    await close();
    const dropper = new pg.Client({ connectionString: serverUrl });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  };
  return database;
}
