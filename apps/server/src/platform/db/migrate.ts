import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { serverPath } from "../server-root.ts";
import type { DatabaseHandle } from "./client.ts";

export const migrationsFolder = serverPath("migrations");

/** Applies the committed SQL migrations; the same files serve PGlite and PostgreSQL. */
export async function applyMigrations(handle: DatabaseHandle): Promise<void> {
  // Both migrators only need the drizzle session; the casts select the right dialect helper.
  if (handle.kind === "pglite") {
    await migratePglite(handle.db as never, { migrationsFolder });
  } else {
    await migratePg(handle.db as never, { migrationsFolder });
  }
}
