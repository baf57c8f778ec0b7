import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileFakeBundletool } from "../builds/fake-bundletool.ts";
import { usageOf } from "../builds/upload-helpers.ts";
import { createApp, createVersion, fixturePath } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { versions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { apksignerVerify, badging, hasApksigner } from "./apksigner-check.ts";
import { pollTask, putKeystore, startSigning, storedToFile } from "./signing-http.ts";
import { makeKeystore } from "./signing-keys.ts";

async function versionRow(t: TestApp, id: number) {
  const [row] = await t.database.db.select().from(versions).where(eq(versions.id, id));
  if (!row) throw new Error("no version");
  return row;
}

/** apksigner's digest of the signer certificate, to compare with the keystore's. */
function signerDigest(output: string): string | undefined {
  return /Signer #1 certificate SHA-256 digest: ([0-9a-f]+)/.exec(output)?.[1];
}

describe.runIf(hasApksigner)("signing Android builds", () => {
  let t: TestApp;
  const ec = makeKeystore({ type: "PKCS12", keyAlgorithm: "EC", name: "Release EC" });
  beforeAll(async () => {
    t = await createTestApp({
      BUNDLETOOL_JAR: compileFakeBundletool({ universalApk: fixturePath("android/localized.apk") }),
    });
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  it("re-signs an uploaded APK with the app's keystore: v1, v2 and v3, the upload kept", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const version = await createVersion(t, app, { fixture: "android/localized.apk" });
    expect((await putKeystore(t, owner.token, `/api/app-keystore/${app.id}/`, ec)).statusCode).toBe(200);
    const usageBefore = (await usageOf(t, organization.id)).spaceUsedBytes;
    const started = await startSigning(t, owner.token, version.id);
    expect(started.statusCode).toBe(202);
    const taskId = started.json().task_id as string;
    const result = await pollTask(t, owner.token, taskId);
    expect(result).toMatchObject({ task_id: taskId, state: "SUCCESS", error_code: null });
    const row = await versionRow(t, version.id);
    expect(row.fileKey).toBe(version.fileKey);
    expect(row.universalApkKey).toBeTruthy();
    const signed = await storedToFile(t, row.universalApkKey as string);
    const verified = apksignerVerify(signed);
    expect(verified.ok, verified.output).toBe(true);
    expect(verified.output).toContain("Verified using v1 scheme (JAR signing): true");
    expect(verified.output).toContain("Verified using v2 scheme (APK Signature Scheme v2): true");
    expect(verified.output).toContain("Verified using v3 scheme (APK Signature Scheme v3): true");
    const keystoreDigest = (
      await t.app.inject({
        method: "GET",
        url: `/api/app-keystore/${app.id}/`,
        headers: authHeader(owner.token),
      })
    ).json().certificate.sha256 as string;
    expect(signerDigest(verified.output)).toBe(keystoreDigest.replaceAll(":", "").toLowerCase());
    expect(badging(signed)).toBe(badging(fixturePath("android/localized.apk")));
    expect((await usageOf(t, organization.id)).spaceUsedBytes).toBe(usageBefore + row.universalApkSize);
    const state = await t.app.inject({
      method: "GET",
      url: `/api/app-resign-aab-build/?build_id=${version.id}`,
      headers: authHeader(owner.token),
    });
    expect(state.json()).toEqual({
      build_id: version.id,
      task_id: taskId,
      state: "SUCCESS",
      error_code: null,
      detail: "",
      has_universal_apk: true,
      effective_source: "app",
      internal_testing_only: false,
    });
  });

  it("signs with a key it generates (and keeps) when the app has no keystore", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id, { title: "Nightly" });
    const first = await createVersion(t, app, { fixture: "android/modern.apk" });
    const second = await createVersion(t, app, { fixture: "android/localized.apk" });
    const digests: Array<string | undefined> = [];
    for (const version of [first, second]) {
      const started = await startSigning(t, owner.token, version.id);
      expect((await pollTask(t, owner.token, started.json().task_id)).state).toBe("SUCCESS");
      const verified = apksignerVerify(
        await storedToFile(t, (await versionRow(t, version.id)).universalApkKey ?? ""),
      );
      expect(verified.ok, verified.output).toBe(true);
      expect(verified.output).toContain("OU=Internal testing only");
      digests.push(signerDigest(verified.output));
    }
    expect(digests[0]).toBeTruthy();
    expect(digests[1]).toBe(digests[0]);
    const view = (
      await t.app.inject({
        method: "GET",
        url: `/api/app-keystore/${app.id}/`,
        headers: authHeader(owner.token),
      })
    ).json();
    expect(view).toMatchObject({
      configured: false,
      effective_source: "generated",
      internal_testing_only: true,
    });
    expect(view.effective_certificate.sha256.replaceAll(":", "").toLowerCase()).toBe(digests[0]);
  });

  it("converts an AAB to a signed universal APK", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const bundle = await createVersion(t, app, { fixture: "android/bundle.aab" });
    const started = await startSigning(t, owner.token, bundle.id);
    expect(started.statusCode).toBe(202);
    expect((await pollTask(t, owner.token, started.json().task_id)).state).toBe("SUCCESS");
    const row = await versionRow(t, bundle.id);
    const verified = apksignerVerify(await storedToFile(t, row.universalApkKey ?? ""));
    expect(verified.ok, verified.output).toBe(true);
  });

  it("another organization's owner cannot sign the build or see its signing", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const version = await createVersion(t, app, { fixture: "android/localized.apk" });
    const { owner: attacker } = await createOrganization(t);
    expect((await startSigning(t, attacker.token, version.id)).statusCode).toBe(404);
    const peek = await t.app.inject({
      method: "GET",
      url: `/api/app-resign-aab-build/?build_id=${version.id}`,
      headers: authHeader(attacker.token),
    });
    expect(peek.statusCode).toBe(404);
    const own = await startSigning(t, owner.token, version.id);
    const foreignTask = await t.app.inject({
      method: "GET",
      url: `/api/upload-task-result/${own.json().task_id}/`,
      headers: authHeader(attacker.token),
    });
    expect(foreignTask.statusCode).toBe(404);
    await pollTask(t, owner.token, own.json().task_id);
  });

  it("refuses builds of other platforms", async () => {
    const { organization, owner } = await createOrganization(t);
    const ios = await createApp(t, organization.id, { appType: 1 });
    const version = await createVersion(t, ios, { fixture: "android/localized.apk", fileName: "app.ipa" });
    const response = await startSigning(t, owner.token, version.id);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ build_id: ["Only Android builds are signed here."] });
  });
});

describe("without a converter or a key", () => {
  it("error 8: no key for the app when generated keys are off", async () => {
    const t = await createTestApp({ ANDROID_GENERATED_KEYS: "false" });
    try {
      const { organization, owner } = await createOrganization(t);
      const app = await createApp(t, organization.id);
      const bundle = await createVersion(t, app, { fixture: "android/bundle.aab" });
      const apk = await createVersion(t, app, { fixture: "android/localized.apk" });
      const error8 = {
        error_code: 8,
        detail: "Converting Android App Bundles to APKs is not set up on this instance.",
      };
      for (const version of [bundle, apk]) {
        const response = await startSigning(t, owner.token, version.id);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual(error8);
      }
      const view = await t.app.inject({
        method: "GET",
        url: `/api/app-keystore/${app.id}/`,
        headers: authHeader(owner.token),
      });
      expect(view.json()).toMatchObject({ effective_source: null, internal_testing_only: false });
    } finally {
      await t.close();
    }
  });
});
