import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHeader, createUserWithToken } from "../helpers/factories.ts";
import { addMember, createOrganization, type TestUser } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe("organizations CRUD", () => {
  let t: TestApp;
  let alice: TestUser;

  beforeAll(async () => {
    // DEFAULT_PLAN names the plan new organizations get (plan-management.test.ts: without it, unlimited).
    t = await createTestApp({ DEFAULT_PLAN: "free" });
    alice = await createUserWithToken(t, { email: "alice@example.test" });
  }, 60_000);
  afterAll(() => t.close());

  const post = (token: string, payload: object) =>
    t.app.inject({ method: "POST", url: "/api/organizations/", headers: authHeader(token), payload });

  it("creates an organization with the caller as owner on the DEFAULT_PLAN", async () => {
    const response = await post(alice.token, { title: "  Acme  ", subdomain: "Acme-Apps" });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      title: "Acme",
      subdomain: "acme-apps",
      logo: null,
      role: 1,
      user_limit: 5,
      users_count: 1,
      plan: { code: "free", title: "Free" },
    });
    expect(body.sdk_key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const list = await t.app.inject({ url: "/api/organizations/", headers: authHeader(alice.token) });
    expect(list.json()).toMatchObject({ count: 1, next: null, previous: null });
    expect(list.json().results[0].id).toBe(body.id);
  });

  it("applies the subdomain rules", async () => {
    const cases: [string, string][] = [
      ["ab", "Ensure this field has at least 3 characters."],
      ["a".repeat(41), "Ensure this field has no more than 40 characters."],
      ["-abc", "Use only letters a-z, digits and hyphens; no hyphen at the start or end."],
      ["abc-", "Use only letters a-z, digits and hyphens; no hyphen at the start or end."],
      ["ab_c", "Use only letters a-z, digits and hyphens; no hyphen at the start or end."],
      ["www", "This subdomain is reserved."],
      ["support", "This subdomain is reserved."],
      ["acme-apps", "This subdomain is already taken."],
    ];
    for (const [subdomain, message] of cases) {
      const response = await post(alice.token, { title: "X", subdomain });
      expect(response.statusCode, subdomain).toBe(400);
      expect(response.json(), subdomain).toEqual({ subdomain: [message] });
    }
    expect((await post(alice.token, { title: "X", subdomain: "a-1" })).statusCode).toBe(201);
    expect((await post(alice.token, { subdomain: "zz-top" })).json()).toHaveProperty("title");
  });

  it("needs an authenticated, activated account", async () => {
    expect((await t.app.inject({ url: "/api/organizations/" })).statusCode).toBe(401);
    const inactive = await createUserWithToken(t);
    await t.database.sql.executeSql("update users set is_active = false where id = $1", [inactive.user.id]);
    const response = await post(inactive.token, { title: "X", subdomain: "inactive-org" });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      detail: "Activate your account first: check your e-mail for the activation link.",
    });
  });

  it("updates title and subdomain (PUT, PATCH) as admin, refuses others", async () => {
    const { organization, owner } = await createOrganization(t);
    const admin = await addMember(t, organization.id, 2);
    const tester = await addMember(t, organization.id, 5);
    const url = `/api/organizations/${organization.id}/`;
    const put = await t.app.inject({
      method: "PUT",
      url,
      headers: authHeader(admin.token),
      payload: { title: "Renamed", subdomain: "renamed-org" },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ title: "Renamed", subdomain: "renamed-org", role: 2 });
    const patch = await t.app.inject({
      method: "PATCH",
      url,
      headers: authHeader(owner.token),
      payload: { title: "Patched" },
    });
    expect(patch.json()).toMatchObject({ title: "Patched", subdomain: "renamed-org", role: 1 });
    const badPatch = await t.app.inject({
      method: "PATCH",
      url,
      headers: authHeader(owner.token),
      payload: { subdomain: "api" },
    });
    expect(badPatch.statusCode).toBe(400);
    expect(badPatch.json()).toEqual({ subdomain: ["This subdomain is reserved."] });
    const denied = await t.app.inject({
      method: "PATCH",
      url,
      headers: authHeader(tester.token),
      payload: { title: "Nope" },
    });
    expect(denied.statusCode).toBe(403);
    const read = await t.app.inject({ url, headers: authHeader(tester.token) });
    expect(read.json()).toMatchObject({ title: "Patched", role: 5, sdk_key: null, users_count: 3 });
  });

  it("rotates the SDK key for admins only", async () => {
    const { organization, owner } = await createOrganization(t);
    const member = await addMember(t, organization.id, 3);
    const url = `/api/organizations/${organization.id}/`;
    const before = (await t.app.inject({ url, headers: authHeader(owner.token) })).json().sdk_key;
    const rotated = await t.app.inject({ url: `${url}?newsdkkey=1`, headers: authHeader(owner.token) });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().sdk_key).not.toBe(before);
    expect(rotated.json().sdk_key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const denied = await t.app.inject({ url: `${url}?newsdkkey=1`, headers: authHeader(member.token) });
    expect(denied.statusCode).toBe(403);
  });

  it("asks for the XSRF header on state-changing GETs authenticated by cookie", async () => {
    const { organization, owner } = await createOrganization(t);
    const url = `/api/organizations/${organization.id}/?newsdkkey=1`;
    const cookies = { tarmac_token: owner.token, "XSRF-TOKEN": "x".repeat(32) };
    const withoutHeader = await t.app.inject({ url, cookies });
    expect(withoutHeader.statusCode).toBe(403);
    const withHeader = await t.app.inject({ url, cookies, headers: { "x-xsrf-token": "x".repeat(32) } });
    expect(withHeader.statusCode).toBe(200);
  });

  it("validates ids and pages", async () => {
    const bad = await t.app.inject({ url: "/api/organizations/abc/", headers: authHeader(alice.token) });
    expect(bad.statusCode).toBe(400);
    const missing = await t.app.inject({
      url: "/api/organizations/999999/",
      headers: authHeader(alice.token),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: "Not found." });
  });
});
