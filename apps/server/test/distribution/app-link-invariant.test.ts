import { readFileSync } from "node:fs";
import { and, count, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, uploadNewApp } from "../builds/upload-helpers.ts";
import { createApp } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { distributions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** Every app has its permanent install link from its creation on, so no read has to make one. */
describe("the app's permanent install link", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const linksOf = async (appId: number) => {
    const [row] = await t.database.db
      .select({ n: count() })
      .from(distributions)
      .where(and(eq(distributions.applicationId, appId), isNull(distributions.versionId)));
    return row?.n ?? 0;
  };

  it("is made with the app an upload creates, before anyone reads it", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await uploadNewApp(t, owner.token, organization.id, fixture("android/bare.apk"));
    expect(await linksOf(app.id)).toBe(1);
  });

  it("is only read by GETs: the app detail, the links list and the printed sheet", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const as = authHeader(owner.token);
    await t.database.db.delete(distributions).where(eq(distributions.applicationId, app.id));
    for (const url of [
      `/api/applications/${app.id}/?distribs=1`,
      `/api/distributions/?app=${app.id}`,
      `/api/applications/${app.id}/permanent_link_pdf/`,
    ]) {
      await t.app.inject({ url, headers: as });
    }
    expect(await linksOf(app.id)).toBe(0);
    const detail = await t.app.inject({ url: `/api/applications/${app.id}/?distribs=1`, headers: as });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().distribution).toEqual([]);
  });

  it("is made again when the app's last app-level link is deleted", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const as = authHeader(owner.token);
    const [link] = (await t.app.inject({ url: `/api/distributions/?app=${app.id}`, headers: as })).json()
      .results;
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/distributions/${link.id}/`,
      headers: as,
    });
    expect(removed.statusCode).toBe(204);
    const [next] = (await t.app.inject({ url: `/api/distributions/?app=${app.id}`, headers: as })).json()
      .results;
    expect(next.key).not.toBe(link.key);
    expect(next).toMatchObject({ app: app.id, version: null, access: "public" });
    expect(await linksOf(app.id)).toBe(1);
  });

  it("is given to apps made before it existed, by the migration", async () => {
    const { organization } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    await t.database.db.delete(distributions).where(eq(distributions.applicationId, app.id));
    const backfill = readFileSync(
      new URL("../../migrations/0032_app_links_for_every_app.sql", import.meta.url),
      "utf8",
    );
    await t.database.sql.executeSql(backfill);
    expect(await linksOf(app.id)).toBe(1);
  });
});
