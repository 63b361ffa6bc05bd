// The rows of a raw `db.execute(sql…)`: node-postgres and PGlite both answer `{ rows }`, but drizzle types the
// union of the two drivers' results as unknown.
export function rowsOf<Row = Record<string, unknown>>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}
