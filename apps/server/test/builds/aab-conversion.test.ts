import { statSync } from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apksignerVerify, hasApksigner } from "../android-signing/apksigner-check.ts";
import { storedToFile } from "../android-signing/signing-http.ts";
import { fixturePath } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { versions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { waitFor } from "../helpers/wait-for.ts";
import { compileFakeBundletool } from "./fake-bundletool.ts";
import { confirm, fixture, preload, usageOf } from "./upload-helpers.ts";

const aabSize = statSync(fixturePath("android/bundle.aab")).size;

/** The instance's keystore (the AAB_* settings): the fixtures' own key. */
function converterEnv(jar: string) {
  return {
    BUNDLETOOL_JAR: jar,
    AAB_KEYSTORE: fixturePath("android/keys/fixture.p12"),
    AAB_KEYSTORE_PASSWORD: "fixture",
    AAB_KEY_ALIAS: "fixture",
    AAB_KEY_PASSWORD: "fixture",
  };
}

/** The stand-in bundletool hands back a real APK, which the server signs with the app's key. */
const universalApk = () => compileFakeBundletool({ universalApk: fixturePath("android/localized.apk") });

async function confirmAab(t: TestApp, token: string, organization: number) {
  const loaded = await preload(t, token, { organization }, fixture("android/bundle.aab"));
  expect(loaded.statusCode).toBe(200);
  return confirm(t, token, {
    organization,
    preload_path: loaded.json().preload_path,
    project_title: "Bundle",
    title: "Bundle",
    convert_to_apk: true,
  });
}

async function pollTask(t: TestApp, token: string, taskId: string) {
  let body: Record<string, unknown> = {};
  await waitFor(async () => {
    const response = await t.app.inject({
      method: "GET",
      url: `/api/upload-task-result/${taskId}/`,
      headers: authHeader(token),
    });
    body = response.json();
    return body.state === "SUCCESS" || body.state === "FAILURE" ? true : undefined;
  }, 30_000);
  return body;
}

describe("AAB to universal APK", () => {
  it("converts without any set-up: in TypeScript, signed with a key made for the app", async () => {
    const t = await createTestApp();
    try {
      await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
      const { organization, owner } = await createOrganization(t);
      const response = await confirmAab(t, owner.token, organization.id);
      expect(response.statusCode).toBe(202);
      const result = await pollTask(t, owner.token, response.json().task_id as string);
      expect(result).toMatchObject({ state: "SUCCESS", error_code: null });
      const [row] = await t.database.db
        .select()
        .from(versions)
        .where(eq(versions.organizationId, organization.id));
      expect(row?.universalApkSize).toBeGreaterThan(0);
      if (hasApksigner) {
        const verified = apksignerVerify(await storedToFile(t, row?.universalApkKey ?? ""));
        expect(verified.ok, verified.output).toBe(true);
      }
    } finally {
      await t.close();
    }
  });

  it("error 8 when the app has no key and generated keys are off", async () => {
    const t = await createTestApp({ ANDROID_GENERATED_KEYS: "false" });
    try {
      await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
      const { organization, owner } = await createOrganization(t);
      const response = await confirmAab(t, owner.token, organization.id);
      const result =
        response.statusCode === 202
          ? await pollTask(t, owner.token, response.json().task_id)
          : response.json();
      expect(result).toMatchObject({ error_code: 8 });
    } finally {
      await t.close();
    }
  });

  describe("with a converter", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(converterEnv(universalApk()));
      await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
    }, 60_000);
    afterAll(async () => {
      await t.close();
    });

    it("answers 202, converts in a job, counts the APK in space and reports the app", async () => {
      const { organization, owner } = await createOrganization(t);
      const response = await confirmAab(t, owner.token, organization.id);
      expect(response.statusCode).toBe(202);
      const taskId = response.json().task_id as string;
      const result = await pollTask(t, owner.token, taskId);
      expect(result).toMatchObject({ task_id: taskId, state: "SUCCESS", error_code: null });
      const record = result.result as { current_version: { state: string; has_universal_apk: boolean } };
      expect(record.current_version).toMatchObject({ state: "ready", has_universal_apk: true });
      const [row] = await t.database.db
        .select()
        .from(versions)
        .where(eq(versions.organizationId, organization.id));
      const apkSize = row?.universalApkSize ?? 0;
      expect(apkSize).toBeGreaterThan(0);
      expect(await t.platform.storage.stat(row?.universalApkKey ?? "")).toMatchObject({ size: apkSize });
      expect((await usageOf(t, organization.id)).spaceUsedBytes).toBe(aabSize + apkSize);
      if (hasApksigner) {
        const verified = apksignerVerify(await storedToFile(t, row?.universalApkKey ?? ""));
        expect(verified.ok, verified.output).toBe(true);
        // Signed with the instance's keystore: no app or organization keystore is set.
        expect(verified.output).toContain("CN=Tarmac Fixtures, O=Tarmac, C=US");
      }
    });

    it("an AAB uploaded without asking is ready at once (201), and its installable APK follows", async () => {
      const { organization, owner } = await createOrganization(t);
      const loaded = await preload(
        t,
        owner.token,
        { organization: organization.id },
        fixture("android/bundle.aab"),
      );
      const response = await confirm(t, owner.token, {
        organization: organization.id,
        preload_path: loaded.json().preload_path,
        project_title: "Automatic",
        title: "Automatic",
      });
      expect(response.statusCode, response.body).toBe(201);
      const row = await waitFor(async () => {
        const [found] = await t.database.db
          .select()
          .from(versions)
          .where(eq(versions.organizationId, organization.id));
        return found?.universalApkKey ? found : undefined;
      }, 30_000);
      expect(row.state).toBe("ready");
      if (hasApksigner) {
        expect(apksignerVerify(await storedToFile(t, row.universalApkKey ?? "")).ok).toBe(true);
      }
    });

    it("scopes the task: another organization's member gets 404", async () => {
      const { organization, owner } = await createOrganization(t);
      const response = await confirmAab(t, owner.token, organization.id);
      const { owner: stranger } = await createOrganization(t);
      const foreign = await t.app.inject({
        method: "GET",
        url: `/api/upload-task-result/${response.json().task_id}/`,
        headers: authHeader(stranger.token),
      });
      expect(foreign.statusCode).toBe(404);
      const unknown = await t.app.inject({
        method: "GET",
        url: "/api/upload-task-result/nope/",
        headers: authHeader(owner.token),
      });
      expect(unknown.statusCode).toBe(404);
      await pollTask(t, owner.token, response.json().task_id);
    });
  });

  it("a failing converter: task FAILURE with error 9, version failed", async () => {
    const t = await createTestApp(converterEnv(compileFakeBundletool({ fail: true })));
    try {
      await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
      const { organization, owner } = await createOrganization(t);
      const response = await confirmAab(t, owner.token, organization.id);
      expect(response.statusCode).toBe(202);
      const result = await pollTask(t, owner.token, response.json().task_id);
      expect(result).toMatchObject({
        state: "FAILURE",
        error_code: 9,
        detail: "The Android App Bundle could not be converted to an APK.",
        result: null,
      });
      const [row] = await t.database.db
        .select()
        .from(versions)
        .where(eq(versions.organizationId, organization.id));
      expect(row).toMatchObject({ state: "failed", universalApkKey: null });
    } finally {
      await t.close();
    }
  }, 60_000);

  it.runIf(process.env.BUNDLETOOL_JAR)(
    "converts with the real bundletool",
    async () => {
      const t = await createTestApp({
        BUNDLETOOL_JAR: process.env.BUNDLETOOL_JAR as string,
        AAB_KEYSTORE: process.env.AAB_KEYSTORE ?? fixturePath("android/keys/fixture.p12"),
        AAB_KEYSTORE_PASSWORD: process.env.AAB_KEYSTORE_PASSWORD ?? "fixture",
        AAB_KEY_ALIAS: process.env.AAB_KEY_ALIAS ?? "fixture",
        AAB_KEY_PASSWORD: process.env.AAB_KEY_PASSWORD ?? "fixture",
      });
      try {
        await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
        const { organization, owner } = await createOrganization(t);
        const response = await confirmAab(t, owner.token, organization.id);
        const result = await pollTask(t, owner.token, response.json().task_id);
        expect(result.state).toBe("SUCCESS");
      } finally {
        await t.close();
      }
    },
    120_000,
  );
});
