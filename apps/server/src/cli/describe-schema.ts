import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { openPostgres, pgliteExtensions, wrapPglite } from "../platform/db/client.ts";
import { applyMigrations } from "../platform/db/migrate.ts";
import { describeSchema } from "../platform/db/schema-view.ts";

/** Migrates an empty embedded database in memory and writes what it holds to docs/database.sql. */
const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../docs/database.sql");
// DATABASE_URL names an empty PostgreSQL database to describe instead (to compare the two).
const handle = process.env.DATABASE_URL
  ? await openPostgres(process.env.DATABASE_URL, 1)
  : wrapPglite(await PGlite.create({ extensions: pgliteExtensions }));
await applyMigrations(handle);
writeFileSync(target, await describeSchema(handle.sql));
await handle.close();
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
