// A fingerprint of every application table (row count and md5 of its rows), read in one statement, so the
// fuzz test can tell that a refused request changed nothing.
import type { Database } from '../../db/client';

/**
 * Columns left out everywhere, each written by reads by design:
 * - last_used_at (users, sessions): the idle-session clock and "last seen", touched at most once a minute by
 *   any authenticated request, refused or not (platform/auth/sessions.ts needsTouch).
 */
const VOLATILE_COLUMNS = ['last_used_at'];

export type Fingerprint = Record<string, string>;

/**
 * Only the application's own schema (`public`) is read: pg-boss keeps its queue in the `pgboss` schema and
 * writes it on its own timers (maintenance, cron), and drizzle's migration log lives in `drizzle`.
 */
export async function fingerprintReader(database: Database): Promise<() => Promise<Fingerprint>> {
  const { rows } = await database.executeSql(
    "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
    [],
  );
  const tables = rows.map((r) => String(r.table_name));
  if (tables.length === 0) throw new Error('no tables to fingerprint');
  const drop = `'{${VOLATILE_COLUMNS.join(',')}}'::text[]`;
  const parts = tables.map(
    (table) =>
      `(select count(*)::text || ':' || coalesce(md5(string_agg((to_jsonb(t) - ${drop})::text, '|' order by (to_jsonb(t) - ${drop})::text)), '') from "${table}" t) as "${table}"`,
  );
  const statement = `select ${parts.join(', ')}`;
  return async () => {
    const result = await database.executeSql(statement, []);
    return result.rows[0] as Fingerprint;
  };
}

/**
 * The next transaction id PostgreSQL will hand out. A statement that writes takes one; reads do not. So while
 * it stays the same nothing was written, and the full fingerprint only needs reading when it moved.
 */
export function writeClock(database: Database): () => Promise<string> {
  return async () => {
    const { rows } = await database.executeSql('select pg_snapshot_xmax(pg_current_snapshot())::text as xmax', []);
    return String(rows[0]?.xmax);
  };
}

/** The tables whose fingerprint differs. */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  return Object.keys(after).filter((table) => before[table] !== after[table]);
}
