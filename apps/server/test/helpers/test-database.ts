import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import type { Logger } from "drizzle-orm/logger";
import { inject } from "vitest";
import {
  type DatabaseHandle,
  openPostgres,
  pgliteExtensions,
  wrapPglite,
} from "../../src/platform/db/client.ts";

let counter = 0;

/** A migrated, empty database for one test file: a PGlite loaded from the snapshot, or a PostgreSQL copy of the template. */
export async function createTestDatabase(logger?: Logger): Promise<DatabaseHandle> {
  const template = inject("postgresTemplate");
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (template && baseUrl) {
    const name = `tarmac_test_${process.pid}_${Date.now()}_${counter++}`;
    const admin = await openPostgres(baseUrl, 1);
    await admin.sql.executeSql(`create database ${name} template ${template}`);
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    const handle = await openPostgres(url.toString(), 5, logger);
    return {
      ...handle,
      async close() {
        await handle.close();
        await admin.sql.executeSql(`drop database if exists ${name} with (force)`);
        await admin.close();
      },
    };
  }
  const snapshot = readFileSync(inject("pgliteSnapshot"));
  const client = await PGlite.create({ loadDataDir: new Blob([snapshot]), extensions: pgliteExtensions });
  return wrapPglite(client, logger);
}
