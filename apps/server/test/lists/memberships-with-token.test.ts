import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addProjectMember, createApp, createVersion } from "../helpers/app-factories.ts";
import { authHeader, createUserWithToken } from "../helpers/factories.ts";
import { addMember, createOrganization, createTeam } from "../helpers/org-factories.ts";
import { memberships, organizations } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/** Every statement the app runs, as drizzle hands it to the database. */
const statements: string[] = [];

// A read-only request checks the caller's organization against the memberships read with its
// token, in the token's own statement: each request still sees every change made before it.
describe("memberships read with the token", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({}, undefined, undefined, { logQuery: (query) => statements.push(query) });
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string, token: string) => t.app.inject({ url, headers: authHeader(token) });
  const statementsOf = async (url: string, token: string) => {
    statements.length = 0;
    const response = await get(url, token);
    expect(response.statusCode, response.body).toBe(200);
    return statements.length;
  };

  it("sees a membership removed, a role changed and an organization being deleted at once", async () => {
    const { organization } = await createOrganization(t);
    const admin = await addMember(t, organization.id, 2);
    const app = await createApp(t, organization.id, { title: "Watched" });
    const list = `/api/applications/?org=${organization.id}`;
    expect((await get(list, admin.token)).json().results.map((row: { id: number }) => row.id)).toEqual([
      app.id,
    ]);

    // A tester sees only the apps of their projects: none here.
    await t.database.db.update(memberships).set({ role: 5 }).where(eq(memberships.id, admin.membershipId));
    expect((await get(list, admin.token)).json().count).toBe(0);

    await t.database.db.delete(memberships).where(eq(memberships.id, admin.membershipId));
    expect((await get(list, admin.token)).statusCode).toBe(404);
    expect((await get(`/api/applications/${app.id}/builds/`, admin.token)).statusCode).toBe(404);
    expect((await get(`/api/teams/?org=${organization.id}`, admin.token)).statusCode).toBe(404);

    const { owner } = await createOrganization(t);
    await addMember(t, organization.id, 1, owner);
    expect((await get(list, owner.token)).statusCode).toBe(200);
    await t.database.db
      .update(organizations)
      .set({ deletingAt: new Date() })
      .where(eq(organizations.id, organization.id));
    expect((await get(list, owner.token)).statusCode).toBe(404);
  });

  it("sees a new build at once: the organization's catalog version comes with the token", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const builds = `/api/applications/${app.id}/builds/`;
    expect((await get(builds, owner.token)).json().count).toBe(0);
    await createVersion(t, app);
    expect((await get(builds, owner.token)).json().count).toBe(1);
  });

  it("checks each membership of someone in more organizations than the token carries", async () => {
    const person = await createUserWithToken(t);
    const joined: number[] = [];
    for (let index = 0; index < 52; index += 1) {
      joined.push((await createOrganization(t, { owner: person })).organization.id);
    }
    const last = joined.at(-1) as number;
    const app = await createApp(t, last, { title: "Far away" });
    const listed = await get(`/api/applications/?org=${last}`, person.token);
    expect(listed.json().results.map((row: { id: number }) => row.id)).toEqual([app.id]);
    await createTeam(t, last, [person.user.id], "Far team");
    expect((await get(`/api/teams/?org=${last}`, person.token)).json().count).toBe(1);

    const { organization: other } = await createOrganization(t);
    expect((await get(`/api/applications/?org=${other.id}`, person.token)).statusCode).toBe(404);
  });

  it("answers a page seen before with the token's statement alone", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    await createVersion(t, app);
    await createTeam(t, organization.id, [owner.user.id]);
    // The embedded database keeps identities in the process (see IdentityCache): it reads nothing.
    // (Its first request also notes when the token was last used, which tells that cache.)
    const perRequest = t.database.kind === "postgres" ? 1 : 0;
    await statementsOf("/api/health/", owner.token);
    for (const url of [
      `/api/applications/?org=${organization.id}`,
      `/api/teams/?org=${organization.id}`,
      `/api/orgs-users/?org=${organization.id}&search=a`,
      `/api/usersinorgs/?org=${organization.id}`,
    ]) {
      await statementsOf(url, owner.token);
      expect(await statementsOf(url, owner.token), `${url}: ${statements.join("\n")}`).toBe(perRequest);
    }
    // The builds page keeps the app's row per catalog version too.
    const builds = `/api/applications/${app.id}/builds/`;
    await statementsOf(builds, owner.token);
    expect(await statementsOf(builds, owner.token)).toBe(perRequest);
  });

  it("reads an app not seen before with its short builds list in one statement, as the caller's role lists it", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id);
    const uploader = await addMember(t, organization.id, 2);
    const released = await createVersion(t, app, { uploadedBy: uploader.user.id });
    const unreleased = await createVersion(t, app, { readyToSale: false });
    const tester = await addMember(t, organization.id, 5);
    await addProjectMember(t, app.projectId, tester.user.id);
    const perRequest = t.database.kind === "postgres" ? 1 : 0;
    const buildsOf = (id: number) => `/api/applications/${id}/builds/`;
    const idsOf = async (id: number, token: string) =>
      (await get(buildsOf(id), token)).json().results.map((row: { id: number }) => row.id);
    /** The statements of a first request for the app's builds that read builds. */
    const buildReads = async (id: number, token: string) => {
      // Two checks keep the token on the embedded database (the first notes its use, which
      // tells that cache of a change).
      await statementsOf("/api/health/", token);
      await statementsOf("/api/health/", token);
      const all = await statementsOf(buildsOf(id), token);
      return { all, builds: statements.filter((text) => text.includes('from "versions"')) };
    };

    // A tester first: the statement lists only released builds for them.
    const testerReads = await buildReads(app.id, tester.token);
    expect(testerReads.builds, statements.join("\n")).toHaveLength(1);
    expect(testerReads.builds[0]).toMatch(/json_agg/);
    expect(await idsOf(app.id, tester.token)).toEqual([released.id]);
    const shown = (await get(buildsOf(app.id), tester.token)).json().results[0];
    expect(shown.uploaded_by).toMatchObject({ id: uploader.user.id, email: uploader.user.email });

    // The owner, on another app not seen before: every build, newest first, and nothing else read.
    const other = await createApp(t, organization.id);
    const first = await createVersion(t, other);
    const second = await createVersion(t, other, { state: "processing", readyToSale: false });
    const ownerReads = await buildReads(other.id, owner.token);
    expect(ownerReads.all, statements.join("\n")).toBe(perRequest + 1);
    expect(await idsOf(other.id, owner.token)).toEqual([second.id, first.id]);
    expect(await idsOf(app.id, owner.token)).toEqual([unreleased.id, released.id]);

    // An app with more than 50 builds (by its kept counter) has its page read on its own.
    const long = await createApp(t, organization.id);
    const only = await createVersion(t, long);
    await t.database.sql.executeSql("update applications set versions_count = 51 where id = $1", [long.id]);
    const longReads = await buildReads(long.id, owner.token);
    expect(longReads.builds, statements.join("\n")).toHaveLength(2);
    expect((await get(buildsOf(long.id), owner.token)).json()).toMatchObject({
      count: 1,
      results: [{ id: only.id }],
    });

    // Someone outside the organization learns nothing from the statement that read the builds.
    const { owner: stranger } = await createOrganization(t);
    expect((await get(buildsOf(app.id), stranger.token)).statusCode).toBe(404);
  });

  it("reads the apps of builds pages asked together in one statement per role, each as its role lists it", async () => {
    const { organization, owner } = await createOrganization(t);
    const tester = await addMember(t, organization.id, 5);
    const apps = [await createApp(t, organization.id), await createApp(t, organization.id)];
    const testersApp = await createApp(t, organization.id);
    await addProjectMember(t, testersApp.projectId, tester.user.id);
    const released = await createVersion(t, testersApp);
    await createVersion(t, testersApp, { readyToSale: false });
    const builds = await Promise.all(apps.map((app) => createVersion(t, app)));
    const callerOf = async (token: string) => {
      const resolved = await t.services.tokens.resolve(token);
      if (!resolved) throw new Error("the token did not resolve");
      return resolved;
    };
    const [ownerCaller, testerCaller] = await Promise.all([callerOf(owner.token), callerOf(tester.token)]);
    statements.length = 0;
    const page = { page: 1, pageSize: 20, offset: 0 };
    const render = (listed: { count: number; results: string[] }) =>
      Buffer.from(`[${listed.results.join(",")}]`);
    const ids = (json: Buffer) => JSON.parse(json.toString()).map((row: { id: number }) => row.id);
    const pages = await Promise.all([
      ...apps.map((app) =>
        t.services.applicationQueries.listBuildsJson(ownerCaller, app.id, page, `${app.id}`, render),
      ),
      t.services.applicationQueries.listBuildsJson(testerCaller, testersApp.id, page, "tester", render),
    ]);
    expect(pages.map(ids)).toEqual([[builds[0]?.id], [builds[1]?.id], [released.id]]);
    // The owner's two apps in one statement; the tester's, whose role lists other builds, in another.
    const reads = statements.filter((text) => text.includes("json_agg") && text.includes('from "versions"'));
    expect(reads, statements.join("\n")).toHaveLength(2);
  });

  it("reads a kept app again once its catalog version moved, whoever changed it", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id, { title: "Kept" });
    await createVersion(t, app);
    const builds = `/api/applications/${app.id}/builds/`;
    const titleShown = async () => (await get(builds, owner.token)).json().results[0].title;
    expect(await titleShown()).toBe("Kept");
    // Straight in the database, as another process or a job would: the trigger moves the version.
    await t.database.sql.executeSql("update applications set title = 'Renamed' where id = $1", [app.id]);
    expect(await titleShown()).toBe("Renamed");
    await t.database.sql.executeSql("delete from applications where id = $1", [app.id]);
    expect((await get(builds, owner.token)).statusCode).toBe(404);
  });

  it("reads the next page ahead for someone paging on, and only the page asked for after a jump", async () => {
    const { organization, owner } = await createOrganization(t);
    for (let n = 0; n < 60; n += 1) await createApp(t, organization.id, { title: `Paged ${n}` });
    // Statements that read list records: apps with their current builds.
    const recordReads = async (page: number) => {
      await statementsOf(`/api/applications/?org=${organization.id}&page=${page}&page_size=10`, owner.token);
      return statements.filter((text) =>
        /left join "versions" on "versions"\."id" = "applications"\."current_version_id"/.test(text),
      ).length;
    };
    expect(await recordReads(1)).toBe(1);
    expect(await recordReads(2)).toBe(0); // read ahead with the first page
    expect(await recordReads(4)).toBe(1); // a jump: page 5 is not read with it
    expect(await recordReads(5)).toBe(1); // paging on from page 4: page 6 comes along
    expect(await recordReads(6)).toBe(0);
  });
  it("reads the tokens of requests that arrive together in one statement, each checked on its own", async () => {
    const { organization, owner } = await createOrganization(t);
    const members = [owner, await addMember(t, organization.id, 2), await addMember(t, organization.id, 5)];
    const revoked = await addMember(t, organization.id, 2);
    await t.services.tokens.revoke(revoked.tokenId);
    const stranger = await createUserWithToken(t);
    const people = [...members, revoked, stranger];
    statements.length = 0;
    const resolved = await Promise.all(people.map((person) => t.services.tokens.resolve(person.token)));
    expect(resolved.map((token) => token?.userId ?? null)).toEqual([
      ...members.map((member) => member.user.id),
      null,
      stranger.user.id,
    ]);
    // One read of all five (each request then marks its token used, once a minute).
    const reads = statements.filter((text) => text.startsWith("select") && text.includes('"auth_tokens"'));
    expect(reads).toHaveLength(1);
    expect(resolved[1]?.memberships?.map((membership) => membership.role)).toEqual([2]);

    // Over HTTP, each request gets its own answer whichever requests arrive with it.
    const list = `/api/applications/?org=${organization.id}`;
    const responses = await Promise.all([...people, owner].map((person) => get(list, person.token)));
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 401, 404, 200]);
    // A token revoked after it was read is refused to the next request.
    await t.services.tokens.revoke(members[1]?.tokenId as number);
    expect((await get(list, members[1]?.token as string)).statusCode).toBe(401);
  });
});
