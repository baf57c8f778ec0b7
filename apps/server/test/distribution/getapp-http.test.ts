import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import plist from "plist";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addProjectMember, createApp, createVersion, fixturePath } from "../helpers/app-factories.ts";
import { authHeader, createUserWithToken } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { distributions, testers, versions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { createIosBuild, eventually, localPath } from "./distribution-fixtures.ts";

// What iOS sends when the system, not Safari, fetches the manifest and the IPA.
const iosInstaller =
  "com.apple.appstored/1.0 iOS/17.4 model/iPhone15,2 hwp/t8120 build/21E219 (6; dt:282) AMS/1";
const android =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/124.0 Mobile Safari/537.36";

interface Manifest {
  items: Array<{ assets: Array<{ kind: string; url: string }>; metadata: Record<string, string> }>;
}

describe("the public install page over HTTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: "https://tarmac.test" });
  });
  afterAll(async () => {
    await t.close();
  });

  const appLink = async (token: string, appId: number) =>
    (await t.app.inject({ url: `/api/distributions/?app=${appId}`, headers: authHeader(token) })).json()
      .results[0];
  const createLink = async (token: string, payload: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/distributions/",
      headers: authHeader(token),
      payload,
    });
    expect(res.statusCode).toBe(201);
    return res.json();
  };
  const page = (key: string, headers: Record<string, string> = {}, query = "") =>
    t.app.inject({ url: `/api/getapp/${key}/${query}`, headers });

  it("installs the newest released iOS build over the air with cookie-free signed URLs", async () => {
    const { organization, owner } = await createOrganization(t, { title: "Skyline & Co" });
    const { app, version } = await createIosBuild(t, organization.id);
    const link = await appLink(owner.token, app.id);
    const res = await page(link.key);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      title: app.title,
      organization: "Skyline & Co",
      access: "public",
      https: true,
    });
    expect(body.builds).toHaveLength(1);
    const [build] = body.builds;
    expect(build).toMatchObject({ platform: "ios", app_type: 1, version: "2.3.1", min_os_version: null });
    expect(build.install.kind).toBe("itms");
    const prefix = "itms-services://?action=download-manifest&url=";
    expect(build.install.url.startsWith(prefix)).toBe(true);
    const manifestUrl = decodeURIComponent(build.install.url.slice(prefix.length));
    expect(manifestUrl.startsWith(`https://tarmac.test/api/getapp/${link.key}/manifest.plist?`)).toBe(true);

    const manifestRes = await t.app.inject({
      url: localPath(manifestUrl),
      headers: { "user-agent": iosInstaller },
    });
    expect(manifestRes.statusCode).toBe(200);
    expect(manifestRes.headers["content-type"]).toMatch(/^text\/xml/);
    // Signed URLs carry "&": the XML must escape it to stay readable.
    expect(manifestRes.body).toContain("&amp;");
    const manifest = plist.parse(manifestRes.body) as unknown as Manifest;
    const [item] = manifest.items;
    expect(item?.metadata).toMatchObject({
      "bundle-identifier": "com.tarmac.fixture.adhoc",
      kind: "software",
    });
    const ipaUrl = item?.assets.find((asset) => asset.kind === "software-package")?.url ?? "";
    expect(ipaUrl.startsWith("https://tarmac.test/")).toBe(true);
    const ipa = await t.app.inject({ url: localPath(ipaUrl), headers: { "user-agent": iosInstaller } });
    expect(ipa.statusCode).toBe(200);
    expect(ipa.rawPayload.equals(readFileSync(fixturePath("apple/ipa/adhoc.ipa")))).toBe(true);

    await eventually(async () => {
      const counts = await t.app.inject({
        url: `/api/versions/${version.id}/installs/`,
        headers: authHeader(owner.token),
      });
      expect(counts.json()).toEqual([
        { platform: "iphone", kind: "download", count: 1 },
        { platform: "iphone", kind: "install", count: 1 },
      ]);
    });
    const [row] = await t.database.db.select().from(versions).where(eq(versions.id, version.id));
    expect(row).toMatchObject({ installCount: 1, downloadCount: 1 });
    const [listed] = (
      await t.app.inject({ url: `/api/distributions/?app=${app.id}`, headers: authHeader(owner.token) })
    ).json().results;
    expect(listed).toMatchObject({ installs_count: 1, counts: { install: 1, download: 1 } });
  });

  it("offers every platform of the project in the environment, the universal APK for a bundle", async () => {
    const { organization, owner } = await createOrganization(t);
    const androidApp = await createApp(t, organization.id, { appType: 0 });
    const bundle = await createVersion(t, androidApp, { fixture: "android/bundle.aab" });
    await createVersion(t, androidApp, { readyToSale: false });
    const apk = await t.platform.storage.put(
      `orgs/${organization.id}/universal.apk`,
      (await import("node:fs")).createReadStream(fixturePath("android/modern.apk")),
    );
    await t.database.db
      .update(versions)
      .set({ universalApkKey: apk.key, universalApkSize: apk.size })
      .where(eq(versions.id, bundle.id));
    const { app: iosApp } = await createIosBuild(t, organization.id, { projectId: androidApp.projectId });
    await createIosBuild(t, organization.id, { projectId: androidApp.projectId, environment: "Staging" });
    const link = await appLink(owner.token, iosApp.id);
    const body = (await page(link.key)).json();
    expect(body.builds.map((b: { platform: string }) => b.platform)).toEqual(["android", "ios"]);
    const androidBuild = body.builds[0];
    expect(androidBuild).toMatchObject({ id: bundle.id, size: apk.size, install: { kind: "download" } });
    expect(androidBuild.install.url).toContain("/universal-apk/");
    const download = await t.app.inject({
      url: localPath(androidBuild.install.url),
      headers: { "user-agent": android },
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(readFileSync(fixturePath("android/modern.apk")))).toBe(true);
    await eventually(async () => {
      const counts = await t.app.inject({
        url: `/api/versions/${bundle.id}/installs/`,
        headers: authHeader(owner.token),
      });
      expect(counts.json()).toEqual([{ platform: "android", kind: "download", count: 1 }]);
    });
    const tampered = androidBuild.install.url.replace(/signature=[^&]+/, "signature=AAAAAAAAAAAAAAAAAAAA");
    expect((await t.app.inject({ url: localPath(tampered) })).statusCode).toBe(403);
  });

  it("locks password links until unlocked, refuses wrong passwords and throttles guessing", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const v = await createVersion(t, app);
    const link = await createLink(owner.token, {
      app: app.id,
      version: v.id,
      access: "password",
      password: "letmein!",
    });
    const locked = (await page(link.key)).json();
    expect(locked).toMatchObject({ needs_password: true, access: "password", builds: [] });
    const unlock = (password: string, ip = "203.0.113.9") =>
      t.app.inject({
        method: "POST",
        url: `/api/getapp/${link.key}/unlock/`,
        payload: { password },
        remoteAddress: ip,
      });
    const wrong = await unlock("nope");
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ password: ["Incorrect password."] });
    const right = await unlock("letmein!");
    expect(right.statusCode).toBe(200);
    const { access_token: token } = right.json();
    const open = (await page(link.key, {}, `?access_token=${encodeURIComponent(token)}`)).json();
    expect(open).toMatchObject({ needs_password: false });
    expect(open.builds.map((b: { id: number }) => b.id)).toEqual([v.id]);
    expect((await page(link.key, {}, "?access_token=1.forged")).json().needs_password).toBe(true);

    let last = wrong;
    for (let attempt = 0; attempt < 11; attempt += 1) last = await unlock("guess", "198.51.100.7");
    expect(last.statusCode).toBe(429);
    expect(last.headers["retry-after"]).toBeDefined();
  });

  it("opens members links to members who may read the app and to its testers only", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    await createVersion(t, app);
    const link = await createLink(owner.token, { app: app.id, access: "members" });
    const anonymous = await page(link.key);
    expect(anonymous.statusCode).toBe(403);
    expect(anonymous.json()).toMatchObject({ login_required: true });
    expect((await page(link.key, authHeader(owner.token))).json().builds).toHaveLength(1);

    const member = await addMember(t, organization.id, 3);
    expect((await page(link.key, authHeader(member.token))).statusCode).toBe(403);
    await addProjectMember(t, app.projectId, member.user.id);
    expect((await page(link.key, authHeader(member.token))).statusCode).toBe(200);

    const tester = await createUserWithToken(t, { email: `Tester-${Date.now()}@example.test` });
    expect((await page(link.key, authHeader(tester.token))).statusCode).toBe(403);
    await t.database.db.insert(testers).values({
      organizationId: organization.id,
      applicationId: app.id,
      email: tester.user.email.toLowerCase(),
    });
    expect((await page(link.key, authHeader(tester.token))).statusCode).toBe(200);
    // A tester entry linked to the account counts even under another address.
    const linked = await createUserWithToken(t);
    await t.database.db.insert(testers).values({
      organizationId: organization.id,
      applicationId: app.id,
      email: "old-address@example.test",
      userId: linked.user.id,
    });
    expect((await page(link.key, authHeader(linked.token))).statusCode).toBe(200);

    const stranger = await createOrganization(t);
    expect((await page(link.key, authHeader(stranger.owner.token))).statusCode).toBe(403);
  });

  it("answers 410 for expired and used-up links and 404 for unknown keys", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    await createVersion(t, app);
    const expiring = await createLink(owner.token, { app: app.id, expires_at: "2099-01-01T00:00:00Z" });
    await t.database.db
      .update(distributions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(distributions.id, expiring.id));
    const expired = await page(expiring.key);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ expired: true, builds: [], title: app.title });

    const limited = await createLink(owner.token, { app: app.id, install_limit: 1 });
    const [build] = (await page(limited.key)).json().builds;
    const first = await t.app.inject({ url: localPath(build.install.url) });
    expect(first.statusCode).toBe(200);
    await eventually(async () => {
      const rows = await t.database.db.select().from(distributions).where(eq(distributions.id, limited.id));
      expect(rows[0]?.installsCount).toBe(1);
    });
    await eventually(async () => {
      const used = await page(limited.key);
      expect(used.statusCode).toBe(410);
      expect(used.json()).toMatchObject({ limit_reached: true });
    });
    // The limit is used up for anyone new; the client that holds the place may fetch again
    // (range requests and resumed downloads of one build count once per client).
    const newcomer = await t.app.inject({ url: localPath(build.install.url), remoteAddress: "10.9.9.9" });
    expect(newcomer.statusCode).toBe(410);
    expect((await t.app.inject({ url: localPath(build.install.url) })).statusCode).toBe(200);

    expect((await page("no-such-key-anywhere")).statusCode).toBe(404);
  });
});
