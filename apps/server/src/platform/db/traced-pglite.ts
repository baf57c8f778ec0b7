import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { Tracing } from "../telemetry/tracing.ts";

type Queries = Pick<PGlite, "query" | "exec">;

function tracedQueries(target: Queries, tracing: Tracing): Queries {
  return {
    query: (text, params, options) => tracing.runStatement(text, () => target.query(text, params, options)),
    exec: (text, options) => tracing.runStatement(text, () => target.exec(text, options)),
  };
}

/**
 * The embedded database with a span per statement (`Tracing.runStatement`): its queries, its
 * multi-statement texts and the statements of its transactions. PostgreSQL needs none of this:
 * the pg driver's instrumentation traces its statements.
 */
export function tracedPglite(client: PGlite, tracing: Tracing): PGlite {
  const traced = tracedQueries(client, tracing);
  const transaction: PGlite["transaction"] = (work) =>
    client.transaction((tx) =>
      work(Object.assign(Object.create(tx) as Transaction, tracedQueries(tx, tracing))),
    );
  return new Proxy(client, {
    get(target, property) {
      if (property === "query") return traced.query;
      if (property === "exec") return traced.exec;
      if (property === "transaction") return transaction;
      const value = Reflect.get(target, property, target);
      // PGlite's methods use private fields: they must run on the instance itself, not the proxy.
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
