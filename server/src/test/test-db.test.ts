// Every test file starts from its own copy of the run's migrated template (test-db.ts, global-setup.ts):
// what one file writes is absent from the next, and the template itself never changes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder, type Database } from '../db/client';
import { createTestDatabase, TEMPLATE_ENV, testDbKind } from './test-db';

const opened: Database[] = [];
afterAll(async () => {
  await Promise.all(opened.map((database) => database.close()));
});

async function open(): Promise<Database> {
  const database = await createTestDatabase();
  opened.push(database);
  return database;
}

const count = async (database: Database, sql: string) => Number((await database.executeSql(sql)).rows[0].n);

describe(`test databases (${testDbKind()})`, () => {
  it('come from the run template, fully migrated and with the job queue schema', async () => {
    expect(process.env[TEMPLATE_ENV[testDbKind()]], 'the global setup names a template').toBeTruthy();
    const database = await open();
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
    expect(await count(database, 'SELECT count(*) AS n FROM drizzle.__drizzle_migrations')).toBe(journal.entries.length);
    expect(await count(database, "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'pgboss' AND table_name = 'job'")).toBe(1);
  });

  it('are isolated: rows written in one are absent from the next, and from the template', async () => {
    const first = await open();
    await first.executeSql("INSERT INTO users (name, last_name, email, phone, password_hash) VALUES ('A', 'B', 'isolation@example.com', '1', 'x')");
    expect(await count(first, "SELECT count(*) AS n FROM users WHERE email = 'isolation@example.com'")).toBe(1);
    await first.close();
    opened.splice(opened.indexOf(first), 1);
    const next = await open();
    expect(await count(next, "SELECT count(*) AS n FROM users WHERE email = 'isolation@example.com'")).toBe(0);
    expect(await count(next, 'SELECT count(*) AS n FROM users')).toBe(0);
  });
});
