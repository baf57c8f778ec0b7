import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../helpers/app-factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { fixture, preload, setLimits, setUsage, uploadNewApp } from "./upload-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Every object under the organization's build and icon folders. */
function storedFiles(organizationId: number): string[] {
  const files: string[] = [];
  for (const folder of ["builds", "icons"]) {
    try {
      for (const name of readdirSync(
        path.join(t.config.STORAGE_LOCAL_DIR, "orgs", String(organizationId), folder),
      )) {
        files.push(`${folder}/${name}`);
      }
    } catch {
      // folder not created yet
    }
  }
  return files;
}

describe("POST /api/applicationadd/?preload=1", () => {
  it("streams, reads and keeps a build for confirmation", async () => {
    const { organization, owner } = await createOrganization(t);
    const response = await preload(
      t,
      owner.token,
      { organization: organization.id },
      fixture("android/modern.apk"),
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      version: "2.0.0-beta.1",
      build_version_number: "2000",
      version_exist: false,
      unique_app_id_changed: false,
      unique_app_id_new: null,
      app_type: 0,
      name: "Modern App",
      file_name: "modern.apk",
      file_size: 16750,
      bundle_id: "dev.tarmac.modern",
      min_os_version: "26",
    });
    expect(body.preload_path).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(body.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(body.icon).toContain("/api/files/orgs/");
    const icon = await t.app.inject({ method: "GET", url: body.icon.replace("http://tarmac.test", "") });
    expect(icon.statusCode).toBe(200);
    expect(icon.rawPayload.subarray(1, 4).toString()).toBe("PNG");
    // The key is the server's own, never the file name.
    expect(storedFiles(organization.id).some((name) => name.includes("modern"))).toBe(false);
    expect(storedFiles(organization.id)).toHaveLength(2);
  });

  it("answers 401 without a session", async () => {
    const { organization } = await createOrganization(t);
    const response = await preload(t, null, { organization: organization.id }, fixture("android/bare.apk"));
    expect(response.statusCode).toBe(401);
  });

  it("refuses a file name over 100 characters with the server's message", async () => {
    const { organization, owner } = await createOrganization(t);
    const name = `${"a".repeat(97)}.apk`;
    const response = await preload(
      t,
      owner.token,
      { organization: organization.id },
      fixture("android/bare.apk", name),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      file: ["Ensure this filename has at most 100 characters (it has 101)."],
    });
    const exact = await preload(
      t,
      owner.token,
      { organization: organization.id },
      fixture("android/bare.apk", `${"b".repeat(96)}.apk`),
    );
    expect(exact.statusCode).toBe(200);
  });

  it("answers error 1 for an unsupported type, naming the accepted list", async () => {
    const { organization, owner } = await createOrganization(t);
    const response = await preload(
      t,
      owner.token,
      { organization: organization.id },
      { name: "tool.exe", content: Buffer.from("MZ") },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error_code: 1,
      detail:
        "Unsupported file type. Please upload the .apk, .aab, .ipa, .msix, .msixbundle, .msixupload, .zip, .msi, .appx, .appxbundle, .appxupload, .dmg, .pkg",
    });
    expect(storedFiles(organization.id)).toEqual([]);
  });

  it("answers error 1 for a file that is not a build, and deletes it", async () => {
    const { organization, owner } = await createOrganization(t);
    const response = await preload(
      t,
      owner.token,
      { organization: organization.id },
      { name: "fake.apk", content: Buffer.alloc(5000, 7) },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error_code).toBe(1);
    expect(storedFiles(organization.id)).toEqual([]);
  });

  it("answers 404 for an organization of someone else, 403 for a member who may not create apps", async () => {
    const { organization } = await createOrganization(t);
    const { owner: stranger } = await createOrganization(t);
    const foreign = await preload(
      t,
      stranger.token,
      { organization: organization.id },
      fixture("android/bare.apk"),
    );
    expect(foreign.statusCode).toBe(404);
    const tester = await addMember(t, organization.id, 5);
    const refused = await preload(
      t,
      tester.token,
      { organization: organization.id },
      fixture("android/bare.apk"),
    );
    expect(refused.statusCode).toBe(403);
    expect(storedFiles(organization.id)).toEqual([]);
  });

  it("needs the organization before the file", async () => {
    const { owner } = await createOrganization(t);
    const response = await preload(t, owner.token, {}, fixture("android/bare.apk"));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ organization: ["This field is required."] });
  });

  it("with app: reports an existing version and a changed bundle id", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, fixture("android/localized.apk"));
    const same = await preload(
      t,
      owner.token,
      { organization: organization.id, app: app.id },
      fixture("android/localized.apk"),
    );
    expect(same.json()).toMatchObject({ version_exist: true, unique_app_id_changed: false });
    const other = await preload(
      t,
      owner.token,
      { organization: organization.id, app: app.id },
      fixture("android/modern.apk"),
    );
    expect(other.json()).toMatchObject({
      version_exist: false,
      unique_app_id_changed: true,
      unique_app_id_new: "dev.tarmac.modern",
    });
  });

  it("with app of another platform: error 5, nothing kept", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id, { appType: 0 });
    const response = await preload(
      t,
      owner.token,
      { organization: organization.id, app: app.id },
      fixture("apple/ipa/adhoc.ipa"),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error_code: 5,
      detail: "This build is for a different platform than the application.",
    });
    expect(storedFiles(organization.id)).toEqual([]);
  });

  it("with app of another organization: 404", async () => {
    const { organization, owner } = await createOrganization(t);
    const { organization: other } = await createOrganization(t);
    const foreignApp = await createApp(t, other.id);
    const response = await preload(
      t,
      owner.token,
      { organization: organization.id, app: foreignApp.id },
      fixture("android/bare.apk"),
    );
    expect(response.statusCode).toBe(404);
  });

  it("reads a zip as macOS when the form says app_type 3", async () => {
    const { organization, owner } = await createOrganization(t);
    const windows = await preload(
      t,
      owner.token,
      { organization: organization.id },
      fixture("windows/TarmacDemo-1.4.2.zip"),
    );
    expect(windows.json()).toMatchObject({ app_type: 2, version: "1.4.2" });
    const mac = await preload(
      t,
      owner.token,
      { organization: organization.id, app_type: 3 },
      fixture("apple/mac/tarmac-mac.zip"),
    );
    expect(mac.statusCode).toBe(200);
    expect(mac.json().app_type).toBe(3);
  });

  it("cuts off a file larger than the space left: error 6, nothing kept", async () => {
    const { organization, owner } = await createOrganization(t);
    await setLimits(t, organization.id, { spaceLimitMb: 1 });
    await setUsage(t, organization.id, { spaceUsedBytes: 1024 * 1024 - 5000 });
    const response = await preload(
      t,
      owner.token,
      { organization: organization.id },
      fixture("android/localized.apk"),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error_code: 6,
      detail: "The organization's storage space is full. Free some space or raise the plan's limit.",
    });
    expect(storedFiles(organization.id)).toEqual([]);
    expect(readdirSync(path.join(t.config.STORAGE_LOCAL_DIR, ".tmp"))).toEqual([]);
    const small = await preload(
      t,
      owner.token,
      { organization: organization.id },
      fixture("android/bare.apk"),
    );
    expect(small.statusCode).toBe(200);
  });
});

describe("UPLOAD_MAX_BYTES", () => {
  it("cuts off a larger file with 413 and keeps nothing", async () => {
    const small = await createTestApp({ UPLOAD_MAX_BYTES: String(1024 * 1024) });
    try {
      const { organization, owner } = await createOrganization(small);
      const response = await preload(
        small,
        owner.token,
        { organization: organization.id },
        {
          name: "big.apk",
          content: Buffer.alloc(1024 * 1024 + 1),
        },
      );
      expect(response.statusCode).toBe(413);
      expect(readdirSync(path.join(small.config.STORAGE_LOCAL_DIR, ".tmp"))).toEqual([]);
      expect(await small.platform.storage.stat(`orgs/${organization.id}`)).toBeNull();
    } finally {
      await small.close();
    }
  });
});

describe("OpenAPI", () => {
  it("documents the upload routes", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/api/applicationadd/",
        "/api/applications/",
        "/api/versions/{id}/exchange/",
        "/api/app_upload/{app_key}/{api_key}/",
        "/api/upload-task-result/{id}/",
      ]),
    );
  });
});
