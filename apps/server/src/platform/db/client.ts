import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import type { Logger } from "drizzle-orm/logger";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { activeTracing } from "../telemetry/tracing.ts";
import { createStatementNames, nameStatementsOf } from "./named-statements.ts";
import { withNamedStatements } from "./pglite-named-statements.ts";
import { tracedPglite } from "./traced-pglite.ts";
/** Typed by the tables each query names; each table is declared by the module that owns it. */
export type Database = PgDatabase<PgQueryResultHKT>;

/** Plain SQL access for code that speaks SQL text (pg-boss, health checks, tests). */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface DatabaseHandle {
  db: Database;
  sql: SqlExecutor;
  kind: "pglite" | "postgres";
  /**
   * Runs `work` while holding a cluster-wide lock (a PostgreSQL advisory lock on one connection
   * of its own), so set-up that many processes start at once (migrations, the job queue's
   * schema) happens one process at a time. The embedded database has one process anyway.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Calls `listener` on every notification of `channel`, before the statement that caused it
   * returns. Only the embedded database offers it (its notifications come from its own process).
   */
  onChange?(channel: string, listener: () => void): Promise<void>;
  /**
   * The embedded database's files as one gzipped tar, taken between two statements (so it is
   * consistent); PostgreSQL has pg_dump for that.
   */
  dumpDataDir?(): Promise<Blob>;
  /** The pool's connections now; the embedded database has no pool. */
  poolUse?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** The advisory lock key of start-up work (an arbitrary, fixed 64-bit number). */
export const startupLockKey = 7_432_001_870_211n;

export class DatabaseUnavailableError extends Error {
  override readonly name = "DatabaseUnavailableError";
}

function describeTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
  } catch {
    return "the configured server";
  }
}

/** `logger` sees every statement drizzle sends (the query-plan test reads them back). */
export async function openPostgres(url: string, poolSize: number, logger?: Logger): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5000,
    // Tarmac's statements are short, and the few long ones (loading a large list once per
    // catalog version) lose by JIT: compiling the 100,000-app list load took 335 ms of its
    // 393 ms. An `options` parameter in DATABASE_URL replaces this default.
    options: "-c jit=off",
  });
  const names = createStatementNames();
  pool.on("connect", (client) => nameStatementsOf(client, names));
  pool.on("error", () => {
    // An idle client dropped by the server; the pool replaces it on next use.
  });
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatabaseUnavailableError(
      `DATABASE_URL: cannot connect to PostgreSQL at ${describeTarget(url)} (${reason})`,
    );
  }
  return {
    db: drizzlePg(pool, { logger }) as unknown as Database,
    sql: { executeSql: (text, values) => pool.query(text, values) },
    kind: "postgres",
    async exclusively(work) {
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [startupLockKey.toString()]);
        try {
          return await work();
        } finally {
          await client.query("select pg_advisory_unlock($1)", [startupLockKey.toString()]);
        }
      } finally {
        client.release();
      }
    },
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}

/**
 * Wraps an open PGlite instance; multi-statement SQL without parameters must go through exec.
 * With tracing, each statement gets a span (`traced-pglite.ts`).
 */
export function wrapPglite(client: PGlite, logger?: Logger): DatabaseHandle {
  const tracing = activeTracing();
  const traced = (queries: PGlite) => (tracing ? tracedPglite(queries, tracing) : queries);
  const plain = traced(client);
  return {
    db: drizzlePglite(traced(withNamedStatements(client)), { logger }) as unknown as Database,
    sql: {
      async executeSql(text, values) {
        if (!values || values.length === 0) {
          const results = await plain.exec(text);
          return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
        }
        const result = await plain.query<Record<string, unknown>>(text, values);
        return { rows: result.rows };
      },
    },
    kind: "pglite",
    exclusively: (work) => work(),
    async onChange(channel, listener) {
      await client.listen(channel, () => listener());
    },
    dumpDataDir: () => client.dumpDataDir("gzip"),
    close: () => client.close(),
  };
}

/** The extensions the migrations create (search folds accents and matches by trigrams). */
export const pgliteExtensions = { pg_trgm, unaccent };

export async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const dir = path.join(dataDir, "db");
  mkdirSync(dir, { recursive: true });
  const client = await PGlite.create({ dataDir: dir, extensions: pgliteExtensions });
  return wrapPglite(client);
}

export function openDatabase(options: {
  url?: string;
  dataDir: string;
  poolSize: number;
}): Promise<DatabaseHandle> {
  return options.url ? openPostgres(options.url, options.poolSize) : openPglite(options.dataDir);
}
