import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fixturePath } from "../builds/upload-helpers.ts";
import { type S3Peer, s3StorageEnv, startS3Peer } from "../helpers/s3-peer.ts";
import { createScratchDatabase } from "../helpers/scratch-database.ts";
import {
  freePort,
  issueAdminToken,
  readJson,
  type ServerProcess,
  startServer,
  waitForHealth,
} from "../helpers/server-process.ts";
import { tempDir } from "../helpers/temp-dirs.ts";
import { waitFor } from "../helpers/wait-for.ts";

// Several processes sharing one database need PostgreSQL: *.pg.test.ts files run only in the
// PostgreSQL pass (see vitest.config.ts).

/** The objects s3rver keeps on disk below `dir` (one file per object, plus metadata files). */
function objectsUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) =>
    name.endsWith("._S3rver_object"),
  );
}

const json = readJson;

describe("web and worker processes sharing only PostgreSQL and a bucket", () => {
  it("serves through one web process what was uploaded through the other; the worker runs the jobs", async () => {
    const database = await createScratchDatabase("bucket");
    const servers: ServerProcess[] = [];
    let peer: S3Peer | undefined;
    try {
      peer = await startS3Peer(["shared"]);
      const shared = {
        DATABASE_URL: database.url,
        SECRET_KEY: "b".repeat(40),
        ...s3StorageEnv(peer, "shared"),
      };
      // No shared disk: every process has its own data directory.
      const own = () => ({ DATA_DIR: tempDir("node") });
      const token = issueAdminToken({ ...shared, ...own() }, "root@tarmac.test");
      for (const roles of ["web", "web", "worker"]) {
        const port = String(await freePort());
        servers.push(
          startServer({
            ...shared,
            ...own(),
            ROLES: roles,
            PORT: port,
            PUBLIC_URL: `http://127.0.0.1:${port}`,
          }),
        );
      }
      const [first, second] = servers as [ServerProcess, ServerProcess, ServerProcess];
      await waitForHealth(first);
      await waitForHealth(second);
      const ready = await fetch(`${second.url}/api/health/ready/`);
      expect(await json(ready)).toMatchObject({ status: "ok" });
      const auth = { authorization: `Token ${token}` };

      const organization = await json(
        await fetch(`${first.url}/api/organizations/`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ title: "Shared", subdomain: `shared-${process.pid}` }),
        }),
      );
      const build = readFileSync(fixturePath("android/bare.apk"));
      const form = new FormData();
      form.set("organization", String(organization.id));
      form.set("file", new Blob([build]), "bare.apk");
      const loaded = await json(
        await fetch(`${first.url}/api/applicationadd/?preload=1`, {
          method: "POST",
          headers: auth,
          body: form,
        }),
      );
      const app = await json(
        await fetch(`${first.url}/api/applications/`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({
            organization: organization.id,
            preload_path: loaded.preload_path,
            project_title: "Shared",
            title: "Shared",
          }),
        }),
      );
      const detail = await json(
        await fetch(`${second.url}/api/applications/${app.id}/?builds=1`, { headers: auth }),
      );
      const versionId = detail.builds.results[0].id as number;

      // Through the other web process: its redirect, then the bucket's presigned URL.
      const redirect = await fetch(`${second.url}/api/versions/${versionId}/download/`, {
        headers: auth,
        redirect: "manual",
      });
      expect(redirect.status).toBe(302);
      const downloaded = await fetch(redirect.headers.get("location") as string);
      expect(downloaded.status).toBe(200);
      expect(Buffer.from(await downloaded.arrayBuffer()).equals(build)).toBe(true);

      // Deleting the app queues the file deletion, which only the worker runs.
      const stored = () => objectsUnder(path.join(peer?.directory ?? "", "shared", "orgs"));
      expect(stored().length).toBeGreaterThan(0);
      const deleted = await fetch(`${second.url}/api/applications/${app.id}/`, {
        method: "DELETE",
        headers: auth,
      });
      expect(deleted.status).toBe(204);
      await waitFor(async () => (stored().length === 0 ? true : undefined), 60_000);
    } finally {
      for (const server of servers) server.child.kill("SIGTERM");
      await Promise.all(servers.map((server) => server.exited));
      await peer?.stop();
      await database.drop();
    }
  }, 180_000);
});
