import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addProjectMember, createApp } from "../helpers/app-factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { appLogs, applications, preloads, versions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import {
  confirm,
  dmg,
  fixture,
  preload,
  setLimits,
  setUsage,
  uploadNewApp,
  uploadVersion,
  usageOf,
} from "./upload-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("POST /api/applications/ (new app)", () => {
  it("creates project, app and version, moves the counters, logs and answers 201 with the record", async () => {
    const { organization, owner } = await createOrganization(t);
    const loaded = await preload(
      t,
      owner.token,
      { organization: organization.id },
      fixture("android/modern.apk"),
    );
    const response = await confirm(t, owner.token, {
      organization: organization.id,
      preload_path: loaded.json().preload_path,
      project_title: "  Flight Deck ",
      title: "Flight Deck Android",
      whats_new: "First build",
    });
    expect(response.statusCode).toBe(201);
    const record = response.json();
    expect(record).toMatchObject({
      project_title: "Flight Deck",
      title: "Flight Deck Android",
      app_type: 0,
      environment: "Production",
      new_version: "2.0.0-beta.1",
      count_versions: 1,
      organization: organization.id,
      unique_app_id: "dev.tarmac.modern",
    });
    expect(record.current_version).toMatchObject({
      version: "2.0.0-beta.1",
      build_version_number: "2000",
      whats_new: "First build",
    });
    expect(record.app_key).toMatch(/^[0-9a-f]{40}$/);
    expect(await usageOf(t, organization.id)).toEqual({
      spaceUsedBytes: 16750,
      buildsCount: 1,
      projectsCount: 1,
    });
    expect(
      await t.database.db.select().from(preloads).where(eq(preloads.organizationId, organization.id)),
    ).toEqual([]);
    const logs = await t.database.db.select().from(appLogs).where(eq(appLogs.applicationId, record.id));
    expect(logs.map((log) => log.action)).toEqual(["app.created"]);
    // The preload is used up.
    const again = await confirm(t, owner.token, {
      organization: organization.id,
      preload_path: loaded.json().preload_path,
      project_title: "Again",
      title: "Again",
    });
    expect(again.statusCode).toBe(400);
    expect(Object.keys(again.json())).toEqual(["preload_path"]);
  });

  it("needs project_title and title unless project_app adds a platform", async () => {
    const { organization, owner } = await createOrganization(t);
    const loaded = await preload(
      t,
      owner.token,
      { organization: organization.id },
      fixture("apple/ipa/adhoc.ipa"),
    );
    const missing = await confirm(t, owner.token, {
      organization: organization.id,
      preload_path: loaded.json().preload_path,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      project_title: ["This field is required."],
      title: ["This field is required."],
    });

    const android = await uploadNewApp(t, owner.token, organization.id, fixture("android/localized.apk"));
    const added = await confirm(t, owner.token, {
      organization: organization.id,
      preload_path: loaded.json().preload_path,
      project_app: android.project_app,
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      project_app: android.project_app,
      app_type: 1,
      project_title: "Demo Project",
    });
    expect((await usageOf(t, organization.id)).projectsCount).toBe(1);

    const twice = await preload(
      t,
      owner.token,
      { organization: organization.id },
      fixture("apple/ipa/appstore.ipa"),
    );
    const duplicate = await confirm(t, owner.token, {
      organization: organization.id,
      preload_path: twice.json().preload_path,
      project_app: android.project_app,
    });
    expect(duplicate.statusCode).toBe(400);
    expect(Object.keys(duplicate.json())).toEqual(["project_app"]);
  });

  it("refuses a new project past the plan's projects limit", async () => {
    const { organization, owner } = await createOrganization(t);
    await setLimits(t, organization.id, { projectsLimit: 1 });
    await uploadNewApp(t, owner.token, organization.id, fixture("android/bare.apk"));
    const loaded = await preload(
      t,
      owner.token,
      { organization: organization.id },
      fixture("android/modern.apk"),
    );
    const response = await confirm(t, owner.token, {
      organization: organization.id,
      preload_path: loaded.json().preload_path,
      project_title: "Second",
      title: "Second",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error_code).toBe("projects_limit_reached");
  });

  it("refuses someone else's preload, another organization and a member who may not create apps", async () => {
    const { organization, owner } = await createOrganization(t);
    const admin = await addMember(t, organization.id, 2);
    const loaded = await preload(
      t,
      owner.token,
      { organization: organization.id },
      fixture("android/bare.apk"),
    );
    const draft = {
      organization: organization.id,
      preload_path: loaded.json().preload_path,
      project_title: "P",
      title: "T",
    };
    expect((await confirm(t, admin.token, draft)).statusCode).toBe(400);
    const { owner: stranger } = await createOrganization(t);
    expect((await confirm(t, stranger.token, draft)).statusCode).toBe(404);
    const manager = await addMember(t, organization.id, 4);
    expect((await confirm(t, manager.token, draft)).statusCode).toBe(403);
    const expired = await t.database.db
      .update(preloads)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(preloads.path, loaded.json().preload_path))
      .returning();
    expect(expired).toHaveLength(1);
    expect((await confirm(t, owner.token, draft)).statusCode).toBe(400);
  });

  it("answers 401 without a session", async () => {
    const response = await t.app.inject({ method: "POST", url: "/api/applications/", payload: {} });
    expect(response.statusCode).toBe(401);
  });
});

