import { expect, it } from "vitest";
import { openPostgres, startupLockKey } from "../../src/platform/db/client.ts";
import { createScratchDatabase } from "../helpers/scratch-database.ts";
import { freePort, startServer } from "../helpers/server-process.ts";
import { tempDir } from "../helpers/temp-dirs.ts";
import { waitFor } from "../helpers/wait-for.ts";

// Start-up held at its lock needs a PostgreSQL server: *.pg.test.ts files run only in the PostgreSQL pass.

it("answers alive but not ready while it waits to migrate, then ready", async () => {
  const database = await createScratchDatabase("starting");
  // Another process "migrating": it holds the start-up lock, so this one waits before migrating.
  const other = await openPostgres(database.url, 1);
  await other.sql.executeSql("select pg_advisory_lock($1)", [startupLockKey.toString()]);
  const port = String(await freePort());
  const server = startServer({ DATA_DIR: tempDir("starting"), DATABASE_URL: database.url, PORT: port });
  const base = `http://127.0.0.1:${port}`;
  const status = async (path: string) => (await fetch(`${base}${path}`)).status;
  try {
    await waitFor(
      async () => ((await status("/api/health/").catch(() => 0)) === 200 ? true : undefined),
      60_000,
    );
    const ready = await fetch(`${base}/api/health/ready/`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get("retry-after")).toBe("5");
    expect(await ready.json()).toMatchObject({ status: "unavailable", checks: { database: { ok: false } } });
    expect(await status("/api/applications/")).toBe(503);

    await other.sql.executeSql("select pg_advisory_unlock($1)", [startupLockKey.toString()]);
    await waitFor(
      async () => ((await status("/api/health/ready/").catch(() => 0)) === 200 ? true : undefined),
      60_000,
    );
    // The application itself answers now: an API call without a session is 401, not 503.
    expect(await status("/api/applications/")).toBe(401);
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
    await other.close();
    await database.drop();
  }
}, 180_000);
