import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHeader, createUserWithToken } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe("plans on an instance without a billing provider", () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof createUserWithToken>>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUserWithToken(t, { email: "admin@tarmac.test" });
  }, 60_000);
  afterAll(() => t.close());

  const call = (token: string, method: "GET" | "POST" | "PATCH", url: string, payload?: object) =>
    t.app.inject({ method, url, headers: authHeader(token), ...(payload ? { payload } : {}) });

  it("starts new organizations unlimited: nobody can pay, so nobody is stopped at a limit", async () => {
    const owner = await createUserWithToken(t);
    const created = await call(owner.token, "POST", "/api/organizations/", {
      title: "Fresh",
      subdomain: "fresh-start",
    });
    expect(created.json().plan).toMatchObject({ code: "unlimited" });
    const usage = (
      await call(owner.token, "GET", `/api/organization/usage/?org=${created.json().id}`)
    ).json();
    expect(usage).toMatchObject({ space_limit: 0, build_limit: 0, projects_limit: 0, user_limit: 0 });
  });

  it("lets instance administrators find organizations, change their plan and set their own limits, all logged", async () => {
    const { organization, owner } = await createOrganization(t, { title: "Rocket Science", plan: "free" });
    const list = (query: string, token = admin.token) =>
      call(token, "GET", `/api/admin/organizations/${query}`);
    expect((await list("", owner.token)).statusCode).toBe(403);
    const found = (await list(`?search=${encodeURIComponent(owner.user.email.toUpperCase())}`)).json();
    expect(found.count).toBe(1);
    expect(found.results[0]).toEqual({
      id: organization.id,
      title: "Rocket Science",
      subdomain: organization.subdomain,
      created_at: expect.any(String),
      owner: {
        id: owner.user.id,
        email: owner.user.email,
        name: `${owner.user.firstName} ${owner.user.lastName}`,
      },
      plan: { id: expect.any(Number), code: "free", title: "Free" },
      limits: { space_limit: 2048, build_limit: 100, projects_limit: 3, user_limit: 5 },
      overrides: {},
      usage: { space_used: 0, builds_count: 0, projects_count: 0, users_count: 1 },
    });
    expect((await list("?search=rocket")).json().results.map((row: { id: number }) => row.id)).toEqual([
      organization.id,
    ]);
    expect((await list("?search=100%25")).json().count).toBe(0);

    const patch = (payload: object) =>
      call(admin.token, "PATCH", `/api/admin/organizations/${organization.id}/`, payload);
    expect((await patch({ plan: "platinum" })).json()).toEqual({ plan: ["No plan with this code."] });
    const changed = await patch({ plan: "team", limits: { projects_limit: 1, user_limit: 0 } });
    expect(changed.json()).toMatchObject({
      plan: { code: "team" },
      limits: { space_limit: 51200, build_limit: 2000, projects_limit: 1, user_limit: 0 },
      overrides: { projects_limit: 1, user_limit: 0 },
    });
    // What members see follows at once.
    const usage = (await call(owner.token, "GET", `/api/organization/usage/?org=${organization.id}`)).json();
    expect(usage).toMatchObject({ projects_limit: 1, user_limit: 0, space_limit: 51200 });
    const profile = (await call(owner.token, "GET", `/api/profiles/?org=${organization.id}`)).json();
    expect(JSON.stringify(profile)).toContain('"projects_limit":1');
    // Sending the limits it already has changes nothing and writes nothing to the log.
    expect((await patch({ limits: { projects_limit: 1, user_limit: 0 } })).statusCode).toBe(200);
    const back = await patch({ limits: { projects_limit: null } });
    expect(back.json()).toMatchObject({
      limits: { projects_limit: 25, user_limit: 0 },
      overrides: { user_limit: 0 },
    });

    const log = (
      await call(admin.token, "GET", `/api/admin/organizations/${organization.id}/activity/`)
    ).json();
    expect(log.results.map((entry: { action: string }) => entry.action)).toEqual([
      "limits.changed",
      "limits.changed",
      "plan.changed",
    ]);
    expect(log.results[2]).toMatchObject({
      details: { from: "free", to: "team", source: "admin" },
      actor: { id: admin.user.id, email: "admin@tarmac.test" },
    });
    expect(
      (await call(owner.token, "GET", `/api/admin/organizations/${organization.id}/activity/`)).statusCode,
    ).toBe(403);
    expect((await call(admin.token, "GET", "/api/admin/organizations/999999/")).statusCode).toBe(404);
  });
});
