import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization, createTeam, setPassword } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe("another organization's objects answer 404 on every endpoint", () => {
  let t: TestApp;
  let token: string;
  const requests: { method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"; url: string; payload?: object }[] =
    [];

  beforeAll(async () => {
    t = await createTestApp();
    const a = await createOrganization(t);
    token = a.owner.token;
    await setPassword(t, a.owner.user.id, "correct horse battery staple");
    const b = await createOrganization(t);
    const bMember = await addMember(t, b.organization.id, 3);
    const bTeam = await createTeam(t, b.organization.id, [bMember.user.id]);
    const org = b.organization.id;
    const membership = bMember.membershipId;
    requests.push(
      { method: "GET", url: `/api/organizations/${org}/` },
      { method: "GET", url: `/api/organizations/${org}/?newsdkkey=1` },
      { method: "GET", url: `/api/organizations/${org}/?sendemaillimit=1` },
      { method: "PUT", url: `/api/organizations/${org}/`, payload: { title: "x", subdomain: "taken-over" } },
      { method: "PATCH", url: `/api/organizations/${org}/`, payload: { title: "x" } },
      { method: "GET", url: `/api/organizations/${org}/logo/` },
      {
        method: "POST",
        url: "/api/organization/delete/",
        payload: { organization: org, password: "correct horse battery staple" },
      },
      {
        method: "POST",
        url: "/api/organization/owner-transfer/",
        payload: { organization: org, user: bMember.user.id },
      },
      { method: "GET", url: `/api/organization/usage/?org=${org}` },
      { method: "GET", url: `/api/usersinorgs/?org=${org}` },
      {
        method: "POST",
        url: "/api/usersinorgs/",
        payload: { userid: "x@example.test", organization: org, role: 3 },
      },
      { method: "GET", url: `/api/usersinorgs/${membership}/` },
      { method: "GET", url: `/api/usersinorgs/${membership}/?resend=1` },
      { method: "GET", url: `/api/usersinorgs/${membership}/?newapikey=1` },
      {
        method: "PUT",
        url: `/api/usersinorgs/${membership}/`,
        payload: { role: 2, teams: [], projects: [] },
      },
      { method: "PATCH", url: `/api/usersinorgs/${membership}/`, payload: { role: 2 } },
      { method: "DELETE", url: `/api/usersinorgs/${membership}/` },
      { method: "GET", url: `/api/usersinorgs/${membership}/disable2fa/` },
      { method: "POST", url: `/api/usersinorgs/${membership}/disable2fa/` },
      { method: "GET", url: `/api/orgs-users/?org=${org}` },
      { method: "GET", url: `/api/teams-users-search/?org=${org}&s=a` },
      { method: "GET", url: `/api/teams/?org=${org}` },
      { method: "GET", url: `/api/teams/${bTeam.id}/` },
      { method: "POST", url: "/api/teams/", payload: { title: "x", organization: org, users: [] } },
      { method: "PUT", url: `/api/teams/${bTeam.id}/`, payload: { title: "x", users: [] } },
      { method: "DELETE", url: `/api/teams/${bTeam.id}/` },
      { method: "GET", url: `/api/orgs-teams/?org=${org}` },
      { method: "GET", url: `/api/orgs-teams/${bTeam.id}/` },
    );
  }, 60_000);
  afterAll(() => t.close());

  it("hides them all", async () => {
    expect(requests).toHaveLength(28);
    for (const request of requests) {
      const response = await t.app.inject({ ...request, headers: authHeader(token) });
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(404);
      expect(response.json(), `${request.method} ${request.url}`).toEqual({ detail: "Not found." });
    }
  });

  it("asks for credentials on every endpoint", async () => {
    for (const request of requests) {
      const response = await t.app.inject(request);
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(401);
    }
  });
});
