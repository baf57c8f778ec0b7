import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fixturePath } from "../builds/upload-helpers.ts";
import { createScratchDatabase } from "../helpers/scratch-database.ts";
import {
  freePort,
  issueAdminToken,
  readJson,
  type ServerProcess,
  startServer,
  waitForHealth,
  waitForOutput,
} from "../helpers/server-process.ts";
import { tempDir } from "../helpers/temp-dirs.ts";
import { waitFor } from "../helpers/wait-for.ts";
import { WebhookReceiver } from "../helpers/webhook-receiver.ts";

// Processes sharing one database need PostgreSQL: *.pg.test.ts files run only in the PostgreSQL pass.

const json = readJson;

const until = (check: () => boolean | Promise<boolean>, timeoutMs = 60_000) =>
  waitFor(async () => ((await check()) ? true : undefined), timeoutMs);

describe("webhook delivery across worker crashes", () => {
  it("loses no event when the worker is killed mid-delivery and another one starts", async () => {
    const database = await createScratchDatabase("hooks");
    const receiver = await WebhookReceiver.start();
    const servers: ServerProcess[] = [];
    try {
      const shared = {
        DATABASE_URL: database.url,
        SECRET_KEY: "h".repeat(40),
        ALLOW_PRIVATE_NETWORK_TARGETS: "true",
        WEBHOOK_TIMEOUT_SECONDS: "2",
      };
      const own = () => ({ DATA_DIR: tempDir("hooks") });
      const token = issueAdminToken({ ...shared, ...own() }, "root@tarmac.test");
      const port = String(await freePort());
      const web = startServer({
        ...shared,
        ...own(),
        ROLES: "web",
        PORT: port,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
      });
      servers.push(web);
      await waitForHealth(web);
      const auth = { authorization: `Token ${token}` };
      const post = async (pathname: string, body: object) =>
        json(
          await fetch(`${web.url}${pathname}`, {
            method: "POST",
            headers: { ...auth, "content-type": "application/json" },
            body: JSON.stringify(body),
          }),
        );
      const organization = await post("/api/organizations/", {
        title: "Crashy",
        subdomain: `crashy-${process.pid}`,
      });
      // The first attempt never gets an answer (the worker dies waiting); the next one succeeds.
      const hookUrl = receiver.script("/crash", ["hang", { status: 200, body: "ok" }]);
      const hook = await post("/api/webhooks/", {
        organization: organization.id,
        url: hookUrl,
        events: ["build.uploaded"],
      });

      // No worker yet: the event waits in the queue.
      const form = new FormData();
      form.set("organization", String(organization.id));
      form.set("file", new Blob([readFileSync(fixturePath("android/bare.apk"))]), "bare.apk");
      const loaded = await json(
        await fetch(`${web.url}/api/applicationadd/?preload=1`, {
          method: "POST",
          headers: auth,
          body: form,
        }),
      );
      await post("/api/applications/", {
        organization: organization.id,
        preload_path: loaded.preload_path,
        project_title: "Crashy",
        title: "Crashy",
      });

      const worker = startServer({ ...shared, ...own(), ROLES: "worker", LOG_LEVEL: "info" });
      servers.push(worker);
      await waitForOutput(worker, "tarmac started");
      await until(() => receiver.at("/crash").length === 1);
      worker.child.kill("SIGKILL");
      await worker.exited;

      // The killed worker's hold on the delivery lapses (twice the timeout and five seconds),
      // and the redrive wakes deliveries overdue by twice that; a new worker redrives at start.
      await new Promise((resolve) => setTimeout(resolve, 2 * (2 * 2 + 5) * 1000 + 1000));
      const second = startServer({ ...shared, ...own(), ROLES: "worker", LOG_LEVEL: "info" });
      servers.push(second);
      await until(() => receiver.at("/crash").length === 2);
      const [first, retried] = receiver.at("/crash");
      expect(retried?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
      await until(async () => {
        const log = await json(
          await fetch(`${web.url}/api/webhooks/${hook.id}/deliveries/`, { headers: auth }),
        );
        return log.results[0]?.status === "succeeded";
      });
      const log = await json(
        await fetch(`${web.url}/api/webhooks/${hook.id}/deliveries/`, { headers: auth }),
      );
      expect(log.count).toBe(1);
      expect(log.results[0]).toMatchObject({ status: "succeeded", attempts: 1, response_body: "ok" });
    } finally {
      for (const server of servers) server.child.kill("SIGTERM");
      await Promise.all(servers.map((server) => server.exited));
      await receiver.close();
      await database.drop();
    }
  }, 180_000);
});