describe("POST /api/applications/?app= (new version)", () => {
  it("adds a version, makes it current and logs it", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, dmg("1.2.3"));
    const response = await uploadVersion(t, owner.token, app, dmg("1.2.4"), { comment: "hotfix" });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ new_version: "1.2.4", count_versions: 2 });
    expect((await usageOf(t, organization.id)).buildsCount).toBe(2);
    const logs = await t.database.db.select().from(appLogs).where(eq(appLogs.applicationId, app.id));
    expect(logs.map((log) => log.action).sort()).toEqual(["app.created", "version.uploaded"]);
  });

  it("error 2: the same version and build again", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, fixture("android/localized.apk"));
    const response = await uploadVersion(t, owner.token, app, fixture("android/localized.apk"));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error_code: 2, detail: "This version already exists." });
  });

  it("error 3: older than the newest version (numeric order)", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, dmg("1.10.0"));
    const older = await uploadVersion(t, owner.token, app, dmg("1.9.0"));
    expect(older.statusCode).toBe(400);
    expect(older.json()).toEqual({
      error_code: 3,
      detail: "A newer version of this app is already uploaded; this build is older.",
    });
    expect((await uploadVersion(t, owner.token, app, dmg("1.10.1"))).statusCode).toBe(201);
  });

  it("error 4, not 3: an older build of another app is that app's, whatever its version", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, fixture("android/localized.apk"));
    // adaptive.apk is dev.tarmac.adaptive 0.5: older than localized.apk's 1.4.2, and another app.
    const refused = await uploadVersion(t, owner.token, app, fixture("android/adaptive.apk"));
    expect(refused.json()).toEqual({ error_code: 4, detail: "This build belongs to another application." });
  });

  it("error 4: another bundle id, unless the user accepts the change (then the app follows)", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, fixture("android/localized.apk"));
    const refused = await uploadVersion(t, owner.token, app, fixture("android/modern.apk"));
    expect(refused.json()).toEqual({ error_code: 4, detail: "This build belongs to another application." });
    const accepted = await uploadVersion(t, owner.token, app, fixture("android/modern.apk"), {
      unique_app_id_changed: true,
    });
    expect(accepted.statusCode).toBe(201);
    expect(accepted.json().unique_app_id).toBe("dev.tarmac.modern");
    const logs = await t.database.db.select().from(appLogs).where(eq(appLogs.applicationId, app.id));
    expect(logs.find((log) => log.action === "app.bundle_id_changed")?.detail).toEqual({
      from: "dev.tarmac.demo",
      to: "dev.tarmac.modern",
    });
  });

  it("error 5: a preload of another platform", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, fixture("android/localized.apk"));
    const loaded = await preload(
      t,
      owner.token,
      { organization: organization.id },
      fixture("apple/ipa/adhoc.ipa"),
    );
    const response = await confirm(
      t,
      owner.token,
      { organization: organization.id, preload_path: loaded.json().preload_path },
      app.id,
    );
    expect(response.json()).toEqual({
      error_code: 5,
      detail: "This build is for a different platform than the application.",
    });
  });

  it("error 6 and 7 under the lock at confirm time", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, dmg("2.0.0"));
    const loaded = await preload(
      t,
      owner.token,
      { organization: organization.id, app: app.id },
      dmg("2.0.1"),
    );
    const body = { organization: organization.id, preload_path: loaded.json().preload_path };

    await setLimits(t, organization.id, { spaceLimitMb: 1 });
    await setUsage(t, organization.id, { spaceUsedBytes: 1024 * 1024 - 10 });
    expect((await confirm(t, owner.token, body, app.id)).json()).toEqual({
      error_code: 6,
      detail: "The organization's storage space is full. Free some space or raise the plan's limit.",
    });
    await setLimits(t, organization.id, { buildLimit: 1 });
    expect((await confirm(t, owner.token, body, app.id)).json()).toEqual({
      error_code: 7,
      detail:
        "The organization has reached its plan's limit of builds. Delete old builds or raise the plan's limit.",
    });
    await setLimits(t, organization.id, { buildLimit: 2 });
    expect((await confirm(t, owner.token, body, app.id)).statusCode).toBe(201);
  });

  it("a team manager with the project uploads; a mobile user may not; a stranger sees nothing", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, dmg("3.0.0"));
    const manager = await addMember(t, organization.id, 4);
    const mobile = await addMember(t, organization.id, 3);
    await addProjectMember(t, app.project_app as number, manager.user.id);
    await addProjectMember(t, app.project_app as number, mobile.user.id);
    expect((await uploadVersion(t, manager.token, app, dmg("3.0.1"))).statusCode).toBe(201);
    expect((await uploadVersion(t, mobile.token, app, dmg("3.0.2"))).statusCode).toBe(403);
    const outsider = await addMember(t, organization.id, 4);
    expect((await uploadVersion(t, outsider.token, app, dmg("3.0.2"))).statusCode).toBe(404);
  });

  it("answers 404 for an app of another organization", async () => {
    const { organization, owner } = await createOrganization(t);
    const { organization: other } = await createOrganization(t);
    const foreign = await createApp(t, other.id, { appType: 3 });
    const loaded = await preload(t, owner.token, { organization: organization.id }, dmg("1.0.0"));
    const response = await confirm(
      t,
      owner.token,
      { organization: organization.id, preload_path: loaded.json().preload_path },
      foreign.id,
    );
    expect(response.statusCode).toBe(404);
    expect(await t.database.db.select().from(versions).where(eq(versions.applicationId, foreign.id))).toEqual(
      [],
    );
    expect(
      (await t.database.db.select().from(applications).where(eq(applications.id, foreign.id)))[0]
        ?.versionsCount,
    ).toBe(0);
  });
});
