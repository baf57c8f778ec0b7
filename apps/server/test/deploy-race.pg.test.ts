import { describe, expect, it } from "vitest";
import { freePort, type ServerProcess, startServer, waitForHealth } from "./helpers/server-process.ts";

// Several processes sharing one database need PostgreSQL (the embedded one belongs to one
// process): *.pg.test.ts files run only in the PostgreSQL pass (see vitest.config.ts).
const databaseUrl = process.env.TEST_DATABASE_URL as string;

describe("a deploy starting many processes at once", () => {
  it("migrates an empty database once while web and worker processes all come up", async () => {
    const { openPostgres } = await import("../src/platform/db/client.ts");
    const name = `tarmac_race_${process.pid}_${Date.now()}`;
    const admin = await openPostgres(databaseUrl, 1);
    await admin.sql.executeSql(`create database ${name}`);
    const servers: ServerProcess[] = [];
    try {
      const url = new URL(databaseUrl as string);
      url.pathname = `/${name}`;
      const env = {
        DATA_DIR: `/tmp/${name}`,
        DATABASE_URL: url.toString(),
        SECRET_KEY: "r".repeat(40),
        LOG_LEVEL: "warn",
      };
      for (const roles of ["web", "web", "worker", "web,worker"]) {
        servers.push(startServer({ ...env, ROLES: roles, PORT: String(await freePort()) }));
      }
      for (const server of servers.filter((_, index) => index !== 2)) await waitForHealth(server, 90_000);
      // Every process is up (the worker too), and the migrations ran exactly once each.
      expect(servers.map((server) => server.child.exitCode)).toEqual([null, null, null, null]);
      const target = await openPostgres(url.toString(), 1);
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
      await admin.sql.executeSql(`drop database if exists ${name} with (force)`);
      await admin.close();
    }
  }, 180_000);
});
