import { readdirSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addProjectMember } from "../helpers/app-factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { versions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { dmg, type FilePart, fixture, multipart, preload, uploadNewApp, usageOf } from "./upload-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function ciUpload(
  appKey: string,
  apiKey: string,
  file: FilePart | undefined,
  fields: Record<string, string> = {},
) {
  return ciUploadTo(`/api/app_upload/${appKey}/`, apiKey, file, fields);
}

/** The app record's upload_path, then the API key and a slash. */
function ciUploadTo(
  uploadPath: string,
  apiKey: string,
  file: FilePart | undefined,
  fields: Record<string, string> = {},
) {
  // CI tools put the file first; the fields after it must still be read.
  const body = multipart({}, file, fields);
  return t.app.inject({
    method: "PUT",
    url: `${uploadPath}${apiKey}/`,
    payload: body.payload,
    headers: body.headers,
  });
}

describe("PUT /api/app_upload/{app_key}/{api_key}/", () => {
  it("streams, checks and commits in one call, with the CI fields", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, dmg("1.0.0"));
    const apiKey = await t.services.tokens.issueApiKey(owner.user.id);
    const response = await ciUploadTo(app.upload_path as string, apiKey, dmg("1.0.1", "app"), {
      whats_new: "From CI",
      git_branch: "main",
      git_tag: "v1.0.1",
      git_commit: "abc123",
      ready_to_sale: "false",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: app.id,
      new_version: "1.0.1",
      count_versions: 2,
      success: "ok",
      public_link: expect.stringMatching(/^http:\/\/tarmac\.test\/getapp\/[\w-]+/),
    });
    expect(response.json().current_version).toMatchObject({
      whats_new: "From CI",
      git_branch: "main",
      git_tag: "v1.0.1",
      git_commit: "abc123",
      ready_to_sale: false,
    });
    expect((await usageOf(t, organization.id)).buildsCount).toBe(2);
  });

  it("applies the same rules as the confirm call (error 2, error 4 unless accepted)", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, fixture("android/localized.apk"));
    const apiKey = await t.services.tokens.issueApiKey(owner.user.id);
    const again = await ciUpload(app.app_key, apiKey, { ...fixture("android/localized.apk"), field: "app" });
    expect(again.json()).toEqual({
      status: "fail",
      code: 2,
      error_code: 2,
      detail: "This version already exists.",
    });
    const other = await ciUpload(app.app_key, apiKey, { ...fixture("android/modern.apk"), field: "app" });
    expect(other.json().error_code).toBe(4);
    const accepted = await ciUpload(
      app.app_key,
      apiKey,
      { ...fixture("android/modern.apk"), field: "app" },
      {
        unique_app_id_changed: "true",
      },
    );
    expect(accepted.statusCode).toBe(200);
    // Refused uploads leave no file behind: only the two accepted builds (and their icons) remain.
    const rows = await t.database.db.select().from(versions).where(eq(versions.applicationId, app.id));
    expect(rows).toHaveLength(2);
    const builds = readdirSync(
      path.join(t.config.STORAGE_LOCAL_DIR, "orgs", String(organization.id), "builds"),
    );
    expect(builds.sort()).toEqual(rows.map((row) => row.fileKey.split("/").pop()).sort());
  });

  it("answers the same 404 for a wrong key, a wrong app, a session token or a user who may not upload", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, dmg("2.0.0"));
    const apiKey = await t.services.tokens.issueApiKey(owner.user.id);
    const mobile = await addMember(t, organization.id, 3);
    await addProjectMember(t, app.project_app as number, mobile.user.id);
    const mobileKey = await t.services.tokens.issueApiKey(mobile.user.id);
    const { owner: stranger } = await createOrganization(t);
    const strangerKey = await t.services.tokens.issueApiKey(stranger.user.id);
    const attempts = [
      ciUpload(app.app_key, "x".repeat(43), dmg("2.0.1", "app")),
      ciUpload("no-such-app", apiKey, dmg("2.0.1", "app")),
      ciUpload(app.app_key, owner.token, dmg("2.0.1", "app")),
      ciUpload(app.app_key, mobileKey, dmg("2.0.1", "app")),
      ciUpload(app.app_key, strangerKey, dmg("2.0.1", "app")),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: "Not found." });
    }
  });

  it("checks the file name and type like the preload", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, dmg("3.0.0"));
    const apiKey = await t.services.tokens.issueApiKey(owner.user.id);
    const long = await ciUpload(app.app_key, apiKey, {
      field: "app",
      name: `${"n".repeat(101)}.dmg`,
      content: Buffer.alloc(10),
    });
    expect(long.json()).toEqual({ app: ["Ensure this filename has at most 100 characters (it has 105)."] });
    const ipa = await ciUpload(app.app_key, apiKey, { ...fixture("apple/ipa/adhoc.ipa"), field: "app" });
    expect(ipa.json().error_code).toBe(5);
    const missing = await ciUpload(app.app_key, apiKey, undefined, { whats_new: "x" });
    expect(missing.statusCode).toBe(400);
  });
});

describe("storage write failures", () => {
  it("a failing instance storage is a server error (500), not the organization's error 10", async () => {
    const { organization, owner } = await createOrganization(t);
    const put = vi.spyOn(t.platform.storage.instance, "put").mockImplementation(async (_key, body) => {
      for await (const _chunk of body) throw new Error("disk unreachable");
      throw new Error("disk unreachable");
    });
    try {
      const response = await preload(
        t,
        owner.token,
        { organization: organization.id },
        fixture("android/bare.apk"),
      );
      expect(response.statusCode).toBe(500);
    } finally {
      put.mockRestore();
    }
  });
});
