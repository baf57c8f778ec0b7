import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addProjectMember, createApp, createProject, createVersion } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

type Call = { method: "GET" | "PUT" | "PATCH" | "DELETE"; url: string; payload?: object };

function callsFor(appId: number, versionId: number): Call[] {
  return [
    { method: "GET", url: `/api/applications/${appId}/` },
    { method: "PUT", url: `/api/applications/${appId}/`, payload: { title: "x" } },
    { method: "PUT", url: `/api/applications/${appId}/?newappkey=1` },
    { method: "PATCH", url: `/api/applications/${appId}/`, payload: { title: "x" } },
    { method: "GET", url: `/api/applications/${appId}/builds/` },
    { method: "GET", url: `/api/applications/${appId}/build/${versionId}/` },
    { method: "GET", url: `/api/applications/${appId}/check_my_role/` },
    { method: "GET", url: `/api/app-logs/${appId}/` },
    { method: "GET", url: `/api/versions/${versionId}/` },
    { method: "PUT", url: `/api/versions/${versionId}/`, payload: { comment: "x" } },
    { method: "PATCH", url: `/api/versions/${versionId}/`, payload: { comment: "x" } },
    { method: "PATCH", url: `/api/releases/${versionId}/`, payload: { whats_new: "x" } },
    { method: "GET", url: `/api/versions/${versionId}/download/` },
    { method: "DELETE", url: `/api/versions/${versionId}/` },
    { method: "DELETE", url: `/api/applications/${appId}/` },
    { method: "DELETE", url: `/api/applications/${appId}/?all=1` },
  ];
}

describe("the application tenant boundary", () => {
  let t: TestApp;
  let appId: number;
  let versionId: number;
  let projectId: number;
  let organizationId: number;
  beforeAll(async () => {
    t = await createTestApp();
    const { organization } = await createOrganization(t);
    organizationId = organization.id;
    const project = await createProject(t, organization.id);
    projectId = project.id;
    const app = await createApp(t, organization.id, { projectId, environment: "Staging" });
    appId = app.id;
    versionId = (await createVersion(t, app)).id;
  });
  afterAll(async () => {
    await t.close();
  });

  const expectAll = async (token: string | null, status: number) => {
    for (const call of callsFor(appId, versionId)) {
      const res = await t.app.inject({ ...call, headers: token ? authHeader(token) : {} });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(status);
    }
  };

  it("answers 404 to another organization's owner on every endpoint", async () => {
    const other = await createOrganization(t);
    await expectAll(other.owner.token, 404);
    const list = await t.app.inject({
      url: `/api/applications/?org=${organizationId}`,
      headers: authHeader(other.owner.token),
    });
    expect(list.statusCode).toBe(404);
    const own = await t.app.inject({ url: "/api/applications/", headers: authHeader(other.owner.token) });
    expect(own.json().count).toBe(0);
  });

  it("answers 404 to a tester outside the project and to a member outside the environment", async () => {
    const tester = await addMember(t, organizationId, 5);
    await expectAll(tester.token, 404);
    const member = await addMember(t, organizationId, 3);
    await addProjectMember(t, projectId, member.user.id, { envs: ["Production"] });
    await expectAll(member.token, 404);
  });

  it("answers 401 without a token", async () => {
    await expectAll(null, 401);
    const list = await t.app.inject({ url: "/api/m/applications/" });
    expect(list.statusCode).toBe(401);
  });
});
