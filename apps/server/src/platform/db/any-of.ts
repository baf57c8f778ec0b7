import { type Column, Param, type Placeholder, type SQL, sql } from "drizzle-orm";

/**
 * `column = any($1)`: the column equals one of `values`, which travel as one array parameter
 * (or fill a prepared statement's placeholder). Unlike `inArray` (one parameter per value), the
 * statement's text does not depend on how many values there are, so it is parsed and planned
 * once per connection (named-statements.ts), and building it costs the same for a page of 100
 * ids as for one. An empty list matches nothing.
 */
export function anyOf(column: Column, values: readonly (number | string)[] | Placeholder): SQL {
  const list = Array.isArray(values) ? new Param(values) : values;
  return sql`${column} = any(${list}::${sql.raw(column.getSQLType())}[])`;
}
