// Deletes the rows a condition names, a batch at a time, so one sweep never holds a long statement (PGlite
// runs one statement at a time for the whole server) nor a lock on many rows. Used by the sweeps that keep
// short-lived credentials (one-time tokens, phone sign-in codes) from piling up.
import { inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/** Rows one DELETE removes at most. */
export const DELETE_BATCH = 2_000;

/** Deletes every row of `table` matching `where`, `batch` rows per statement; returns how many went. */
export async function deleteInBatches(db: Db, table: PgTable, id: PgColumn, where: SQL | undefined, batch = DELETE_BATCH): Promise<number> {
  let deleted = 0;
  for (;;) {
    const ids = db.select({ id }).from(table).where(where).limit(batch);
    const gone = await db.delete(table).where(inArray(id, ids)).returning({ id });
    deleted += gone.length;
    if (gone.length < batch) return deleted;
  }
}
