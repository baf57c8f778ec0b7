import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import {
  addAppleAccount,
  createStoreBuild,
  eventsOf,
  postForm,
  runUploadJob,
  useStoreWorld,
  world,
} from "./store-world.ts";

useStoreWorld();

async function statusOf(token: string, taskId: string) {
  const response = await world.t.app.inject({
    url: `/api/upload_ipa_tesflight/?task_id=${taskId}`,
    headers: authHeader(token),
  });
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe("TestFlight uploads", () => {
  it("checks, uploads every slice with a fresh token, marks it uploaded with the MD5, sets What to Test and beta groups", async () => {
    const { organization, owner } = await createOrganization(world.t);
    const { account } = await addAppleAccount(owner.token, organization.id);
    const build = await createStoreBuild(organization.id, {
      fixture: "apple/ipa/appstore.ipa",
      size: 300_000,
      buildNumber: "42",
      whatsNew: "Dark mode",
    });
    world.apple.addApp(build.bundleId, "Tarmac", ["40", "41"]);
    world.apple.addBetaGroup("group-qa");
    const check = await world.t.app.inject({
      method: "POST",
      url: "/api/check_possibility_to_upload_ipa/",
      headers: authHeader(owner.token),
      payload: { integration_id: account.id, app_id: build.app.id },
    });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toMatchObject({ ok: true, store_latest_build: "41" });
    expect(check.json().checks.map((entry: { name: string }) => entry.name)).toEqual([
      "signing",
      "app",
      "access",
      "build_version",
    ]);

    const started = await postForm(owner.token, "/api/upload_ipa_tesflight/", {
      uid: String(build.version.id),
      app_id: String(build.app.id),
      integration_id: String(account.id),
      groups: "group-qa",
    });
    expect(started.statusCode).toBe(202);
    const taskId = started.json().task_id as string;
    expect(await statusOf(owner.token, taskId)).toMatchObject({
      state: "queued",
      progress: 0,
      store: "app_store",
    });

    await runUploadJob(taskId);
    const done = await statusOf(owner.token, taskId);
    expect(done).toMatchObject({
      state: "done",
      progress: 100,
      message: "Build 1.0 (42) is in TestFlight, added to 1 beta group(s).".replace(
        "1.0",
        build.version.version,
      ),
    });
    const upload = [...world.apple.uploads.values()].find((entry) => entry.buildNumber === "42");
    expect(upload?.file?.operations).toHaveLength(5);
    expect(await world.apple.receivedMd5(upload?.id ?? "")).toBe(
      createHash("md5").update(build.bytes).digest("hex"),
    );
    expect(world.apple.whatToTest.get(`build-${upload?.id}`)).toBe("Dark mode");
    expect(world.apple.betaGroups.get("group-qa")?.has(`build-${upload?.id}`)).toBe(true);
    const finished = await eventsOf("store_upload.finished");
    expect(finished.at(-1)?.data).toMatchObject({ store_upload: { task_id: taskId, store: "app_store" } });

    const history = await world.t.app.inject({
      url: `/api/store-uploads/?app_id=${build.app.id}`,
      headers: authHeader(owner.token),
    });
    expect(history.json().map((entry: { task_id: string }) => entry.task_id)).toEqual([taskId]);
  });

  it("refuses before any byte when a check fails, naming each: ad-hoc signing, a build number not above the store's", async () => {
    const { organization, owner } = await createOrganization(world.t);
    const { account } = await addAppleAccount(owner.token, organization.id);
    const build = await createStoreBuild(organization.id, {
      fixture: "apple/ipa/adhoc.ipa",
      size: 1000,
      buildNumber: "7",
    });
    world.apple.addApp(build.bundleId, "Ad hoc", ["7"]);
    const before = world.apple.requests.length;
    const versionCheck = await world.t.app.inject({
      url: `/api/check_ipa_build_version/?integration_id=${account.id}&app_id=${build.app.id}`,
      headers: authHeader(owner.token),
    });
    expect(versionCheck.json()).toEqual({
      ok: false,
      checks: [
        {
          name: "build_version",
          ok: false,
          detail: "Build 7 is not higher than the store's latest, 7: raise the build number.",
        },
      ],
      store_latest_build: "7",
    });
    const started = await postForm(owner.token, "/api/upload_ipa_tesflight/", {
      uid: String(build.version.id),
      app_id: String(build.app.id),
    });
    expect(started.statusCode).toBe(400);
    expect(started.json().detail).toMatch(
      /^signing: Signed with a ad hoc profile|^signing: Signed with an? ad.hoc profile/,
    );
    expect(started.json().detail).toContain("build_version: Build 7 is not higher");
    expect(world.apple.requests.slice(before).some((request) => request.method !== "GET")).toBe(false);
  });

  it("fails with Apple's words on a duplicate build number and tells webhooks", async () => {
    const { organization, owner } = await createOrganization(world.t);
    const { account } = await addAppleAccount(owner.token, organization.id);
    const build = await createStoreBuild(organization.id, {
      fixture: "apple/ipa/appstore.ipa",
      size: 1000,
      buildNumber: "9",
    });
    world.apple.addApp(build.bundleId, "Dup");
    const started = await postForm(owner.token, "/api/upload_ipa_tesflight/", {
      uid: String(build.version.id),
      app_id: String(build.app.id),
      integration_id: String(account.id),
    });
    const taskId = started.json().task_id as string;
    // Someone else (Xcode) sends build 9 between the check and the job.
    const app = world.apple.apps.find((entry) => entry.bundleId === build.bundleId);
    app?.builds.push({ id: "xcode-9", version: "9" });
    await runUploadJob(taskId);
    const failed = await statusOf(owner.token, taskId);
    expect(failed.state).toBe("failed");
    expect(failed.message).toContain("The bundle version 9 has already been used.");
    expect((await eventsOf("store_upload.failed")).at(-1)?.data).toMatchObject({ message: failed.message });
  });

  it("retries a slice that got a 500 and resumes after a failed run without sending the finished slices again", async () => {
    const { organization, owner } = await createOrganization(world.t);
    const { account } = await addAppleAccount(owner.token, organization.id);
    const build = await createStoreBuild(organization.id, {
      fixture: "apple/ipa/appstore.ipa",
      size: 400_000,
      buildNumber: "100",
    });
    world.apple.addApp(build.bundleId, "Flaky");
    const started = await postForm(owner.token, "/api/upload_ipa_tesflight/", {
      uid: String(build.version.id),
      app_id: String(build.app.id),
      integration_id: String(account.id),
    });
    const taskId = started.json().task_id as string;
    world.apple.failingSlices.set(1, 1);
    world.apple.failingSlices.set(3, 10);
    await expect(runUploadJob(taskId, 0)).rejects.toThrow(/500|unexpected error/i);
    const halfway = await statusOf(owner.token, taskId);
    expect(halfway.state).toBe("uploading");
    expect(halfway.progress).toBeCloseTo((3 * 65536 * 100) / 400_000, 0);
    expect(halfway.message).toMatch(/^Will try again: /);
    world.apple.failingSlices.clear();
    const slicePuts = () =>
      world.apple.requests
        .filter((request) => request.method === "PUT")
        .map((request) => request.url.split("/").pop());
    const putsBefore = slicePuts().length;
    await runUploadJob(taskId, 1);
    expect(slicePuts().slice(putsBefore)).toEqual(["3", "4", "5", "6"]);
    const done = await statusOf(owner.token, taskId);
    expect(done).toMatchObject({ state: "done", attempts: 2 });
  });

  it("fails at once, without retrying, when the key is revoked after it was saved", async () => {
    const { organization, owner } = await createOrganization(world.t);
    const { account, key } = await addAppleAccount(owner.token, organization.id);
    const build = await createStoreBuild(organization.id, {
      fixture: "apple/ipa/appstore.ipa",
      size: 2000,
      buildNumber: "8",
    });
    world.apple.addApp(build.bundleId, "Revoked");
    const started = await postForm(owner.token, "/api/upload_ipa_tesflight/", {
      uid: String(build.version.id),
      app_id: String(build.app.id),
      integration_id: String(account.id),
    });
    world.apple.revokeKey(key.keyId);
    await runUploadJob(started.json().task_id, 0);
    const failed = await statusOf(owner.token, started.json().task_id);
    expect(failed).toMatchObject({ state: "failed", attempts: 1 });
    expect(failed.message).toMatch(/^Looking up the app: Authentication credentials are missing or invalid/);
  });

  it("ends as failed when Apple's processing fails, with Apple's message", async () => {
    const { organization, owner } = await createOrganization(world.t);
    const { account } = await addAppleAccount(owner.token, organization.id);
    const build = await createStoreBuild(organization.id, {
      fixture: "apple/ipa/appstore.ipa",
      size: 2000,
      buildNumber: "5",
    });
    world.apple.addApp(build.bundleId, "Broken");
    const started = await postForm(owner.token, "/api/upload_ipa_tesflight/", {
      uid: String(build.version.id),
      app_id: String(build.app.id),
      integration_id: String(account.id),
    });
    world.apple.processingError = "Invalid Bundle. The bundle does not support the minimum OS version.";
    try {
      await runUploadJob(started.json().task_id);
    } finally {
      world.apple.processingError = null;
    }
    const failed = await statusOf(owner.token, started.json().task_id);
    expect(failed).toMatchObject({
      state: "failed",
      message: "90062: Invalid Bundle. The bundle does not support the minimum OS version.",
    });
  });

  it("keeps another organization's owner away from the account, the uploads and the app", async () => {
    const { organization, owner } = await createOrganization(world.t);
    const { account } = await addAppleAccount(owner.token, organization.id);
    const build = await createStoreBuild(organization.id, {
      fixture: "apple/ipa/appstore.ipa",
      size: 1000,
      buildNumber: "3",
    });
    world.apple.addApp(build.bundleId, "Victim");
    const started = await postForm(owner.token, "/api/upload_ipa_tesflight/", {
      uid: String(build.version.id),
      app_id: String(build.app.id),
      integration_id: String(account.id),
    });
    const taskId = started.json().task_id as string;

    const attacker = await createOrganization(world.t);
    const own = await addAppleAccount(attacker.owner.token, attacker.organization.id);
    const ownBuild = await createStoreBuild(attacker.organization.id, {
      fixture: "apple/ipa/appstore.ipa",
      size: 1000,
      buildNumber: "4",
    });
    const as = authHeader(attacker.owner.token);
    const list = await world.t.app.inject({
      url: `/api/apple-developer-accounts/?org=${organization.id}`,
      headers: as,
    });
    expect(list.statusCode).toBe(404);
    const remove = await world.t.app.inject({
      method: "DELETE",
      url: `/api/apple-developer-accounts/${account.id}/`,
      headers: as,
    });
    expect(remove.statusCode).toBe(404);
    // The victim's account on the attacker's own app.
    const useAccount = await postForm(attacker.owner.token, "/api/upload_ipa_tesflight/", {
      uid: String(ownBuild.version.id),
      app_id: String(ownBuild.app.id),
      integration_id: String(account.id),
    });
    expect(useAccount.statusCode).toBe(400);
    expect(useAccount.json()).toEqual({
      integration_id: ["No such developer account in this organization."],
    });
    const check = await world.t.app.inject({
      url: `/api/check_possibility_to_upload_ipa/?integration_id=${account.id}&app_id=${ownBuild.app.id}`,
      headers: as,
    });
    expect(check.statusCode).toBe(400);
    // The attacker's account on the victim's app.
    const onVictim = await postForm(attacker.owner.token, "/api/upload_ipa_tesflight/", {
      uid: String(build.version.id),
      app_id: String(build.app.id),
      integration_id: String(own.account.id),
    });
    expect(onVictim.statusCode).toBe(404);
    const poll = await world.t.app.inject({
      url: `/api/upload_ipa_tesflight/?task_id=${taskId}`,
      headers: as,
    });
    expect(poll.statusCode).toBe(404);
    const history = await world.t.app.inject({
      url: `/api/store-uploads/?app_id=${build.app.id}`,
      headers: as,
    });
    expect(history.statusCode).toBe(404);
    const stillThere = await world.t.app.inject({
      url: `/api/apple-developer-accounts/?org=${organization.id}`,
      headers: authHeader(owner.token),
    });
    expect(stillThere.json()).toHaveLength(1);
  });
});
