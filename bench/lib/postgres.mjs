// Scratch PostgreSQL databases for benchmarks: created fresh, dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server benchmarks use (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local default). */
export const POSTGRES_SERVER_URL =
  process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function adminQuery(sql) {
  const client = new pg.Client({ connectionString: POSTGRES_SERVER_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** False when no PostgreSQL answers (benchmarks then report n/a instead of failing the run). */
export async function postgresAvailable() {
  try {
    await adminQuery('select 1');
    return true;
  } catch {
    return false;
  }
}

/** Creates an empty database; returns { url, drop() }. */
export async function createScratchDatabase(label) {
  const name = `pluma_bench_${label.replace(/[^a-z0-9_]/gi, '_')}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
