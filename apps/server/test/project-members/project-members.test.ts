import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "../../src/modules/users/users.repo.ts";
import { addProjectMember, createApp, createVersion } from "../helpers/app-factories.ts";
import { authHeader, createUserWithToken } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { memberships, projectMembers, users } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe("project members", () => {
  let t: TestApp;
  let instanceAdmin: string;
  let org: Awaited<ReturnType<typeof createOrganization>>;
  let app: Awaited<ReturnType<typeof createApp>>;
  let admin: Awaited<ReturnType<typeof addMember>>;
  let manager: Awaited<ReturnType<typeof addMember>>;
  let mobile: Awaited<ReturnType<typeof addMember>>;
  let stranger: Awaited<ReturnType<typeof createOrganization>>;

  beforeAll(async () => {
    t = await createTestApp();
    instanceAdmin = (await createUserWithToken(t, { email: "admin@tarmac.test" })).token;
    org = await createOrganization(t, { title: "Acme" });
    app = await createApp(t, org.organization.id, { environment: "Production" });
    admin = await addMember(t, org.organization.id, 2);
    manager = await addMember(t, org.organization.id, 4);
    await addProjectMember(t, app.projectId, manager.user.id, { role: 4 });
    mobile = await addMember(t, org.organization.id, 3);
    stranger = await createOrganization(t);
  }, 60_000);
  afterAll(() => t.close());

  const as = (user: { token: string }) => authHeader(user.token);
  const list = (user: { token: string }, query = "") =>
    t.app.inject({ url: `/api/usersinproject/?project=${app.projectId}${query}`, headers: as(user) });

  it("adds an organization member to a project, lists, changes and removes them", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/api/usersinproject/",
      headers: as(org.owner),
      payload: {
        user: mobile.user.id,
        project: app.projectId,
        role: 3,
        is_access_all_envs: false,
        access_envs: ["Staging"],
      },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      user: mobile.user.id,
      project: app.projectId,
      role: 3,
      is_access_all_envs: false,
      access_envs: ["Staging"],
      email: mobile.user.email,
      first_name: "Test",
    });
    const id = created.json().id;
    const page = (await list(admin)).json();
    expect(page.count).toBe(2);
    expect(page.results.map((r: { user: number }) => r.user).sort()).toEqual(
      [manager.user.id, mobile.user.id].sort(),
    );
    const searched = (await list(admin, `&search=${encodeURIComponent(mobile.user.email)}`)).json();
    expect(searched.results.map((r: { id: number }) => r.id)).toEqual([id]);
    expect((await list(admin, "&page_size=1")).json().next).toContain("page=2");

    const updated = await t.app.inject({
      method: "PUT",
      url: `/api/usersinproject/${id}/`,
      headers: as(admin),
      payload: { role: 5, is_access_all_envs: true, access_envs: [] },
    });
    expect(updated.json()).toMatchObject({ id, role: 5, is_access_all_envs: true, access_envs: [] });
    const again = await t.app.inject({
      method: "POST",
      url: "/api/usersinproject/",
      headers: as(org.owner),
      payload: { user: mobile.user.id, project: app.projectId, role: 3 },
    });
    expect(again.statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: "DELETE", url: `/api/usersinproject/${id}/`, headers: as(admin) }))
        .statusCode,
    ).toBe(204);
    expect((await list(admin)).json().count).toBe(1);
  });

  it("accepts only members of the organization", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/usersinproject/",
      headers: as(org.owner),
      payload: { user: stranger.owner.user.id, project: app.projectId, role: 3 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toHaveProperty("user");
  });

  it("lets admins manage, team managers of the project read, others nothing", async () => {
    expect((await list(manager)).statusCode).toBe(200);
    const managerAdds = await t.app.inject({
      method: "POST",
      url: "/api/usersinproject/",
      headers: as(manager),
      payload: { user: mobile.user.id, project: app.projectId, role: 3 },
    });
    expect(managerAdds.statusCode).toBe(403);
    expect((await list(mobile)).statusCode).toBe(404);
    expect((await list(stranger.owner)).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/usersinproject/?project=${app.projectId}` })).statusCode).toBe(
      401,
    );
    const other = await createApp(t, stranger.organization.id);
    const foreign = await t.app.inject({
      method: "POST",
      url: "/api/usersinproject/",
      headers: as(org.owner),
      payload: { user: mobile.user.id, project: other.projectId, role: 3 },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it("resends the organization invitation of a pending member", async () => {
    const pending = await insertUser(t.database.db, {
      email: "pending.person@example.test",
      isActive: false,
    });
    await t.database.db
      .insert(memberships)
      .values({ organizationId: org.organization.id, userId: pending.id, role: 3 });
    const created = await t.app.inject({
      method: "POST",
      url: "/api/usersinproject/",
      headers: as(org.owner),
      payload: { user: pending.id, project: app.projectId, role: 3 },
    });
    expect(created.json()).toMatchObject({ is_pending: true });
    const resent = await list(org.owner, `&resend=1&user=${pending.id}`);
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual({ detail: expect.any(String) });
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
    const outbox = async () =>
      (
        await t.app.inject({
          url: "/api/admin/outbox/?to=pending.person@example.test",
          headers: authHeader(instanceAdmin),
        })
      ).json();
    const start = Date.now();
    while ((await outbox()).count === 0 && Date.now() - start < 15_000)
      await new Promise((r) => setTimeout(r, 100));
    expect((await outbox()).results[0].subject).toContain("Acme");
    expect((await list(org.owner, `&resend=1&user=${manager.user.id}`)).statusCode).toBe(400);
    expect((await list(manager, `&resend=1&user=${pending.id}`)).statusCode).toBe(403);
  });

  it("combines the organization's admins and the project's members", async () => {
    const response = await t.app.inject({
      url: `/api/applications/${app.id}/project_combined_users/?project=${app.projectId}`,
      headers: as(admin),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const byUser = new Map(body.results.map((r: { user: number }) => [r.user, r]));
    expect(byUser.get(org.owner.user.id)).toMatchObject({
      is_admin: true,
      org_role: 1,
      is_access_all_envs: true,
      id: null,
    });
    expect(byUser.get(admin.user.id)).toMatchObject({ is_admin: true, org_role: 2 });
    expect(byUser.get(manager.user.id)).toMatchObject({ is_admin: false, org_role: 4, role: 4 });
    expect(body.results.slice(0, 2).every((r: { is_admin: boolean }) => r.is_admin)).toBe(true);
    const paged = (
      await t.app.inject({
        url: `/api/applications/${app.id}/project_combined_users/?page_size=1`,
        headers: as(admin),
      })
    ).json();
    expect(paged).toMatchObject({ count: body.count, results: [expect.any(Object)] });
    expect(paged.next).toContain("page=2");
    const url = `/api/applications/${app.id}/project_combined_users/`;
    expect((await t.app.inject({ url, headers: as(manager) })).statusCode).toBe(200);
    expect((await t.app.inject({ url, headers: as(stranger.owner) })).statusCode).toBe(404);
  });

  it("shows changes to the combined list at the next request, though it is kept", async () => {
    const url = `/api/applications/${app.id}/project_combined_users/?page_size=100`;
    const entryOf = async (userId: number) => {
      const response = await t.app.inject({ url, headers: as(admin) });
      expect(response.statusCode).toBe(200);
      const results: Array<Record<string, unknown>> = response.json().results;
      return results.find((row) => row.user === userId);
    };
    const newcomer = await addMember(t, org.organization.id, 5);
    expect(await entryOf(newcomer.user.id)).toBeUndefined();
    await addProjectMember(t, app.projectId, newcomer.user.id, { role: 5 });
    expect(await entryOf(newcomer.user.id)).toMatchObject({ is_admin: false, org_role: 5, role: 5 });
    await t.database.db.update(users).set({ firstName: "Renée" }).where(eq(users.id, newcomer.user.id));
    expect(await entryOf(newcomer.user.id)).toMatchObject({ first_name: "Renée" });
    const projectMembership = (await entryOf(newcomer.user.id))?.id;
    await t.database.db
      .update(memberships)
      .set({ role: 2 })
      .where(
        and(eq(memberships.userId, newcomer.user.id), eq(memberships.organizationId, org.organization.id)),
      );
    expect(await entryOf(newcomer.user.id)).toMatchObject({
      id: projectMembership,
      is_admin: true,
      org_role: 2,
    });
    await t.database.db.delete(projectMembers).where(eq(projectMembers.userId, newcomer.user.id));
    expect(await entryOf(newcomer.user.id)).toMatchObject({ id: null, is_admin: true });
    await t.database.db
      .delete(memberships)
      .where(
        and(eq(memberships.userId, newcomer.user.id), eq(memberships.organizationId, org.organization.id)),
      );
    expect(await entryOf(newcomer.user.id)).toBeUndefined();
  });

  it("hides the builds of an environment the membership does not cover", async () => {
    const staging = await createApp(t, org.organization.id, {
      projectId: app.projectId,
      environment: "Staging",
    });
    const build = await createVersion(t, staging);
    const member = await addMember(t, org.organization.id, 3);
    await addProjectMember(t, app.projectId, member.user.id, { role: 3, envs: ["Production"] });
    const builds = await t.app.inject({
      url: `/api/applications/${staging.id}/builds/`,
      headers: as(member),
    });
    expect(builds.statusCode).toBe(404);
    const one = await t.app.inject({
      url: `/api/applications/${staging.id}/build/${build.id}/`,
      headers: as(member),
    });
    expect(one.statusCode).toBe(404);
    expect(
      (await t.app.inject({ url: `/api/applications/${app.id}/builds/`, headers: as(member) })).statusCode,
    ).toBe(200);
  });
});
