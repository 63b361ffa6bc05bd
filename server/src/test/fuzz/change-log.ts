// Which application tables a request changed, for the fuzz test's "a refused request changes nothing".
// A row trigger on every table of the `public` schema logs the table of each row inserted, deleted or
// changed (and each TRUNCATE) into fuzz_watch.changes, in the writer's own transaction (a rolled-back write
// logs nothing); reading the log empties it. One small query a look: the md5 fingerprint of every table it
// replaced cost ~24 ms a read on PGlite, read ~800 times per fuzz part (issue 26).
// pg-boss's queue (`pgboss` schema, written on its own timers) and drizzle's migration log are not watched.
import type { Database } from '../../db/client';

/**
 * Columns whose change alone is not a change, each written by reads by design:
 * - last_used_at (users, sessions): the idle-session clock and "last seen", touched at most once a minute by
 *   any authenticated request, refused or not (platform/auth/sessions.ts needsTouch).
 */
const VOLATILE_COLUMNS = ['last_used_at'];

/** Installs the triggers in this test database; returns the reader of the tables changed since the last read. */
export async function watchTableChanges(database: Database): Promise<() => Promise<string[]>> {
  const run = (sql: string) => database.executeSql(sql, []);
  const { rows } = await run(
    "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
  );
  const tables = rows.map((r) => String(r.table_name));
  if (tables.length === 0) throw new Error('no tables to watch');
  const volatile = `'{${VOLATILE_COLUMNS.join(',')}}'::text[]`;
  await run('create schema fuzz_watch');
  await run('create unlogged table fuzz_watch.changes (table_name text not null)');
  await run(`create function fuzz_watch.note() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and (to_jsonb(new) - ${volatile}) = (to_jsonb(old) - ${volatile}) then
        return null;
      end if;
      insert into fuzz_watch.changes values (tg_table_name);
      return null;
    end $$`);
  for (const table of tables) {
    await run(`create trigger fuzz_watch_rows after insert or update or delete on public."${table}" for each row execute function fuzz_watch.note()`);
    await run(`create trigger fuzz_watch_truncate after truncate on public."${table}" for each statement execute function fuzz_watch.note()`);
  }
  return async () => {
    const result = await run('with read as (delete from fuzz_watch.changes returning table_name) select distinct table_name from read order by table_name');
    return result.rows.map((r) => String(r.table_name));
  };
}
