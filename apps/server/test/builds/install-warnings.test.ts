import { execFileSync } from "node:child_process";
import { copyFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturePath } from "../helpers/app-factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { tempDir } from "../helpers/temp-dirs.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { type FilePart, fixture, multipart, preload, uploadNewApp } from "./upload-helpers.ts";

let t: TestApp;
let workDir: string;
beforeAll(async () => {
  t = await createTestApp();
  workDir = tempDir("unsigned-ipa");
});
afterAll(async () => {
  await t.close();
});

/** The App Store fixture with its provisioning profile removed by zip itself: an unsigned IPA. */
function unsignedIpa(): FilePart {
  const target = path.join(workDir, "unsigned.ipa");
  copyFileSync(fixturePath("apple/ipa/appstore.ipa"), target);
  execFileSync("zip", ["-q", "-d", target, "Payload/Store.app/embedded.mobileprovision"]);
  return { name: "unsigned.ipa", content: readFileSync(target) };
}

describe("warnings of an upload that devices will refuse", () => {
  const warningsOf = async (file: FilePart) => {
    const { organization, owner } = await createOrganization(t);
    const response = await preload(t, owner.token, { organization: organization.id }, file);
    expect(response.statusCode).toBe(200);
    return response.json().warnings.map((warning: { code: string; message: string }) => {
      expect(warning.message.length).toBeGreaterThan(20);
      return warning.code;
    });
  };

  it("warns of an App-Store-signed IPA, an expired profile and an unsigned IPA", async () => {
    expect(await warningsOf(fixture("apple/ipa/appstore.ipa"))).toEqual(["ipa_app_store"]);
    expect(await warningsOf(fixture("apple/ipa/development-expired.ipa"))).toEqual(["ipa_profile_expired"]);
    expect(await warningsOf(unsignedIpa())).toEqual(["ipa_unsigned"]);
  });

  it("has nothing to say of ad-hoc and enterprise IPAs, nor of other platforms", async () => {
    expect(await warningsOf(fixture("apple/ipa/adhoc.ipa"))).toEqual([]);
    expect(await warningsOf(fixture("apple/ipa/enterprise.ipa"))).toEqual([]);
    expect(await warningsOf(fixture("android/modern.apk"))).toEqual([]);
  });

  it("tells a CI upload too, in its answer", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, fixture("apple/ipa/adhoc.ipa"));
    const apiKey = await t.services.tokens.issueApiKey(owner.user.id);
    const body = multipart(
      {},
      { ...fixture("apple/ipa/appstore.ipa"), field: "app" },
      { unique_app_id_changed: "true" },
    );
    const response = await t.app.inject({
      method: "PUT",
      url: `${app.upload_path}${apiKey}/`,
      payload: body.payload,
      headers: body.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: "ok",
      warnings: [{ code: "ipa_app_store", message: expect.stringContaining("App Store") }],
    });
  });
});
