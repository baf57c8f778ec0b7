import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { inspect } from "@tarmac/inspector";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { androidSigningKeys } from "../../src/modules/android-signing/android-signing.tables.ts";
import { createApp, createVersion, fixturePath } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { versions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { putKeystore } from "./signing-http.ts";
import { makeKeystore } from "./signing-keys.ts";

/** The certificate's SHA-256 as keytool exports it, read by node's X.509 parser (not the product's). */
function keytoolFingerprint(keystore: ReturnType<typeof makeKeystore>, type: string): string {
  const pem = execFileSync(
    "keytool",
    [
      "-exportcert",
      "-rfc",
      "-keystore",
      keystore.path,
      "-storetype",
      type,
      "-storepass",
      keystore.storePassword,
      "-alias",
      keystore.keyAlias,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  return new X509Certificate(pem).fingerprint256;
}

describe("app keystores", () => {
  let t: TestApp;
  const p12 = makeKeystore({ type: "PKCS12", keyAlgorithm: "EC", name: "Release EC" });
  const jks = makeKeystore({ type: "JKS", keyAlgorithm: "RSA", name: "Release JKS" });
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function androidApp() {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id, { title: "Signed app" });
    return { organization, owner, app, url: `/api/app-keystore/${app.id}/` };
  }

  it("saves a PKCS#12 keystore after opening it, shows its certificate and never the secrets", async () => {
    const { owner, app, url } = await androidApp();
    const before = await t.app.inject({ method: "GET", url, headers: authHeader(owner.token) });
    expect(before.json()).toMatchObject({
      app: app.id,
      configured: false,
      certificate: null,
      effective_source: "generated",
      internal_testing_only: true,
    });
    const saved = await putKeystore(t, owner.token, url, p12);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      app: app.id,
      configured: true,
      store_type: "PKCS12",
      key_alias: "release",
      file_name: "release.p12",
      effective_source: "app",
      internal_testing_only: false,
      warnings: [],
      certificate: {
        subject: "CN=Release EC, O=Tarmac",
        sha256: keytoolFingerprint(p12, "PKCS12"),
        valid_from: "2024-01-01T00:00:00.000Z",
      },
    });
    const shown = await t.app.inject({ method: "GET", url, headers: authHeader(owner.token) });
    expect(shown.json()).toEqual({ ...saved.json(), warnings: [] });
    const text = shown.body + saved.body;
    expect(text).not.toContain(p12.storePassword);
    expect(text).not.toContain(p12.file.toString("base64").slice(0, 40));
    const [row] = await t.database.db
      .select()
      .from(androidSigningKeys)
      .where(eq(androidSigningKeys.applicationId, app.id));
    expect(row?.sealed).not.toContain(p12.storePassword);
    expect(row?.sealed).not.toContain(p12.file.toString("base64").slice(0, 40));
  });

  it("opens a JKS keystore with its own key password", async () => {
    const { owner, url } = await androidApp();
    const saved = await putKeystore(t, owner.token, url, jks);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      store_type: "JKS",
      certificate: { subject: "CN=Release JKS, O=Tarmac", sha256: keytoolFingerprint(jks, "JKS") },
    });
  });

  it("names the field at fault and keeps the keystore saved before", async () => {
    const { owner, url } = await androidApp();
    expect((await putKeystore(t, owner.token, url, jks)).statusCode).toBe(200);
    const cases: Array<[Parameters<typeof putKeystore>, Record<string, string[]>]> = [
      [
        [t, owner.token, url, jks, { store_password: "wrong" }],
        { store_password: ["The keystore password is wrong."] },
      ],
      [
        [t, owner.token, url, p12, { store_password: "wrong" }],
        { store_password: ["The keystore password is wrong."] },
      ],
      [
        [t, owner.token, url, jks, { key_password: "wrong" }],
        { key_password: ["The key password is wrong."] },
      ],
      [
        [t, owner.token, url, jks, { key_alias: "upload" }],
        { key_alias: ['The keystore has no key named "upload"; it holds release.'] },
      ],
      [
        [t, owner.token, url, p12, { key_alias: "upload" }],
        { key_alias: ['The keystore has no key named "upload"; it holds release.'] },
      ],
      [
        [t, owner.token, url, jks, {}, Buffer.from("not a keystore at all")],
        { keystore_file: ["The file is neither a JKS nor a PKCS#12 keystore."] },
      ],
      [
        [t, owner.token, url, jks, {}, jks.file.subarray(0, 200)],
        { keystore_file: ["The keystore file is truncated."] },
      ],
      [
        [t, owner.token, url, jks, { store_password: undefined }],
        { store_password: ["This field is required."] },
      ],
    ];
    for (const [args, errors] of cases) {
      const response = await putKeystore(...args);
      expect(response.statusCode, JSON.stringify(errors)).toBe(400);
      expect(response.json()).toEqual(errors);
    }
    const noFile = await putKeystore(t, owner.token, url, null, {
      store_password: "x",
      key_alias: "release",
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toEqual({ keystore_file: ["No file was submitted."] });
    const kept = await t.app.inject({ method: "GET", url, headers: authHeader(owner.token) });
    expect(kept.json()).toMatchObject({
      store_type: "JKS",
      certificate: { subject: "CN=Release JKS, O=Tarmac" },
    });
  });

  it("warns when the key is not the one that signed the app's current build", async () => {
    const { owner, app, url } = await androidApp();
    const version = await createVersion(t, app, { fixture: "android/localized.apk" });
    const info = await inspect(fixturePath("android/localized.apk"), { fileName: "localized.apk" });
    await t.database.db
      .update(versions)
      .set({ buildInfo: { signing: info.signing } })
      .where(eq(versions.id, version.id));
    const saved = await putKeystore(t, owner.token, url, p12);
    expect(saved.statusCode).toBe(200);
    const [warning] = saved.json().warnings as string[];
    expect(warning).toContain("differs from the one that signed the app's current build");
    expect(warning).toContain(keytoolFingerprint(p12, "PKCS12"));
  });

  it("another organization's owner can neither read nor replace the keystore", async () => {
    const { owner, url } = await androidApp();
    expect((await putKeystore(t, owner.token, url, jks)).statusCode).toBe(200);
    const { owner: attacker } = await createOrganization(t);
    const read = await t.app.inject({ method: "GET", url, headers: authHeader(attacker.token) });
    expect(read.statusCode).toBe(404);
    const replaced = await putKeystore(t, attacker.token, url, p12);
    expect(replaced.statusCode).toBe(404);
    const kept = await t.app.inject({ method: "GET", url, headers: authHeader(owner.token) });
    expect(kept.json()).toMatchObject({ store_type: "JKS" });
  });

  it("a tester of the organization may not read it; an admin may replace it", async () => {
    const { organization, url } = await androidApp();
    const tester = await addMember(t, organization.id, 5);
    const read = await t.app.inject({ method: "GET", url, headers: authHeader(tester.token) });
    expect(read.statusCode).toBe(404);
    const admin = await addMember(t, organization.id, 2);
    expect((await putKeystore(t, admin.token, url, p12)).statusCode).toBe(200);
  });

  it("is refused for apps of other platforms", async () => {
    const { organization, owner } = await createOrganization(t);
    const ios = await createApp(t, organization.id, { appType: 1 });
    const response = await putKeystore(t, owner.token, `/api/app-keystore/${ios.id}/`, p12);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ non_field_errors: ["Only Android apps are signed with a keystore."] });
  });

  it("an organization keystore signs apps without their own", async () => {
    const { organization, owner, url } = await androidApp();
    const orgUrl = `/api/orgs-keystore/${organization.id}/`;
    const saved = await putKeystore(t, owner.token, orgUrl, jks);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      organization: organization.id,
      configured: true,
      store_type: "JKS",
    });
    const appView = await t.app.inject({ method: "GET", url, headers: authHeader(owner.token) });
    expect(appView.json()).toMatchObject({
      configured: false,
      effective_source: "organization",
      effective_certificate: { sha256: keytoolFingerprint(jks, "JKS") },
    });
    const { owner: attacker } = await createOrganization(t);
    expect(
      (await t.app.inject({ method: "GET", url: orgUrl, headers: authHeader(attacker.token) })).statusCode,
    ).toBe(404);
    expect((await putKeystore(t, attacker.token, orgUrl, p12)).statusCode).toBe(404);
  });
});
