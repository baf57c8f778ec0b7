import type { Database } from "./client.ts";

/**
 * A statement built once per database handle (`build` ends in drizzle's `.prepare(name)`) and
 * then run with placeholders: for the lookups every request makes, building the statement text
 * anew cost the server more than the database took to answer it. Transactions are handles too;
 * theirs are forgotten with them.
 */
export function preparedPerDatabase<Query>(build: (db: Database) => Query): (db: Database) => Query {
  const built = new WeakMap<Database, Query>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
