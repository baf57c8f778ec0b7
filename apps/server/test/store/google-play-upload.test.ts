import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import {
  addGoogleAccount,
  createStoreBuild,
  eventsOf,
  postForm,
  runUploadJob,
  useStoreWorld,
  world,
} from "./store-world.ts";

useStoreWorld();

const mib = 1024 * 1024;

async function statusOf(token: string, taskId: string) {
  const response = await world.t.app.inject({
    url: `/api/upload_aab_googleplay/?task_id=${taskId}`,
    headers: authHeader(token),
  });
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe("Google Play uploads", () => {
  it("opens an edit, uploads the bundle in resumable chunks, stages it on the track with notes and commits", async () => {
    const { organization, owner } = await createOrganization(world.t);
    const { account, serviceAccount } = await addGoogleAccount(owner.token, organization.id);
    const build = await createStoreBuild(organization.id, {
      fixture: "android/bundle.aab",
      size: 20 * mib,
      buildNumber: "31",
    });
    const app = world.google.addApp(build.bundleId, [serviceAccount.email], [29, 30]);
    app.nextVersionCode = 31;
    const check = await world.t.app.inject({
      method: "POST",
      url: "/api/check_possibility_to_upload_aab/",
      headers: authHeader(owner.token),
      payload: { integration_id: account.id, app_id: build.app.id },
    });
    expect(check.json()).toMatchObject({ ok: true, store_latest_build: "30" });
    expect(check.json().checks.map((entry: { name: string }) => entry.name)).toEqual([
      "signing",
      "app",
      "access",
      "build_version",
    ]);

    const started = await postForm(owner.token, "/api/upload_aab_googleplay/", {
      uid: String(build.version.id),
      app_id: String(build.app.id),
      track: "production",
      rollout: "10",
      release_notes: "Bug fixes",
      language: "de-DE",
    });
    expect(started.statusCode).toBe(202);
    const taskId = started.json().task_id as string;
    await runUploadJob(taskId);
    expect(await statusOf(owner.token, taskId)).toMatchObject({
      state: "done",
      progress: 100,
      track: "production",
      message: "Version code 31 is released on the production track to 10 % of users.",
    });
    const ranges = world.google.requests.filter((request) => request.range).map((request) => request.range);
    expect(ranges.filter((range) => !range?.startsWith("bytes */"))).toEqual([
      `bytes 0-${8 * mib - 1}/${20 * mib}`,
      `bytes ${8 * mib}-${16 * mib - 1}/${20 * mib}`,
      `bytes ${16 * mib}-${20 * mib - 1}/${20 * mib}`,
    ]);
    expect(app.committed).toEqual([
      {
        track: "production",
        release: {
          versionCodes: ["31"],
          status: "inProgress",
          userFraction: 0.1,
          releaseNotes: [{ language: "de-DE", text: "Bug fixes" }],
        },
      },
    ]);
    const edit = [...world.google.edits.values()].find((entry) => entry.uploaded.includes(31));
    expect(edit?.steps).toEqual(["upload", "tracks", "commit"]);
    expect((await eventsOf("store_upload.finished")).at(-1)?.data).toMatchObject({
      store_upload: { task_id: taskId, store: "google_play", track: "production" },
    });
  });

  it("goes on from where Google stands after a 503 halfway through a chunk, and the bytes arrive whole", async () => {
    const { organization, owner } = await createOrganization(world.t);
    const { serviceAccount } = await addGoogleAccount(owner.token, organization.id);
    const build = await createStoreBuild(organization.id, {
      fixture: "android/bundle.aab",
      size: 20 * mib + 1234,
      buildNumber: "5",
    });
    const app = world.google.addApp(build.bundleId, [serviceAccount.email]);
    app.nextVersionCode = 5;
    const started = await postForm(owner.token, "/api/upload_aab_googleplay/", {
      uid: String(build.version.id),
      app_id: String(build.app.id),
    });
    const taskId = started.json().task_id as string;
    world.google.failingChunks.add(1);
    const before = world.google.requests.length;
    await runUploadJob(taskId);
    expect(await statusOf(owner.token, taskId)).toMatchObject({ state: "done", track: "internal" });
    const ranges = world.google.requests
      .slice(before)
      .filter((request) => request.range)
      .map((request) => request.range);
    const total = 20 * mib + 1234;
    expect(ranges).toEqual([
      `bytes */${total}`,
      `bytes 0-${8 * mib - 1}/${total}`,
      `bytes ${8 * mib}-${16 * mib - 1}/${total}`,
      `bytes */${total}`,
      `bytes ${12 * mib}-${20 * mib - 1}/${total}`,
      `bytes ${20 * mib}-${total - 1}/${total}`,
    ]);
    // The store's SHA-256 of what it received matched the build's: checked by the worker too.
    expect(build.version.sha256).toBe(createHash("sha256").update(build.bytes).digest("hex"));
  });

  it("names the failed checks: unknown package, no access, version code not higher", async () => {
    const { organization, owner } = await createOrganization(world.t);
    const { account, serviceAccount } = await addGoogleAccount(owner.token, organization.id);
    const unknown = await createStoreBuild(organization.id, {
      fixture: "android/bundle.aab",
      size: 1000,
      buildNumber: "2",
    });
    const check = (appId: number) =>
      world.t.app.inject({
        url: `/api/check_possibility_to_upload_aab/?integration_id=${account.id}&app_id=${appId}`,
        headers: authHeader(owner.token),
      });
    const missing = (await check(unknown.app.id)).json();
    expect(missing.ok).toBe(false);
    expect(missing.checks.find((entry: { name: string }) => entry.name === "app").detail).toMatch(
      /^Google Play has no app with the package name .*Package not found/,
    );
    world.google.addApp(unknown.bundleId, ["someone-else@example.iam.gserviceaccount.com"]);
    const noAccess = (await check(unknown.app.id)).json();
    expect(noAccess.checks.find((entry: { name: string }) => entry.name === "access").detail).toMatch(
      /may not release .*does not have permission/,
    );
    world.google.apps.get(unknown.bundleId)?.releasers.add(serviceAccount.email);
    world.google.apps.get(unknown.bundleId)?.versionCodes.push(2);
    const lower = (await check(unknown.app.id)).json();
    expect(lower.checks.find((entry: { name: string }) => entry.name === "build_version")).toEqual({
      name: "build_version",
      ok: false,
      detail: "Build 2 is not higher than the store's latest, 2: raise the build number.",
    });
    const started = await postForm(owner.token, "/api/upload_aab_googleplay/", {
      uid: String(unknown.version.id),
      app_id: String(unknown.app.id),
    });
    expect(started.statusCode).toBe(400);
    expect(started.json().detail).toMatch(/^build_version: Build 2 is not higher/);
    // Every edit the checks opened was closed again.
    expect(
      [...world.google.edits.values()].filter((edit) => edit.packageName === unknown.bundleId && edit.open),
    ).toEqual([]);
  });

  it("fails with Google's words when the version code was used meanwhile", async () => {
    const { organization, owner } = await createOrganization(world.t);
    const { serviceAccount } = await addGoogleAccount(owner.token, organization.id);
    const build = await createStoreBuild(organization.id, {
      fixture: "android/bundle.aab",
      size: 5000,
      buildNumber: "12",
    });
    const app = world.google.addApp(build.bundleId, [serviceAccount.email], [11]);
    const started = await postForm(owner.token, "/api/upload_aab_googleplay/", {
      uid: String(build.version.id),
      app_id: String(build.app.id),
    });
    app.versionCodes.push(12);
    app.nextVersionCode = 12;
    await runUploadJob(started.json().task_id);
    const failed = await statusOf(owner.token, started.json().task_id);
    expect(failed.state).toBe("failed");
    expect(failed.message).toContain("APK specifies a version code that has already been used: 12.");
  });
});
