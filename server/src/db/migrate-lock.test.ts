// Several nodes booting at once on a fresh PostgreSQL database: each migrates under the advisory lock
// (client.ts), so all succeed and every migration is applied once. Without the lock they race on
// CREATE SCHEMA / CREATE TABLE and all but one fail. Needs TEST_DATABASE_URL (CI sets it).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder, openPostgres, type Database } from './client';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

describe.skipIf(!TEST_DATABASE_URL)('migrations on PostgreSQL from several nodes at once (needs TEST_DATABASE_URL)', () => {
  const name = `pluma_t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}_mig`;
  const nodes: Database[] = [];

  beforeAll(async () => {
    await admin((client) => client.query(`CREATE DATABASE ${name}`));
  });

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.close()));
    await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  });

  it('all nodes succeed, the schema is migrated once and the lock is released', async () => {
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    // Separate pools = separate PostgreSQL sessions, as separate processes would have.
    for (let i = 0; i < 4; i++) nodes.push(await openPostgres(url.toString()));

    const results = await Promise.allSettled(nodes.map((node) => node.migrate()));
    const failures = results.flatMap((result) =>
      result.status === 'rejected' ? [`${result.reason} (${(result.reason as Error).cause ?? 'no cause'})`] : [],
    );
    expect(failures).toEqual([]);

    const journal = JSON.parse(readFileSync(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    const { rows } = await nodes[0].executeSql('SELECT hash FROM drizzle.__drizzle_migrations');
    expect(rows).toHaveLength(journal.entries.length);
    expect(new Set(rows.map((row) => row.hash)).size).toBe(journal.entries.length);

    // No node still holds (or waits for) the lock in this database.
    const locks = await nodes[0].executeSql(
      `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
       WHERE l.locktype = 'advisory' AND d.datname = current_database()`,
    );
    expect(locks.rows[0].n).toBe(0);

    // A later boot (schema up to date) is a no-op that still succeeds.
    await nodes[1].migrate();
    const again = await nodes[0].executeSql('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    expect(again.rows[0].n).toBe(journal.entries.length);
  });
});
