import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addProjectMember, createApp, createProject, createVersion } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { projectMembers, versions } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** Cached list pages must never outlive a change, whatever code path or instance made it. */
describe("cached list pages", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const titles = (body: { results: { title: string }[] }) => body.results.map((row) => row.title);

  it("reflect app and version changes at once, including writes made straight in the database", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id, { title: "Before" });
    const version = await createVersion(t, app);
    const url = `/api/applications/?org=${organization.id}`;
    const read = async () => (await t.app.inject({ url, headers: authHeader(owner.token) })).json();
    expect(titles(await read())).toEqual(["Before"]);
    expect(await read()).toEqual(await read());

    const renamed = await t.app.inject({
      method: "PATCH",
      url: `/api/applications/${app.id}/`,
      headers: authHeader(owner.token),
      payload: { title: "After" },
    });
    expect(renamed.statusCode).toBe(200);
    expect(titles(await read())).toEqual(["After"]);

    // Another instance (or a job) changing a version: the trigger moves the catalog version.
    await t.database.db.update(versions).set({ whatsNew: "fresh notes" }).where(eq(versions.id, version.id));
    expect((await read()).results[0].current_version.whats_new).toBe("fresh notes");

    const builds = `/api/applications/${app.id}/builds/`;
    const readBuilds = async () =>
      (await t.app.inject({ url: builds, headers: authHeader(owner.token) })).json();
    expect((await readBuilds()).count).toBe(1);
    await createVersion(t, app, { version: "9.9.9" });
    expect((await readBuilds()).count).toBe(2);
  });

  it("reflect a member's project access at once", async () => {
    const { organization } = await createOrganization(t);
    const project = await createProject(t, organization.id);
    await createApp(t, organization.id, { projectId: project.id, title: "Shared" });
    const tester = await addMember(t, organization.id, 5);
    const url = `/api/applications/?org=${organization.id}`;
    const read = async () => (await t.app.inject({ url, headers: authHeader(tester.token) })).json();
    expect(titles(await read())).toEqual([]);
    await addProjectMember(t, project.id, tester.user.id, { role: 5 });
    expect(titles(await read())).toEqual(["Shared"]);
    await t.database.db.delete(projectMembers).where(eq(projectMembers.userId, tester.user.id));
    expect(titles(await read())).toEqual([]);
  });

  // An app with few builds has its list read whole; one with many (its counter says so) a page
  // with the list's ids. Both must answer alike.
  it.each([
    ["read whole", 5],
    ["read a page with its list", 1_000],
  ])(
    "page an app's builds whichever page is read first (%s), with uploaders and the viewer's count",
    async (_, counted) => {
      const { organization, owner } = await createOrganization(t);
      const tester = await addMember(t, organization.id, 5);
      const project = await createProject(t, organization.id);
      await addProjectMember(t, project.id, tester.user.id, { role: 5 });
      const app = await createApp(t, organization.id, { projectId: project.id });
      const made: Array<{ id: number }> = [];
      for (let n = 1; n <= 5; n += 1) {
        made.push(
          await createVersion(t, app, {
            version: `1.${n}`,
            readyToSale: n !== 4,
            uploadedBy: owner.user.id,
          }),
        );
      }
      await t.database.sql.executeSql("update applications set versions_count = $1 where id = $2", [
        counted,
        app.id,
      ]);
      const newestFirst = made.map((row) => row.id).reverse();
      const page = async (token: string, number: number) =>
        (
          await t.app.inject({
            url: `/api/applications/${app.id}/builds/?page=${number}&page_size=2`,
            headers: authHeader(token),
          })
        ).json();
      const ids = (body: { results: { id: number }[] }) => body.results.map((row) => row.id);
      // The second page first, while the list is not kept; then the first, read from the kept list.
      const second = await page(owner.token, 2);
      expect(second.count).toBe(5);
      expect(ids(second)).toEqual(newestFirst.slice(2, 4));
      expect(second.results[0].uploaded_by).toMatchObject({ id: owner.user.id, email: owner.user.email });
      expect(ids(await page(owner.token, 1))).toEqual(newestFirst.slice(0, 2));
      const past = await page(owner.token, 9);
      expect(past).toMatchObject({ count: 5, results: [] });
      // A tester's list holds released builds only, past the end included.
      const released = newestFirst.filter((id) => id !== made[3]?.id);
      expect(await page(tester.token, 9)).toMatchObject({ count: 4, results: [] });
      const testerFirst = await page(tester.token, 1);
      expect(testerFirst.count).toBe(4);
      expect(ids(testerFirst)).toEqual(released.slice(0, 2));
      expect(ids(await page(tester.token, 2))).toEqual(released.slice(2, 4));
    },
  );
});
