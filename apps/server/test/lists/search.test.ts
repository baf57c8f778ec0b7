import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SearchTermFolder } from "../../src/platform/db/text-search.ts";
import { addProjectMember, createApp, createProject, createVersion } from "../helpers/app-factories.ts";
import { authHeader, createUserWithToken } from "../helpers/factories.ts";
import { addMember, createOrganization, createTeam } from "../helpers/org-factories.ts";
import {
  projectMembers,
  projects,
  teamMembers,
  testerGroupMembers,
  testerGroups,
  testers,
  users,
} from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

// Searches match what people type: substrings of titles, bundle ids, names and addresses,
// whatever the case and accents, with % and _ taken literally.
describe("searching the lists", () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof createOrganization>>["owner"];
  let organizationId: number;
  const apps: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp();
    const created = await createOrganization(t);
    owner = created.owner;
    organizationId = created.organization.id;
    for (const [name, title, bundleId] of [
      ["cafe", "Café Crème", "com.example.coffee"],
      ["zurich", "Tram", "ch.zürich.tram"],
      ["percent", "100% Pure", "com.example.pure"],
      ["underscore", "snake_case", "com.example.snake"],
    ] as const) {
      const app = await createApp(t, organizationId, { title, projectTitle: title, bundleId });
      apps[name] = app.id;
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const get = async (url: string) => {
    const response = await t.app.inject({ url, headers: authHeader(owner.token) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { count: number; next: string | null; results: Array<Record<string, unknown>> };
  };
  const appIds = async (title: string) =>
    (await get(`/api/applications/?org=${organizationId}&title=${encodeURIComponent(title)}`)).results.map(
      (row) => row.id,
    );

  it("finds apps by title, bundle id or project title, folding case and accents", async () => {
    expect(await appIds("cafe creme")).toEqual([apps.cafe]);
    expect(await appIds("CAFÉ")).toEqual([apps.cafe]);
    expect(await appIds("zurich")).toEqual([apps.zurich]);
    expect(await appIds("com.example")).toEqual(
      expect.arrayContaining([apps.cafe, apps.percent, apps.underscore]),
    );
    expect(await appIds("100%")).toEqual([apps.percent]);
    expect(await appIds("e_c")).toEqual([apps.underscore]);
    expect(await appIds("nothing like it")).toEqual([]);
    // A renamed project is found by its new title at once (the catalog version moved).
    const [cafe] = await t.database.db
      .update(projects)
      .set({ title: "Morning Brew" })
      .where(eq(projects.title, "Café Crème"))
      .returning();
    expect(cafe).toBeDefined();
    expect(await appIds("morning")).toEqual([apps.cafe]);
  });

  it("folds search terms exactly as the database folds the texts", async () => {
    const folder = new SearchTermFolder(t.database.db);
    for (const term of ["Hello-World_100% OK", "CAFÉ Crème", "Straße", "ÆØÅ æøå", "Ñandú", "  x  "]) {
      const [row] = (await t.database.sql.executeSql("select search_fold($1) as folded", [term])).rows;
      expect(await folder.fold(term), term).toBe(row?.folded);
    }
  });

  it("answers a page past the end with no results and the true count", async () => {
    const page = await get(`/api/applications/?org=${organizationId}&page=50`);
    expect(page.count).toBe(4);
    expect(page.results).toEqual([]);
    expect(page.next).toBeNull();
    const searched = await get(`/api/applications/?org=${organizationId}&title=example&page=2&page_size=2`);
    expect(searched).toMatchObject({ count: 3, next: null });
    expect(searched.results).toHaveLength(1);
  });

  it("sees a new app in the list and its search right after it is added", async () => {
    expect(await appIds("velo")).toEqual([]);
    const velo = await createApp(t, organizationId, { title: "Vélo Libre", projectTitle: "Vélo Libre" });
    expect(await appIds("velo")).toEqual([velo.id]);
    expect((await get(`/api/applications/?org=${organizationId}`)).count).toBe(5);
  });

  it("finds staff, testers and teams by folded names and addresses", async () => {
    const jurgen = await createUserWithToken(t, { email: "j.mueller@example.com" });
    await t.database.db
      .update(users)
      .set({ firstName: "Jürgen", lastName: "Müller" })
      .where(eq(users.id, jurgen.user.id));
    await addMember(t, organizationId, 3, jurgen);
    await addMember(t, organizationId, 3);
    const staff = async (search: string) =>
      (await get(`/api/orgs-users/?org=${organizationId}&search=${encodeURIComponent(search)}`)).results.map(
        (row) => row.email,
      );
    expect(await staff("jurgen muller")).toEqual(["j.mueller@example.com"]);
    expect(await staff("MÜLLER")).toEqual(["j.mueller@example.com"]);
    expect(await staff("mueller@")).toEqual(["j.mueller@example.com"]);
    // Lists are kept per directory version: a renamed person is found by the new name at once.
    await t.database.db.update(users).set({ lastName: "Weiß" }).where(eq(users.id, jurgen.user.id));
    expect(await staff("muller")).toEqual([]);
    expect(await staff("jurgen weiss")).toEqual(["j.mueller@example.com"]);

    await t.database.db.insert(testers).values([
      { organizationId, applicationId: apps.cafe as number, email: "zoe@example.org", firstName: "Zoë" },
      { organizationId, applicationId: apps.cafe as number, email: "ann@example.org", firstName: "Ann" },
    ]);
    const testerEmails = async (search: string) =>
      (await get(`/api/testers/?app=${apps.cafe}&search=${encodeURIComponent(search)}`)).results.map(
        (row) => row.email,
      );
    expect(await testerEmails("ZOE")).toEqual(["zoe@example.org"]);
    expect(await testerEmails("example.org")).toEqual(["ann@example.org", "zoe@example.org"]);
    await t.database.db
      .insert(testers)
      .values({ organizationId, applicationId: apps.cafe as number, email: "bo@example.org" });
    expect(await testerEmails("example.org")).toEqual([
      "ann@example.org",
      "bo@example.org",
      "zoe@example.org",
    ]);

    await createTeam(t, organizationId, [], "Équipe Zürich");
    const teams = await get(`/api/teams/?org=${organizationId}&s=equipe zur`);
    expect(teams.results.map((row) => row.title)).toEqual(["Équipe Zürich"]);
  });

  it("finds a project's members and the people picker's by folded names, as they change", async () => {
    const { organization, owner: admin } = await createOrganization(t);
    const app = await createApp(t, organization.id, { title: "Picker", projectTitle: "Picker" });
    const person = async (email: string, firstName: string, lastName: string) => {
      const member = await createUserWithToken(t, { email });
      await t.database.db.update(users).set({ firstName, lastName }).where(eq(users.id, member.user.id));
      await addMember(t, organization.id, 3, member);
      return member.user.id;
    };
    const zoe = await person("zoe@picker.test", "Zoë", "Nørgaard");
    const ines = await person("ines@picker.test", "Inès", "Dubois");
    await addProjectMember(t, app.projectId, zoe);
    const asAdmin = async (url: string) => {
      const response = await t.app.inject({ url, headers: authHeader(admin.token) });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const members = async (search: string) =>
      (
        await asAdmin(`/api/usersinproject/?project=${app.projectId}&search=${encodeURIComponent(search)}`)
      ).results.map((row: { email: string; role: number }) => `${row.email} ${row.role}`);
    const picker = async (search: string) => {
      const found = await asAdmin(
        `/api/teams-users-search/?org=${organization.id}&s=${encodeURIComponent(search)}`,
      );
      return [
        ...found.teams.map((team: { title: string }) => team.title),
        ...found.users.map((user: { email: string }) => user.email),
      ];
    };

    expect(await members("zoe norgaard")).toEqual(["zoe@picker.test 3"]);
    expect(await members("NØRG")).toEqual(["zoe@picker.test 3"]);
    expect(await members("ines")).toEqual([]);
    expect(await picker("ines dub")).toEqual(["ines@picker.test"]);
    expect(await picker("picker.test")).toEqual(["ines@picker.test", "zoe@picker.test"]);

    // Lists are kept per directory version: what changes shows at the next request.
    await addProjectMember(t, app.projectId, ines, { role: 5 });
    expect(await members("picker.test")).toEqual(["ines@picker.test 5", "zoe@picker.test 3"]);
    await t.database.db.update(users).set({ lastName: "Weiß" }).where(eq(users.id, zoe));
    expect(await members("norgaard")).toEqual([]);
    expect(await members("zoe weiss")).toEqual(["zoe@picker.test 3"]);
    expect(await picker("weiss")).toEqual(["zoe@picker.test"]);
    await t.database.db.update(projectMembers).set({ role: 4 }).where(eq(projectMembers.userId, zoe));
    expect(await members("zoe")).toEqual(["zoe@picker.test 4"]);
    await t.database.db.delete(projectMembers).where(eq(projectMembers.userId, ines));
    expect(await members("picker.test")).toEqual(["zoe@picker.test 4"]);
    await createTeam(t, organization.id, [], "Équipe Weißwurst");
    expect(await picker("WEISS")).toEqual(["Équipe Weißwurst", "zoe@picker.test"]);
  });

  it("shows a tester's groups and a member's teams as they change, though pages are kept", async () => {
    const [tester] = await t.database.db
      .insert(testers)
      .values({ organizationId, applicationId: apps.zurich as number, email: "kept@example.org" })
      .returning();
    const testerGroupsOf = async () =>
      (await get(`/api/testers/?app=${apps.zurich}`)).results.find((row) => row.id === tester?.id)?.groups;
    expect(await testerGroupsOf()).toEqual([]);
    const [group] = await t.database.db
      .insert(testerGroups)
      .values({ organizationId, applicationId: apps.zurich as number, title: "Beta" })
      .returning();
    await t.database.db
      .insert(testerGroupMembers)
      .values({ groupId: group?.id as number, testerId: tester?.id as number });
    expect(await testerGroupsOf()).toEqual([group?.id]);

    const member = await addMember(t, organizationId, 3);
    const teamsOf = async () =>
      (await get(`/api/usersinorgs/?org=${organizationId}&page_size=100`)).results.find(
        (row) => row.userid === member.user.id,
      )?.teams;
    expect(await teamsOf()).toEqual([]);
    const team = await createTeam(t, organizationId, [member.user.id], "Kept team");
    expect(await teamsOf()).toEqual([team.id]);
    await t.database.db.delete(teamMembers).where(eq(teamMembers.teamId, team.id));
    expect(await teamsOf()).toEqual([]);
  });

  it("shows each app's current build and who uploaded it in the list", async () => {
    await createVersion(
      t,
      { id: apps.underscore as number, organizationId },
      {
        version: "2.0.0",
        uploadedBy: owner.user.id,
      },
    );
    const [record] = (await get(`/api/applications/?org=${organizationId}&title=snake_case`))
      .results as Array<{
      new_version: string;
      current_version: { version: string; uploaded_by: { id: number; email: string } | null } | null;
    }>;
    expect(record?.new_version).toBe("2.0.0");
    expect(record?.current_version?.version).toBe("2.0.0");
    expect(record?.current_version?.uploaded_by).toMatchObject({
      id: owner.user.id,
      email: owner.user.email,
    });
    const [without] = (await get(`/api/applications/?org=${organizationId}&title=100%25`)).results;
    expect(without?.current_version ?? null).toBeNull();
  });

  it("shows each app's project in the list: its title, first app, members and other platforms", async () => {
    const project = await createProject(t, organizationId, "Shared Kiwi");
    const android = await createApp(t, organizationId, {
      projectId: project.id,
      appType: 0,
      title: "Kiwi A",
    });
    await createApp(t, organizationId, { projectId: project.id, appType: 1, title: "Kiwi I" });
    await addProjectMember(t, project.id, owner.user.id, { role: 1 });
    const [record] = (await get(`/api/applications/?org=${organizationId}&title=kiwi i`)).results as Array<{
      project_title: string;
      base_app: number;
      users: number[];
      other_platform: Array<{ id: number }>;
    }>;
    expect(record).toMatchObject({
      project_title: "Shared Kiwi",
      base_app: android.id,
      users: [owner.user.id],
    });
    expect(record?.other_platform.map((link) => link.id)).toEqual([android.id]);
  });
});
