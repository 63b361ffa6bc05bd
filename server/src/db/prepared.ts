// Queries on the path of every message (and the session lookup of every request) are built once per database (tests run several in one process)
// and prepared: drizzle then skips building the SQL, and node-postgres names the statement, so PostgreSQL
// parses and plans it once per connection. Values go in through sql.placeholder().
import type { Db } from './client';

export function preparedPerDatabase<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const built = new WeakMap<Db, Q>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
