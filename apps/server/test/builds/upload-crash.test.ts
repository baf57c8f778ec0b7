import { readdirSync, statSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openPglite } from "../../src/platform/db/client.ts";
import { freePort, issueAdminToken, startServer, waitForHealth } from "../helpers/server-process.ts";
import { preloads, versions } from "../helpers/tables.ts";
import { tempDir } from "../helpers/temp-dirs.ts";

const totalBytes = 200 * 1024 * 1024;
const chunk = Buffer.alloc(1024 * 1024, 0x5a);

function partFiles(tempDir: string): { name: string; size: number }[] {
  try {
    return readdirSync(tempDir)
      .filter((name) => name.endsWith(".part"))
      .map((name) => ({ name, size: statSync(path.join(tempDir, name)).size }));
  } catch {
    return [];
  }
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts a 200 MB upload that the test writes a megabyte at a time; returns once the request
 * is under way. The generated stream never exists in memory as a whole.
 */
function beginUpload(url: string, token: string, organizationId: number) {
  const boundary = "----tarmaccrash";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="organization"\r\n\r\n${organizationId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.apk"\r\n` +
      "Content-Type: application/octet-stream\r\n\r\n",
  );
  const req = request(`${url}/api/applicationadd/?preload=1`, {
    method: "POST",
    headers: { authorization: `Token ${token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
  });
  req.on("error", () => undefined); // the server dies mid-request on purpose
  req.on("response", (response) => response.resume());
  req.write(head);
  let written = 0;
  const pump = () => {
    while (written < totalBytes) {
      written += chunk.length;
      if (!req.write(chunk)) {
        req.once("drain", pump);
        return;
      }
    }
    req.end(`\r\n--${boundary}--\r\n`);
  };
  pump();
  return { written: () => written, req };
}

describe("a server killed during an upload", () => {
  it("leaves no row, and the next start sweeps the partial file", async () => {
    const env = {
      DATA_DIR: tempDir("crash"),
      ADMIN_EMAILS: "root@tarmac.test",
      DATABASE_URL: "",
    };
    const partialsDir = path.join(env.DATA_DIR, "storage", ".tmp");
    const token = issueAdminToken(env, "root@tarmac.test");
    const port = String(await freePort());

    const first = startServer({ ...env, PORT: port });
    await waitForHealth(first, 120_000);
    const created = await fetch(`${first.url}/api/organizations/`, {
      method: "POST",
      headers: { authorization: `Token ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Crash Test", subdomain: "crash-test" }),
    });
    expect(created.status).toBe(201);
    const organizationId = ((await created.json()) as { id: number }).id;

    const upload = beginUpload(first.url, token, organizationId);
    // Midway: a partial file of tens of megabytes sits in the driver's temporary folder.
    await until(
      () => partFiles(partialsDir).some((file) => file.size > 20 * 1024 * 1024),
      120_000,
      "a partial write",
    );
    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    upload.req.destroy();
    expect(upload.written()).toBeLessThan(totalBytes);
    expect(partFiles(partialsDir).length).toBeGreaterThan(0);

    // Grace 0: whatever the crash left is old enough to go at once.
    const second = startServer({ ...env, PORT: port, STORAGE_SWEEP_GRACE_SECONDS: "0" });
    await waitForHealth(second, 120_000);
    await until(() => partFiles(partialsDir).length === 0, 90_000, "the sweep of .tmp");
    const apps = await fetch(`${second.url}/api/applications/?org=${organizationId}`, {
      headers: { authorization: `Token ${token}` },
    });
    expect(((await apps.json()) as { count: number }).count).toBe(0);
    second.child.kill("SIGTERM");
    expect((await second.exited).code).toBe(0);

    const database = await openPglite(env.DATA_DIR);
    try {
      expect(await database.db.select().from(preloads)).toEqual([]);
      expect(await database.db.select().from(versions)).toEqual([]);
    } finally {
      await database.close();
    }
    expect(readdirSync(path.join(env.DATA_DIR, "storage")).filter((name) => name !== ".tmp")).toEqual([]);
  }, 300_000);
});
