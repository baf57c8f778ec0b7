/**
 * Permission groups: Updraft's "Distribution group and Permission group API" requests
 * (POST /api/groupsinorgs/, POST /api/useringrouporg/) and what a group grants.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addProjectMember, createApp, createProject, createVersion } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const call = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: authHeader(token), ...(payload ? { payload } : {}) });

async function world() {
  const { organization, owner } = await createOrganization(t);
  const project = await createProject(t, organization.id);
  const production = await createApp(t, organization.id, { projectId: project.id });
  const staging = await createApp(t, organization.id, { projectId: project.id, environment: "Staging" });
  await createVersion(t, production);
  await createVersion(t, staging);
  const tester = await addMember(t, organization.id, 5);
  return { organization, owner, project, production, staging, tester };
}

const visibleApps = async (token: string, organizationId: number) =>
  (await call("GET", `/api/applications/?org=${organizationId}`, token))
    .json()
    .results.map((row: { id: number }) => row.id);

describe("permission groups", () => {
  it("answers the documented requests with the documented fields", async () => {
    const { organization, owner, tester } = await world();
    const created = await call("POST", "/api/groupsinorgs/", owner.token, {
      title: "Developers",
      organization: organization.id,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      id: expect.any(Number),
      title: "Developers",
      organization: organization.id,
      members: 0,
      projects: [],
    });
    const added = await call("POST", "/api/useringrouporg/", owner.token, {
      user: tester.user.id,
      groups: [created.json().id],
    });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ user: tester.user.id, groups: [created.json().id] });
    const list = await call("GET", `/api/groupsinorgs/?org=${organization.id}`, owner.token);
    expect(list.json()).toMatchObject({ count: 1, results: [{ members: 1, users: [tester.user.id] }] });
    const own = await call("GET", `/api/useringrouporg/?user=${tester.user.id}`, tester.token);
    expect(own.json()).toEqual({ user: tester.user.id, groups: [created.json().id] });
  });

  it("grants its members the projects in every environment, and stops when they leave the group", async () => {
    const { organization, owner, project, production, staging, tester } = await world();
    // The tester's own membership covers production only.
    await addProjectMember(t, project.id, tester.user.id, { role: 5, envs: ["Production"] });
    expect(await visibleApps(tester.token, organization.id)).toEqual([production.id]);
    expect((await call("GET", `/api/applications/${staging.id}/`, tester.token)).statusCode).toBe(404);

    const group = (
      await call("POST", "/api/groupsinorgs/", owner.token, {
        title: "QA",
        organization: organization.id,
        projects: [project.id],
        users: [tester.user.id],
      })
    ).json();
    expect((await visibleApps(tester.token, organization.id)).sort()).toEqual(
      [production.id, staging.id].sort(),
    );
    expect((await call("GET", `/api/applications/${staging.id}/`, tester.token)).statusCode).toBe(200);

    await call("PATCH", `/api/groupsinorgs/${group.id}/`, owner.token, { users: [] });
    expect(await visibleApps(tester.token, organization.id)).toEqual([production.id]);
    await call("PATCH", `/api/groupsinorgs/${group.id}/`, owner.token, { users: [tester.user.id] });
    expect((await visibleApps(tester.token, organization.id)).length).toBe(2);
    expect((await call("DELETE", `/api/groupsinorgs/${group.id}/`, owner.token)).statusCode).toBe(204);
    expect(await visibleApps(tester.token, organization.id)).toEqual([production.id]);
  });

  it("is managed by owners and admins only, inside their organization, with clear errors", async () => {
    const { organization, owner, project, tester } = await world();
    const group = (
      await call("POST", "/api/groupsinorgs/", owner.token, { title: "Ops", organization: organization.id })
    ).json();
    expect((await call("GET", `/api/groupsinorgs/?org=${organization.id}`, tester.token)).statusCode).toBe(
      403,
    );
    expect(
      (
        await call("POST", "/api/groupsinorgs/", tester.token, {
          title: "Mine",
          organization: organization.id,
        })
      ).statusCode,
    ).toBe(403);
    const duplicate = await call("POST", "/api/groupsinorgs/", owner.token, {
      title: "ops",
      organization: organization.id,
    });
    expect(duplicate.json()).toEqual({ title: ["A group with this title already exists."] });

    const other = await createOrganization(t);
    const foreignProject = await createProject(t, other.organization.id);
    expect(
      (
        await call("PATCH", `/api/groupsinorgs/${group.id}/`, owner.token, { projects: [foreignProject.id] })
      ).json(),
    ).toEqual({ projects: ["Every project must belong to the organization."] });
    expect(
      (
        await call("PATCH", `/api/groupsinorgs/${group.id}/`, owner.token, { users: [other.owner.user.id] })
      ).json(),
    ).toEqual({ users: ["Every user must be a member of the organization."] });
    // Another organization's admin learns nothing about the group.
    expect((await call("GET", `/api/groupsinorgs/${group.id}/`, other.owner.token)).statusCode).toBe(404);
    expect(
      (
        await call("POST", "/api/useringrouporg/", other.owner.token, {
          user: other.owner.user.id,
          groups: [group.id],
        })
      ).statusCode,
    ).toBe(404);
    expect(project.id).toBeGreaterThan(0);
  });
});
