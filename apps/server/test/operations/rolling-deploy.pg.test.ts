import { expect, it } from "vitest";
import { dmg, multipart } from "../builds/upload-helpers.ts";
import { startBalancingProxy } from "../helpers/balancing-proxy.ts";
import { createScratchDatabase } from "../helpers/scratch-database.ts";
import {
  freePort,
  issueAdminToken,
  type ServerProcess,
  startServer,
  waitForHealth,
} from "../helpers/server-process.ts";
import { tempDir } from "../helpers/temp-dirs.ts";

// Several processes on one database need a PostgreSQL server: *.pg.test.ts files run only in the PostgreSQL pass.

interface Build {
  version: string;
  download_url: string;
}

it("restarts two web processes one after the other under load: no failed request, no lost upload", async () => {
  const database = await createScratchDatabase("rolling");
  const env = {
    DATA_DIR: tempDir("rolling"),
    DATABASE_URL: database.url,
    ADMIN_EMAILS: "root@tarmac.test",
    SHUTDOWN_DRAIN_MS: "1500",
  };
  const token = issueAdminToken(env, "root@tarmac.test");
  const ports = [String(await freePort()), String(await freePort())];
  const servers: ServerProcess[] = ports.map((port) => startServer({ ...env, PORT: port }));
  await Promise.all(servers.map((server) => waitForHealth(server)));
  const proxy = await startBalancingProxy(servers.map((server) => server.url));
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${proxy.url}${path}`, {
      ...init,
      headers: { authorization: `Token ${token}`, ...(init.headers as Record<string, string>) },
    });
  const json = (body: unknown): RequestInit => ({
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

  /** A build through the preload and its confirmation, as the web app uploads it. */
  const upload = async (organization: number, version: string, appId?: number) => {
    const body = multipart(appId ? { organization, app: appId } : { organization }, dmg(version));
    const preload = await call("/api/applicationadd/", {
      method: "POST",
      headers: body.headers,
      body: new Uint8Array(body.payload),
    });
    if (preload.status !== 200) return preload;
    const { preload_path } = (await preload.json()) as { preload_path: string };
    const draft = appId
      ? { organization, preload_path }
      : { organization, preload_path, project_title: "Roll", title: "Roll" };
    return call(appId ? `/api/applications/?app=${appId}` : "/api/applications/", json(draft));
  };

  try {
    const organization = (
      (await (await call("/api/organizations/", json({ title: "Roll", subdomain: "roll" }))).json()) as {
        id: number;
      }
    ).id;
    const first = await upload(organization, "1.0.0");
    expect(first.status).toBe(201);
    const appId = ((await first.json()) as { id: number }).id;
    const builds = async () =>
      (
        (await (await call(`/api/applications/${appId}/builds/?page=1&page_size=100`)).json()) as {
          results: Build[];
        }
      ).results;
    const download = (await builds())[0]?.download_url.replace(/^https?:\/\/[^/]+/, "") ?? "";

    // The load: lists, downloads and uploads, each loop one request after another, until the restarts end.
    const failed: string[] = [];
    const uploaded: string[] = ["1.0.0"];
    let requests = 0;
    let running = true;
    const loop = async (step: () => Promise<Response>, label: string) => {
      while (running) {
        try {
          const response = await step();
          await response.arrayBuffer();
          requests += 1;
          if (response.status >= 500) failed.push(`${label}: ${response.status}`);
        } catch (error) {
          failed.push(`${label}: ${String(error)}`);
        }
      }
    };
    let sequence = 0;
    const uploads = async () => {
      while (running) {
        const version = `1.1.${++sequence}`;
        try {
          const response = await upload(organization, version, appId);
          await response.arrayBuffer();
          requests += 1;
          if (response.status === 201) uploaded.push(version);
          else failed.push(`upload ${version}: ${response.status}`);
        } catch (error) {
          failed.push(`upload ${version}: ${String(error)}`);
        }
      }
    };
    const load = Promise.all([
      loop(() => call("/api/applications/?page=1"), "apps list"),
      loop(() => call(`/api/applications/${appId}/builds/?page=1`), "builds list"),
      loop(() => call(download), "download"),
      uploads(),
    ]);

    // The rolling deploy: each process in turn is told to stop, drains, exits, and starts again.
    for (const [index, port] of ports.entries()) {
      const old = servers[index] as ServerProcess;
      old.child.kill("SIGTERM");
      expect((await old.exited).code).toBe(0);
      const restarted = startServer({ ...env, PORT: port });
      servers[index] = restarted;
      await waitForHealth(restarted);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    running = false;
    await load;

    expect(failed).toEqual([]);
    expect(proxy.failures).toEqual([]);
    // The load was real, and it crossed both restarts.
    expect(requests).toBeGreaterThan(100);
    expect(uploaded.length).toBeGreaterThan(3);
    // Every upload that was answered is there, once.
    expect((await builds()).map((build) => build.version).sort()).toEqual(uploaded.sort());
  } finally {
    await proxy.close();
    for (const server of servers) if (server.child.exitCode === null) server.child.kill("SIGTERM");
    await Promise.all(servers.map((server) => server.exited));
    await database.drop();
  }
}, 180_000);
