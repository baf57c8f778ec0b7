import { openPostgres } from "../../src/platform/db/client.ts";

/**
 * An empty database of its own on the PostgreSQL server of TEST_DATABASE_URL, for a test that
 * starts server processes on it (they migrate it themselves); `drop()` removes it.
 */
export async function createScratchDatabase(label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("a scratch database needs TEST_DATABASE_URL");
  const name = `tarmac_${label}_${process.pid}_${Date.now()}`;
  const admin = await openPostgres(serverUrl, 1);
  await admin.sql.executeSql(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.sql.executeSql(`drop database if exists ${name} with (force)`);
      await admin.close();
    },
  };
}
