import { fileURLToPath } from "node:url";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { DatabaseHandle } from "./client.ts";

export const migrationsFolder = fileURLToPath(new URL("../../../migrations", import.meta.url));

/** Applies the committed SQL migrations; the same files serve PGlite and PostgreSQL. */
export async function applyMigrations(handle: DatabaseHandle): Promise<void> {
  // Both migrators only need the drizzle session; the casts select the right dialect helper.
  if (handle.kind === "pglite") {
    await migratePglite(handle.db as never, { migrationsFolder });
  } else {
    await migratePg(handle.db as never, { migrationsFolder });
  }
}
