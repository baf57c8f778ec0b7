import type pg from "pg";

/**
 * Makes each PostgreSQL connection parse (and, once PostgreSQL finds a generic plan as good, plan)
 * a parameterised statement once instead of on every request: the statement is given a name
 * derived from its text, which turns it into a prepared statement of that connection.
 *
 * Parsing and planning cost the database more than running a key lookup does, and the driver
 * also sends and reads less for a statement it has prepared before; a list request makes
 * several such statements. Only statements with parameters are named: they already travel in
 * the extended protocol, while parameterless text may hold several statements, which a
 * prepared statement cannot. Both the names and the statements each connection keeps are
 * bounded, so statements built with a varying number of parameters (long `in` lists) cannot
 * grow the server's memory without limit: past the bounds, statements go unnamed as before.
 */
export interface StatementNames {
  /** The name of a statement's text, or undefined once the table of names is full. */
  nameOf(text: string): string | undefined;
}

export function createStatementNames(maxNames = 2_000): StatementNames {
  const names = new Map<string, string>();
  return {
    nameOf(text) {
      const known = names.get(text);
      if (known !== undefined || names.size >= maxNames) return known;
      const name = `tarmac_${names.size + 1}`;
      names.set(text, name);
      return name;
    },
  };
}

type QueryConfig = { text?: unknown; name?: unknown; values?: unknown };

/** The driver takes the values inside the statement's config or as the argument after it. */
function hasValues(config: QueryConfig, values: unknown): boolean {
  const given = values ?? config.values;
  return Array.isArray(given) && given.length > 0;
}

/** Names the parameterised statements `client` sends, up to `maxPerConnection` distinct ones. */
export function nameStatementsOf(client: pg.Client, names: StatementNames, maxPerConnection = 300): void {
  const prepared = new Set<string>();
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const naming = (config: unknown, ...rest: unknown[]) => {
    const candidate = config as QueryConfig | null;
    if (
      candidate &&
      typeof candidate === "object" &&
      typeof candidate.text === "string" &&
      candidate.name === undefined &&
      hasValues(candidate, Array.isArray(rest[0]) ? rest[0] : undefined)
    ) {
      const name = names.nameOf(candidate.text);
      if (name !== undefined && (prepared.has(name) || prepared.size < maxPerConnection)) {
        prepared.add(name);
        return query({ ...candidate, name }, ...rest);
      }
    }
    return query(config, ...rest);
  };
  client.query = naming as typeof client.query;
}
