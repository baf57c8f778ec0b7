import { eq } from "drizzle-orm";
import plist from "plist";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIosBuild, eventually, localPath } from "../distribution/distribution-fixtures.ts";
import { createApp, createVersion } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { distributions, versions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const iosInstaller =
  "com.apple.appstored/1.0 iOS/17.4 model/iPhone15,2 hwp/t8120 build/21E219 (6; dt:282) AMS/1";

describe("install limits hold under attack", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: "https://tarmac.test" });
  });
  afterAll(() => t.close());

  async function limitedLink(limit: number) {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const version = await createVersion(t, app);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/distributions/",
      headers: authHeader(owner.token),
      payload: { app: app.id, install_limit: limit },
    });
    const link = created.json();
    const [build] = (await t.app.inject({ url: `/api/getapp/${link.key}/` })).json().builds;
    return { link, version, url: localPath(build.install.url) as string };
  }
  const installsOf = async (linkId: number) =>
    (await t.database.db.select().from(distributions).where(eq(distributions.id, linkId)))[0]?.installsCount;

  it("lets exactly the limit through when 20 clients download at once", async () => {
    const { link, url } = await limitedLink(5);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => t.app.inject({ url, remoteAddress: `10.20.0.${index + 1}` })),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 410)).toHaveLength(15);
    expect(await installsOf(link.id)).toBe(5);
  });

  it("counts one client's range requests as one download", async () => {
    const { link, version, url } = await limitedLink(2);
    for (let index = 0; index < 30; index += 1) {
      const part = await t.app.inject({ url, headers: { range: `bytes=${index}-${index}` } });
      expect(part.statusCode).toBe(206);
    }
    // Asking again and again for the last byte (each a "finished" download) counts once too.
    for (let index = 0; index < 5; index += 1) {
      expect((await t.app.inject({ url, headers: { range: "bytes=-1" } })).statusCode).toBe(206);
    }
    expect(await installsOf(link.id)).toBe(1);
    // Another client still finds its place.
    expect((await t.app.inject({ url, remoteAddress: "10.30.0.1" })).statusCode).toBe(200);
    await eventually(async () => {
      const [row] = await t.database.db.select().from(versions).where(eq(versions.id, version.id));
      expect(row?.downloadCount).toBe(2);
    });
  });

  it("gives the place back when nothing was delivered", async () => {
    const { link, version, url } = await limitedLink(1);
    const [row] = await t.database.db.select().from(versions).where(eq(versions.id, version.id));
    const stored = row?.fileKey as string;
    const backup = `${stored}-kept`;
    // The file is missing for a moment: the request fails before a byte goes out.
    const content = await t.platform.storage.read(stored);
    await t.platform.storage.put(backup, content);
    await t.platform.storage.delete(stored);
    expect((await t.app.inject({ url, remoteAddress: "10.40.0.1" })).statusCode).toBe(404);
    await eventually(async () => expect(await installsOf(link.id)).toBe(0));
    await t.platform.storage.put(stored, await t.platform.storage.read(backup));
    expect((await t.app.inject({ url, remoteAddress: "10.40.0.2" })).statusCode).toBe(200);
    expect(await installsOf(link.id)).toBe(1);
  });

  it("counts an iPhone's manifest reads and IPA fetch as one install", async () => {
    const { organization, owner } = await createOrganization(t);
    const { app } = await createIosBuild(t, organization.id);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/distributions/",
      headers: authHeader(owner.token),
      payload: { app: app.id, install_limit: 1 },
    });
    const link = created.json();
    const [build] = (await t.app.inject({ url: `/api/getapp/${link.key}/` })).json().builds;
    const manifestUrl = localPath(decodeURIComponent(build.install.url.split("url=")[1]));
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const manifest = await t.app.inject({ url: manifestUrl, headers: { "user-agent": iosInstaller } });
      expect(manifest.statusCode).toBe(200);
      if (attempt === 0) {
        const parsed = plist.parse(manifest.body) as unknown as {
          items: { assets: { kind: string; url: string }[] }[];
        };
        const ipa = parsed.items[0]?.assets.find((asset) => asset.kind === "software-package")?.url ?? "";
        expect(
          (await t.app.inject({ url: localPath(ipa), headers: { "user-agent": iosInstaller } })).statusCode,
        ).toBe(200);
      }
    }
    expect(await installsOf(link.id)).toBe(1);
    // A second iPhone finds the limit used up.
    const other = await t.app.inject({
      url: manifestUrl,
      headers: { "user-agent": iosInstaller },
      remoteAddress: "10.50.0.1",
    });
    expect(other.statusCode).toBe(410);
  });
});
