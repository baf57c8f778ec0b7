import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addProjectMember, createApp, createProject, createVersion } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { applications, organizations, projects } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe("applications over HTTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("lists the organization's apps newest activity first, with search, type filter and pages", async () => {
    const { organization, owner } = await createOrganization(t);
    const alpha = await createApp(t, organization.id, {
      projectTitle: "Alpha Maps",
      title: "Alpha",
      appType: 0,
    });
    const beta = await createApp(t, organization.id, { projectTitle: "Beta", title: "Beta iOS", appType: 1 });
    await createVersion(t, alpha);
    const list = await t.app.inject({ url: "/api/applications/", headers: authHeader(owner.token) });
    expect(list.statusCode).toBe(200);
    expect(list.json().results.map((row: { id: number }) => row.id)).toEqual([alpha.id, beta.id]);

    const search = await t.app.inject({
      url: `/api/applications/?org=${organization.id}&title=MAPS`,
      headers: authHeader(owner.token),
    });
    expect(search.json().results.map((row: { id: number }) => row.id)).toEqual([alpha.id]);
    const typed = await t.app.inject({
      url: "/api/applications/?mobile_type=1",
      headers: authHeader(owner.token),
    });
    expect(typed.json().results.map((row: { id: number }) => row.id)).toEqual([beta.id]);
    const paged = await t.app.inject({
      url: "/api/applications/?page_size=1&page=2",
      headers: authHeader(owner.token),
    });
    expect(paged.json()).toMatchObject({ count: 2, results: [{ id: beta.id }] });
    expect(paged.json().previous).toContain("page_size=1");
  });

  it("shows members only their projects' apps in their environments; the install list needs a released build", async () => {
    const { organization, owner } = await createOrganization(t);
    const project = await createProject(t, organization.id);
    const prod = await createApp(t, organization.id, { projectId: project.id });
    const staging = await createApp(t, organization.id, { projectId: project.id, environment: "Staging" });
    const unreleased = await createApp(t, organization.id, { projectId: project.id, appType: 1 });
    await createApp(t, organization.id);
    await createVersion(t, prod);
    await createVersion(t, staging);
    await createVersion(t, unreleased, { readyToSale: false });
    const tester = await addMember(t, organization.id, 5);
    await addProjectMember(t, project.id, tester.user.id, { role: 5, envs: ["Production"] });

    const ids = async (url: string, token: string) =>
      (await t.app.inject({ url, headers: authHeader(token) }))
        .json()
        .results.map((row: { id: number }) => row.id);
    expect((await ids("/api/applications/", tester.token)).sort()).toEqual([prod.id, unreleased.id].sort());
    expect(await ids("/api/m/applications/", tester.token)).toEqual([prod.id]);
    expect(await ids("/api/m/applications/", owner.token)).toEqual([unreleased.id, staging.id, prod.id]);
  });

  it("answers every method of the mobile area for apps the caller may install, 404 for others", async () => {
    const { organization, owner } = await createOrganization(t);
    const project = await createProject(t, organization.id);
    const released = await createApp(t, organization.id, { projectId: project.id });
    const unreleased = await createApp(t, organization.id, { projectId: project.id, appType: 1 });
    const empty = await createApp(t, organization.id, { projectId: project.id, appType: 2 });
    await createVersion(t, released);
    await createVersion(t, unreleased, { readyToSale: false });
    const tester = await addMember(t, organization.id, 5);
    await addProjectMember(t, project.id, tester.user.id, { role: 5 });
    const call = (method: "GET" | "PATCH" | "DELETE", url: string, token: string, payload?: object) =>
      t.app.inject({ method, url, headers: authHeader(token), ...(payload ? { payload } : {}) });

    const one = await call("GET", `/api/m/applications/${released.id}/?builds=1`, tester.token);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: released.id, builds: { count: 1 } });
    // An unreleased build is not installable for a tester; an app without builds for no one.
    expect((await call("GET", `/api/m/applications/${unreleased.id}/`, tester.token)).statusCode).toBe(404);
    expect((await call("GET", `/api/applications/${unreleased.id}/`, tester.token)).statusCode).toBe(200);
    expect((await call("GET", `/api/m/applications/${unreleased.id}/`, owner.token)).statusCode).toBe(200);
    expect((await call("GET", `/api/m/applications/${empty.id}/`, owner.token)).statusCode).toBe(404);
    // Writes keep the app rules: a tester may not change the app, the owner may.
    const byTester = await call("PATCH", `/api/m/applications/${released.id}/`, tester.token, { title: "X" });
    expect(byTester.statusCode).toBe(403);
    const renamed = await call("PATCH", `/api/m/applications/${released.id}/`, owner.token, {
      title: "Renamed",
    });
    expect(renamed.json()).toMatchObject({ title: "Renamed" });
    expect((await call("DELETE", `/api/m/applications/${empty.id}/`, owner.token)).statusCode).toBe(404);
    expect((await call("DELETE", `/api/m/applications/${released.id}/`, owner.token)).statusCode).toBe(204);
  });

  it("returns one app with builds and environments, and the caller's role", async () => {
    const { organization, owner } = await createOrganization(t);
    const project = await createProject(t, organization.id);
    const app = await createApp(t, organization.id, { projectId: project.id });
    const staging = await createApp(t, organization.id, { projectId: project.id, environment: "Staging" });
    const v1 = await createVersion(t, app);
    const v2 = await createVersion(t, app);
    const res = await t.app.inject({
      url: `/api/applications/${app.id}/?builds=1&showenvall=1`,
      headers: authHeader(owner.token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().builds.results.map((row: { id: number }) => row.id)).toEqual([v2.id, v1.id]);
    expect(res.json().environments.map((row: { id: number }) => row.id)).toEqual([app.id, staging.id]);

    const builds = await t.app.inject({
      url: `/api/applications/${app.id}/builds/`,
      headers: authHeader(owner.token),
    });
    expect(builds.json().count).toBe(2);
    const build = await t.app.inject({
      url: `/api/applications/${app.id}/build/${v1.id}/`,
      headers: authHeader(owner.token),
    });
    expect(build.json()).toMatchObject({ id: v1.id, app: app.id });
    const foreign = await t.app.inject({
      url: `/api/applications/${staging.id}/build/${v1.id}/`,
      headers: authHeader(owner.token),
    });
    expect(foreign.statusCode).toBe(404);

    const manager = await addMember(t, organization.id, 4);
    await addProjectMember(t, project.id, manager.user.id, { role: 4 });
    const role = await t.app.inject({
      url: `/api/applications/${app.id}/check_my_role/`,
      headers: authHeader(manager.token),
    });
    expect(role.json()).toEqual({
      role: 4,
      project_role: 4,
      can_upload: true,
      can_edit: false,
      can_delete: false,
      can_download: true,
    });
  });

  it("updates an app, renames the project, seals the webhook and rotates the key", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id, { projectTitle: "Old" });
    const res = await t.app.inject({
      method: "PATCH",
      url: `/api/applications/${app.id}/`,
      headers: authHeader(owner.token),
      payload: { project_title: "  New Name ", description: "d", slack_webhook: "https://hooks.example/x" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      project_title: "New Name",
      description: "d",
      tag_name: "new_name_android",
    });
    expect(res.json().slack_webhook).toBe("https://hooks.example/x");
    const [stored] = await t.database.db.select().from(applications).where(eq(applications.id, app.id));
    expect(stored?.slackWebhookSealed).not.toContain("hooks.example");

    const member = await addMember(t, organization.id, 3);
    const project = await t.database.db.select().from(projects).where(eq(projects.id, app.projectId));
    await addProjectMember(t, project[0]?.id ?? 0, member.user.id);
    const seen = await t.app.inject({
      url: `/api/applications/${app.id}/`,
      headers: authHeader(member.token),
    });
    expect(seen.json().slack_webhook).toBe("");
    const denied = await t.app.inject({
      method: "PUT",
      url: `/api/applications/${app.id}/`,
      headers: authHeader(member.token),
      payload: { title: "x" },
    });
    expect(denied.statusCode).toBe(403);

    const rotated = await t.app.inject({
      method: "PUT",
      url: `/api/applications/${app.id}/?newappkey=1`,
      headers: authHeader(owner.token),
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(rotated.json().app_key).not.toBe(app.appKey);
    const logs = await t.app.inject({ url: `/api/app-logs/${app.id}/`, headers: authHeader(owner.token) });
    expect(logs.json().results.map((row: { action: string }) => row.action)).toEqual([
      "app.key_rotated",
      "app.updated",
    ]);
  });

  it("refuses a second app of the platform in one environment", async () => {
    const { organization, owner } = await createOrganization(t);
    const project = await createProject(t, organization.id);
    const app = await createApp(t, organization.id, { projectId: project.id });
    await createApp(t, organization.id, { projectId: project.id, environment: "Staging" });
    const res = await t.app.inject({
      method: "PATCH",
      url: `/api/applications/${app.id}/`,
      headers: authHeader(owner.token),
      payload: { environment: "Staging" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty("environment");
  });

  it("deletes an app, or with ?all=1 the project, giving back space and counts", async () => {
    const { organization, owner } = await createOrganization(t);
    const project = await createProject(t, organization.id);
    const first = await createApp(t, organization.id, { projectId: project.id });
    const second = await createApp(t, organization.id, { projectId: project.id, appType: 1 });
    const kept = await createApp(t, organization.id);
    const gone = await createVersion(t, first);
    await createVersion(t, second);
    await createVersion(t, kept);
    const usage = async () =>
      (await t.database.db.select().from(organizations).where(eq(organizations.id, organization.id)))[0];
    const before = await usage();

    const one = await t.app.inject({
      method: "DELETE",
      url: `/api/applications/${first.id}/`,
      headers: authHeader(owner.token),
    });
    expect(one.statusCode).toBe(204);
    expect(await usage()).toMatchObject({
      buildsCount: (before?.buildsCount ?? 0) - 1,
      spaceUsedBytes: (before?.spaceUsedBytes ?? 0) - gone.fileSize,
      projectsCount: before?.projectsCount,
    });
    const all = await t.app.inject({
      method: "DELETE",
      url: `/api/applications/${second.id}/?all=true`,
      headers: authHeader(owner.token),
    });
    expect(all.statusCode).toBe(204);
    expect(await usage()).toMatchObject({ buildsCount: 1, projectsCount: 1 });
    expect(await t.database.db.select().from(projects).where(eq(projects.id, project.id))).toHaveLength(0);
    const missing = await t.app.inject({
      url: `/api/applications/${second.id}/`,
      headers: authHeader(owner.token),
    });
    expect(missing.statusCode).toBe(404);
  });
});
