import { mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization } from "../helpers/org-factories.ts";
import { preloads } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { fixture, preload, uploadNewApp } from "./upload-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ STORAGE_SWEEP_GRACE_SECONDS: "60" });
});
afterAll(async () => {
  await t.close();
});

const hourAgo = () => new Date(Date.now() - 3600_000);

function age(key: string) {
  const file = path.join(t.config.STORAGE_LOCAL_DIR, key);
  utimesSync(file, hourAgo(), hourAgo());
}

describe("build.expire-preloads", () => {
  it("deletes expired preloads and their files, keeps fresh ones", async () => {
    const { organization, owner } = await createOrganization(t);
    const stale = (
      await preload(t, owner.token, { organization: organization.id }, fixture("android/modern.apk"))
    ).json();
    const fresh = (
      await preload(t, owner.token, { organization: organization.id }, fixture("android/bare.apk"))
    ).json();
    const [staleRow] = await t.database.db
      .update(preloads)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(preloads.path, stale.preload_path))
      .returning();
    expect(await t.services.sweeper.expirePreloads()).toBe(1);
    expect(await t.platform.storage.stat(staleRow?.fileKey ?? "")).toBeNull();
    expect(await t.platform.storage.stat(staleRow?.iconKey ?? "")).toBeNull();
    const left = await t.database.db
      .select()
      .from(preloads)
      .where(eq(preloads.organizationId, organization.id));
    expect(left.map((row) => row.path)).toEqual([fresh.preload_path]);
  });
});

describe("storage.sweep", () => {
  it("deletes old unreferenced build and icon objects and stale partial writes, nothing else", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, fixture("android/modern.apk"));
    const kept = (
      await preload(t, owner.token, { organization: organization.id }, fixture("android/bare.apk"))
    ).json();
    const org = `orgs/${organization.id}`;
    await t.platform.storage.put(`${org}/builds/orphan`, Readable.from([Buffer.from("orphan")]));
    await t.platform.storage.put(`${org}/icons/orphan.png`, Readable.from([Buffer.from("png")]));
    await t.platform.storage.put(`${org}/builds/young`, Readable.from([Buffer.from("young")]));
    await t.platform.storage.put(`${org}/logo.png`, Readable.from([Buffer.from("logo")]));
    for (const key of [`${org}/builds/orphan`, `${org}/icons/orphan.png`, `${org}/logo.png`]) age(key);
    // Referenced objects are old too, and must stay.
    for (const folder of ["builds", "icons"]) {
      for (const name of readdirSync(path.join(t.config.STORAGE_LOCAL_DIR, org, folder))) {
        if (!name.startsWith("orphan") && name !== "young") age(`${org}/${folder}/${name}`);
      }
    }
    const tempDir = path.join(t.config.STORAGE_LOCAL_DIR, ".tmp");
    mkdirSync(tempDir, { recursive: true });
    writeFileSync(path.join(tempDir, "crashed.part"), "partial");
    utimesSync(path.join(tempDir, "crashed.part"), hourAgo(), hourAgo());

    const result = await t.services.sweeper.sweep();
    expect(result.deletedObjects).toBeGreaterThanOrEqual(2);
    expect(result.deletedTemporary).toBeGreaterThanOrEqual(1);
    expect(await t.platform.storage.stat(`${org}/builds/orphan`)).toBeNull();
    expect(await t.platform.storage.stat(`${org}/icons/orphan.png`)).toBeNull();
    expect(await t.platform.storage.stat(`${org}/builds/young`)).not.toBeNull();
    expect(await t.platform.storage.stat(`${org}/logo.png`)).not.toBeNull();
    expect(readdirSync(tempDir)).not.toContain("crashed.part");
    // The app's build and the pending preload still download.
    const [row] = await t.database.db.select().from(preloads).where(eq(preloads.path, kept.preload_path));
    expect(await t.platform.storage.stat(row?.fileKey ?? "")).not.toBeNull();
    const detail = await t.app.inject({
      method: "GET",
      url: `/api/applications/${app.id}/`,
      headers: { authorization: `Token ${owner.token}` },
    });
    const download = await t.app.inject({
      method: "GET",
      url: detail.json().current_version.download_url.replace("http://tarmac.test", ""),
    });
    expect(download.statusCode).toBe(200);
  });

  it("runs as scheduled jobs", async () => {
    const schedules = await t.platform.database.sql.executeSql(
      "select name, cron from pgboss.schedule order by name",
    );
    expect(schedules.rows).toEqual(
      expect.arrayContaining([
        { name: "build.expire-preloads", cron: "*/15 * * * *" },
        { name: "storage.sweep", cron: "41 4 * * *" },
      ]),
    );
  });
});
