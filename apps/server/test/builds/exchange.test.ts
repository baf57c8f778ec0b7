import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addProjectMember } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization, waitFor } from "../helpers/org-factories.ts";
import { appLogs, versions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { fixture, preload, setLimits, uploadNewApp, usageOf } from "./upload-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
});
afterAll(async () => {
  await t.close();
});

function exchange(token: string, versionId: number, body: Record<string, unknown>) {
  return t.app.inject({
    method: "POST",
    url: `/api/versions/${versionId}/exchange/`,
    payload: body,
    headers: authHeader(token),
  });
}

async function appWithVersion(fixtureName = "android/adaptive.apk") {
  const { organization, owner } = await createOrganization(t);
  const app = await uploadNewApp(t, owner.token, organization.id, fixture(fixtureName));
  const [version] = await t.database.db.select().from(versions).where(eq(versions.applicationId, app.id));
  if (!version) throw new Error("no version");
  return { organization, owner, app, version };
}

describe("POST /api/versions/{id}/exchange/", () => {
  it("replaces the file, adjusts space, logs the comment and deletes the old file after commit", async () => {
    const { organization, owner, app, version } = await appWithVersion("android/localized.apk");
    const before = await usageOf(t, organization.id);
    // Same bundle id (dev.tarmac.demo), another file: the AAB of the same app.
    const loaded = await preload(
      t,
      owner.token,
      { organization: organization.id, app: app.id },
      fixture("android/bundle.aab"),
    );
    const response = await exchange(owner.token, version.id, {
      preload_path: loaded.json().preload_path,
      comment: "Signed with the release key",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: version.id,
      file_name: "bundle.aab",
      file_size: loaded.json().file_size,
    });
    const after = await usageOf(t, organization.id);
    expect(after.spaceUsedBytes - before.spaceUsedBytes).toBe(loaded.json().file_size - version.fileSize);
    expect(after.buildsCount).toBe(before.buildsCount);
    const [log] = await t.database.db
      .select()
      .from(appLogs)
      .where(eq(appLogs.action, "version.file_exchanged"));
    expect(log?.detail).toMatchObject({
      comment: "Signed with the release key",
      old_file_name: "localized.apk",
    });
    await waitFor(async () => ((await t.platform.storage.stat(version.fileKey)) === null ? true : undefined));
  });

  it("refuses another platform (5), another bundle id (4), a used preload and a missing comment", async () => {
    const { organization, owner, version } = await appWithVersion();
    const ipa = await preload(
      t,
      owner.token,
      { organization: organization.id },
      fixture("apple/ipa/adhoc.ipa"),
    );
    expect(
      (
        await exchange(owner.token, version.id, { preload_path: ipa.json().preload_path, comment: "x" })
      ).json().error_code,
    ).toBe(5);
    const other = await preload(
      t,
      owner.token,
      { organization: organization.id },
      fixture("android/modern.apk"),
    );
    expect(
      (
        await exchange(owner.token, version.id, { preload_path: other.json().preload_path, comment: "x" })
      ).json().error_code,
    ).toBe(4);
    const blank = await exchange(owner.token, version.id, {
      preload_path: other.json().preload_path,
      comment: " ",
    });
    expect(Object.keys(blank.json())).toEqual(["comment"]);
    const unknown = await exchange(owner.token, version.id, { preload_path: "not-a-preload", comment: "x" });
    expect(Object.keys(unknown.json())).toEqual(["preload_path"]);
  });

  it("error 6 when the new file grows past the space limit", async () => {
    const { organization, owner, app, version } = await appWithVersion("android/bare.apk");
    const loaded = await preload(
      t,
      owner.token,
      { organization: organization.id, app: app.id },
      fixture("android/bare.apk", "bigger.apk"),
    );
    await setLimits(t, organization.id, { spaceLimitMb: 1 });
    await t.database.db.update(versions).set({ fileSize: 1 }).where(eq(versions.id, version.id));
    const { organizations } = await import("../helpers/tables.ts");
    await t.database.db
      .update(organizations)
      .set({ spaceUsedBytes: 1024 * 1024 - 10 })
      .where(eq(organizations.id, organization.id));
    const response = await exchange(owner.token, version.id, {
      preload_path: loaded.json().preload_path,
      comment: "x",
    });
    expect(response.json().error_code).toBe(6);
  });

  it("409 while the version is processing", async () => {
    const { organization, owner, app, version } = await appWithVersion();
    await t.database.db.update(versions).set({ state: "processing" }).where(eq(versions.id, version.id));
    const loaded = await preload(
      t,
      owner.token,
      { organization: organization.id, app: app.id },
      fixture("android/adaptive.apk"),
    );
    const response = await exchange(owner.token, version.id, {
      preload_path: loaded.json().preload_path,
      comment: "x",
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: "This version is still processing." });
  });

  it("needs build:update: a team manager gets 403, a stranger 404, no session 401", async () => {
    const { organization, owner, app, version } = await appWithVersion();
    const manager = await addMember(t, organization.id, 4);
    await addProjectMember(t, app.project_app as number, manager.user.id);
    const loaded = await preload(
      t,
      manager.token,
      { organization: organization.id, app: app.id },
      fixture("android/adaptive.apk"),
    );
    expect(loaded.statusCode, loaded.body).toBe(200);
    const body = { preload_path: loaded.json().preload_path, comment: "x" };
    const refused = await exchange(manager.token, version.id, body);
    expect(refused.statusCode, refused.body).toBe(403);
    const { owner: stranger } = await createOrganization(t);
    expect((await exchange(stranger.token, version.id, body)).statusCode).toBe(404);
    const anonymous = await t.app.inject({
      method: "POST",
      url: `/api/versions/${version.id}/exchange/`,
      payload: body,
    });
    expect(anonymous.statusCode).toBe(401);
    expect(owner.token).toBeTruthy();
  });
});
