import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { restoreBackup } from "../../src/platform/backup/embedded-backup.ts";
import { dmg, multipart } from "../builds/upload-helpers.ts";
import {
  freePort,
  issueAdminToken,
  type ServerProcess,
  serverDir,
  startServer,
  waitForHealth,
} from "../helpers/server-process.ts";
import { tempDir } from "../helpers/temp-dirs.ts";

/** The backup command as `npm run backup` / `npm run restore` run it. */
function backupCommand(command: "backup" | "restore", dir: string, env: Record<string, string>) {
  const result = spawnSync(process.execPath, ["dist/backup.js", command, dir], {
    cwd: serverDir,
    env: { ...process.env, DATABASE_URL: "", ...env, INIT_CWD: serverDir },
    encoding: "utf8",
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

async function api(server: ServerProcess, token: string, url: string, init: RequestInit = {}) {
  return fetch(`${server.url}${url}`, {
    ...init,
    headers: { authorization: `Token ${token}`, ...(init.headers as Record<string, string>) },
  });
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("backup and restore of the embedded default", () => {
  it("backs up a running server, and the restore has its builds, files and keys, and nothing later", async () => {
    const env = { DATA_DIR: tempDir("backed-up"), ADMIN_EMAILS: "root@tarmac.test" };
    const token = issueAdminToken(env, "root@tarmac.test");
    const server = startServer({ ...env, PORT: String(await freePort()) });
    const backupDir = path.join(tempDir("backups"), "monday");
    let restored: ServerProcess | null = null;
    try {
      await waitForHealth(server);
      const org = await api(server, token, "/api/organizations/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ title: "Backed Up", subdomain: "backed-up" }),
      });
      const organization = ((await org.json()) as { id: number }).id;
      const file = dmg("1.0.0");
      const body = multipart({ organization }, file);
      const preload = await api(server, token, "/api/applicationadd/", {
        method: "POST",
        headers: body.headers,
        body: body.payload,
      });
      expect(preload.status).toBe(200);
      const confirmed = await api(server, token, "/api/applications/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          organization,
          preload_path: ((await preload.json()) as { preload_path: string }).preload_path,
          project_title: "Backed Up",
          title: "Backed Up",
        }),
      });
      expect(confirmed.status).toBe(201);
      const appId = ((await confirmed.json()) as { id: number }).id;

      // While the server runs: it takes the backup itself.
      const taken = backupCommand("backup", backupDir, env);
      expect(taken.output).toMatch(/^backed up the database and \d+ files to /);
      expect(taken.status).toBe(0);
      expect(readdirSync(backupDir).sort()).toEqual(["database.tar.gz", "files", "manifest.json"]);
      expect(backupCommand("backup", backupDir, env)).toMatchObject({
        status: 1,
        output: expect.stringContaining("is not empty: name a new folder."),
      });
      expect(backupCommand("restore", backupDir, env)).toMatchObject({
        status: 1,
        output: expect.stringContaining("stop it before restoring"),
      });
      // After the backup: not in it.
      await api(server, token, "/api/organizations/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ title: "Too Late", subdomain: "too-late" }),
      });
      server.child.kill("SIGTERM");
      expect((await server.exited).code).toBe(0);
      // With the server stopped, the command opens the database itself.
      const offline = backupCommand("backup", path.join(path.dirname(backupDir), "tuesday"), env);
      expect(offline).toMatchObject({ status: 0, output: expect.stringMatching(/^backed up the database/) });

      const restoredEnv = { ...env, DATA_DIR: path.join(tempDir("restored"), "data") };
      const restore = backupCommand("restore", backupDir, restoredEnv);
      expect(restore.output).toContain(`restored the backup of `);
      expect(restore.status).toBe(0);
      expect(existsSync(path.join(restoredEnv.DATA_DIR, "server.pid"))).toBe(false);
      expect(backupCommand("restore", backupDir, restoredEnv)).toMatchObject({
        status: 1,
        output: expect.stringContaining("is not empty: restore into an empty folder"),
      });

      restored = startServer({ ...restoredEnv, PORT: String(await freePort()) });
      await waitForHealth(restored);
      // The same API key works: its row and the secret key came back.
      const orgs = (await (await api(restored, token, "/api/organizations/")).json()) as {
        results: { title: string }[];
      };
      expect(orgs.results.map((one) => one.title)).toEqual(["Backed Up"]);
      const builds = (await (
        await api(restored, token, `/api/applications/${appId}/builds/?page=1`)
      ).json()) as {
        results: { download_url: string; sha256: string }[];
      };
      expect(builds.results).toHaveLength(1);
      const download = await api(
        restored,
        token,
        builds.results[0]?.download_url.replace(/^https?:\/\/[^/]+/, "") ?? "",
      );
      expect(download.status).toBe(200);
      expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(file.content));
    } finally {
      if (server.child.exitCode === null) server.child.kill("SIGTERM");
      restored?.child.kill("SIGTERM");
      await Promise.all([server.exited, restored?.exited]);
    }
  }, 240_000);

  it("leaves a failed restore's folder in place and empty, and says why it failed", async () => {
    // A backup whose database dump is damaged, restored into an existing empty folder (as a
    // container's volume is: a mount point that cannot be removed).
    const backup = tempDir("damaged-backup");
    mkdirSync(path.join(backup, "files"));
    writeFileSync(path.join(backup, "files", "secret.key"), "not needed");
    writeFileSync(path.join(backup, "database.tar.gz"), "not a database dump");
    writeFileSync(
      path.join(backup, "manifest.json"),
      JSON.stringify({ format: 1, created_at: "", files: 1 }),
    );
    const volume = tempDir("volume");
    await expect(restoreBackup(backup, volume, path.join(volume, "storage"))).rejects.toThrow();
    expect(existsSync(volume)).toBe(true);
    expect(readdirSync(volume)).toEqual([]);
  });
});
