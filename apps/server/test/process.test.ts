import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { createScratchDatabase } from "./helpers/scratch-database.ts";
import {
  freePort,
  issueAdminToken,
  startServer,
  waitForHealth,
  waitForOutput,
} from "./helpers/server-process.ts";
import { tempDir } from "./helpers/temp-dirs.ts";

const baseEnv = () => ({
  DATA_DIR: tempDir("proc"),
  ADMIN_EMAILS: "root@tarmac.test",
  DATABASE_URL: "",
});

async function waitForOutbox(url: string, token: string, to: string): Promise<number> {
  for (let attempt = 0; attempt < 150; attempt++) {
    const response = await fetch(`${url}/api/admin/outbox/?to=${to}`, {
      headers: { authorization: `Token ${token}` },
    });
    const page = (await response.json()) as { count: number };
    if (page.count > 0) return page.count;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("message never reached the outbox");
}

describe("the server process", () => {
  it("serves GET /metrics on a port of its own, and starts without it when that port is taken", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const takenPort = String((taken.address() as AddressInfo).port);
    const metricsPort = String(await freePort());
    const ports = { watched: String(await freePort()), blocked: String(await freePort()) };
    const watched = startServer({ ...baseEnv(), PORT: ports.watched, METRICS_PORT: metricsPort });
    const blocked = startServer({
      ...baseEnv(),
      PORT: ports.blocked,
      METRICS_PORT: takenPort,
      LOG_LEVEL: "error",
    });
    try {
      await Promise.all([waitForHealth(watched), waitForHealth(blocked)]);
      await fetch(`${watched.url}/api/health/`);
      const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toMatch(
        /^tarmac_http_requests_total\{method="GET",route="\/api\/health\/",status="200"\} [1-9]/m,
      );
      // The public port serves no metrics.
      expect(await (await fetch(`${watched.url}/metrics`)).text()).not.toContain(
        "tarmac_http_requests_total",
      );
      await waitForOutput(blocked, "metrics: cannot listen");
    } finally {
      watched.child.kill("SIGTERM");
      blocked.child.kill("SIGTERM");
      await Promise.all([watched.exited, blocked.exited]);
      taken.close();
    }
  }, 120_000);

  it("keeps committed data across SIGKILL, and stops cleanly on SIGTERM", async () => {
    const env = baseEnv();
    const token = issueAdminToken(env, "root@tarmac.test");
    const port = String(await freePort());

    const first = startServer({ ...env, PORT: port });
    await waitForHealth(first);
    const queued = await fetch(`${first.url}/api/admin/mail-test/`, {
      method: "POST",
      headers: { authorization: `Token ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ to: "durable@example.test" }),
    });
    expect(queued.status).toBe(202);
    expect(await waitForOutbox(first.url, token, "durable@example.test")).toBe(1);
    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");

    const second = startServer({ ...env, PORT: port });
    await waitForHealth(second);
    expect(await waitForOutbox(second.url, token, "durable@example.test")).toBe(1);
    second.child.kill("SIGTERM");
    // Exit code 0 means the shutdown finished before the 5 s hard stop (which exits 1).
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(second.output()).not.toContain("shutdown timed out");
  }, 120_000);

  it("stops at once with one line when the database cannot be reached", async () => {
    const server = startServer({ ...baseEnv(), DATABASE_URL: "postgres://nobody@127.0.0.1:1/tarmac" });
    expect((await server.exited).code).toBe(1);
    const lines = server.output().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^DATABASE_URL: cannot connect to PostgreSQL at 127\.0\.0\.1:1\/tarmac \(/);
  }, 30_000);

  it("stops at once with one line for an unknown storage driver", async () => {
    const server = startServer({ ...baseEnv(), STORAGE_DRIVER: "ftp" });
    expect((await server.exited).code).toBe(1);
    expect(server.output().trim()).toBe(
      "Invalid configuration: STORAGE_DRIVER: unknown storage driver; supported: local, s3, gcs, azure",
    );
  }, 30_000);

  it("runs web and worker as separate processes on a shared PostgreSQL", async (context) => {
    const databaseUrl = process.env.TEST_DATABASE_URL;
    if (!databaseUrl) {
      // Scale-out needs a database several processes can share; the embedded one is single-process.
      const worker = startServer({
        ...baseEnv(),
        ROLES: "worker",
        PORT: String(await freePort()),
        LOG_LEVEL: "info",
      });
      await waitForOutput(worker, "tarmac started");
      expect(worker.output()).toContain('"roles":["worker"]');
      await expect(fetch(`${worker.url}/api/health/`)).rejects.toThrow();
      worker.child.kill("SIGTERM");
      expect((await worker.exited).code).toBe(0);
      return;
    }
    const database = await createScratchDatabase("proc");
    try {
      const env = { ...baseEnv(), DATABASE_URL: database.url, SECRET_KEY: "p".repeat(40) };
      const token = issueAdminToken(env, "root@tarmac.test");
      const web = startServer({ ...env, ROLES: "web", PORT: String(await freePort()) });
      await waitForHealth(web);
      await fetch(`${web.url}/api/admin/mail-test/`, {
        method: "POST",
        headers: { authorization: `Token ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ to: "split@example.test" }),
      });
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const before = await fetch(`${web.url}/api/admin/outbox/?to=split@example.test`, {
        headers: { authorization: `Token ${token}` },
      });
      expect(((await before.json()) as { count: number }).count).toBe(0); // no worker yet: still queued
      const worker = startServer({ ...env, ROLES: "worker", PORT: String(await freePort()) });
      expect(await waitForOutbox(web.url, token, "split@example.test")).toBe(1);
      web.child.kill("SIGTERM");
      worker.child.kill("SIGTERM");
      expect((await web.exited).code, web.output()).toBe(0);
      expect((await worker.exited).code, worker.output()).toBe(0);
    } finally {
      await database.drop();
    }
    expect(context.task.name).toContain("separate processes");
  }, 120_000);
});
