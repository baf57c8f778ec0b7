import { readdirSync } from "node:fs";
import path from "node:path";
import { bufferSource } from "@tarmac/inspector";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openZip } from "../../../../packages/inspector/src/zip/index.ts";
import { buildZip } from "../../../../packages/inspector/test/android/zip-builder.ts";
import { fixture, preload } from "../builds/upload-helpers.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe("archives are read by what they hold", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const storedFiles = (organizationId: number) => {
    const dir = path.join(t.config.STORAGE_LOCAL_DIR, "orgs", String(organizationId), "builds");
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  };

  it("refuses an APK with two AndroidManifest.xml entries and keeps nothing", async () => {
    const { organization, owner } = await createOrganization(t);
    const apk = await openZip(bufferSource(fixture("android/bare.apk").content));
    const entries = await Promise.all(
      apk.entries.map(async (entry) => ({ name: entry.name, data: await apk.read(entry) })),
    );
    const manifest = entries.find(
      (entry) => entry.name === "AndroidManifest.xml",
    ) as (typeof entries)[number];
    const twice = buildZip([...entries, { name: manifest.name, data: manifest.data }]);
    const response = await preload(
      t,
      owner.token,
      { organization: organization.id },
      { name: "twice.apk", content: twice },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error_code: 1,
      detail: "This file is not a build Tarmac can read: duplicate zip entry name: AndroidManifest.xml",
    });
    expect(storedFiles(organization.id)).toEqual([]);
  });

  it("refuses a .zip with nothing recognisable and no version in its name: error 1", async () => {
    const { organization, owner } = await createOrganization(t);
    const notes = buildZip([{ name: "notes/README.txt", data: Buffer.from("hello") }]);
    const response = await preload(
      t,
      owner.token,
      { organization: organization.id },
      { name: "notes.zip", content: notes },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error_code: 1 });
    expect(response.json().detail).toMatch(
      /^This file is not a build Tarmac can read: the zip holds neither a macOS app/,
    );
  });

  it("reads a zipped .app as macOS although the upload said nothing (or Windows)", async () => {
    const { organization, owner } = await createOrganization(t);
    for (const fields of [{}, { app_type: 2 }] as Record<string, number>[]) {
      const response = await preload(
        t,
        owner.token,
        { organization: organization.id, ...fields },
        fixture("apple/mac/tarmac-mac.zip", "SomeTool.app.zip"),
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ app_type: 3, version: "3.1.4" });
    }
  });
});
