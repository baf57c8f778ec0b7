import { describe, expect, it } from "vitest";
import { openPostgres } from "../src/platform/db/client.ts";
import { createScratchDatabase } from "./helpers/scratch-database.ts";
import { freePort, type ServerProcess, startServer, waitForHealth } from "./helpers/server-process.ts";
import { tempDir } from "./helpers/temp-dirs.ts";

// Several processes sharing one database need PostgreSQL (the embedded one belongs to one
// process): *.pg.test.ts files run only in the PostgreSQL pass (see vitest.config.ts).

describe("a deploy starting many processes at once", () => {
  it("migrates an empty database once while web and worker processes all come up", async () => {
    const database = await createScratchDatabase("race");
    const servers: ServerProcess[] = [];
    try {
      const env = {
        DATA_DIR: tempDir("race"),
        DATABASE_URL: database.url,
        SECRET_KEY: "r".repeat(40),
        LOG_LEVEL: "warn",
      };
      for (const roles of ["web", "web", "worker", "web,worker"]) {
        servers.push(startServer({ ...env, ROLES: roles, PORT: String(await freePort()) }));
      }
      for (const server of servers.filter((_, index) => index !== 2)) await waitForHealth(server, 90_000);
      // Every process is up (the worker too), and the migrations ran exactly once each.
      expect(servers.map((server) => server.child.exitCode)).toEqual([null, null, null, null]);
      const target = await openPostgres(database.url, 1);
      try {
        const applied = await target.sql.executeSql(
          "select hash, count(*)::int as runs from drizzle.__drizzle_migrations group by hash having count(*) > 1",
        );
        expect(applied.rows).toEqual([]);
        const ready = await fetch(`${servers[0]?.url}/api/health/ready/`);
        expect(ready.status).toBe(200);
      } finally {
        await target.close();
      }
    } finally {
      for (const server of servers) server.child.kill("SIGTERM");
      await Promise.all(servers.map((server) => server.exited));
      await database.drop();
    }
  }, 180_000);
});
