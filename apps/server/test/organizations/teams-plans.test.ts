import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHeader, createUserWithToken } from "../helpers/factories.ts";
import { addMember, createOrganization, createTeam, waitFor } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe("teams", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(() => t.close());

  it("creates, lists, updates and deletes teams as admin", async () => {
    const { organization, owner } = await createOrganization(t);
    const member = await addMember(t, organization.id, 3);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/teams/",
      headers: authHeader(owner.token),
      payload: { title: "QA", organization: organization.id, users: [member.user.id] },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      title: "QA",
      organization: organization.id,
      users: [member.user.id],
    });
    const id = created.json().id;
    const list = await t.app.inject({
      url: `/api/teams/?s=q&org=${organization.id}`,
      headers: authHeader(member.token),
    });
    expect(list.json()).toMatchObject({ count: 1, results: [{ id, title: "QA" }] });
    const withUsers = await t.app.inject({
      url: `/api/orgs-teams/${id}/`,
      headers: authHeader(member.token),
    });
    expect(withUsers.json().users).toEqual([
      { id: member.user.id, email: member.user.email, first_name: "Test", last_name: member.user.lastName },
    ]);
    const put = await t.app.inject({
      method: "PUT",
      url: `/api/teams/${id}/`,
      headers: authHeader(owner.token),
      payload: { title: "QA team", organization: organization.id, users: [] },
    });
    expect(put.json()).toEqual({ id, title: "QA team", organization: organization.id, users: [] });
    const outsider = await createUserWithToken(t);
    const badUsers = await t.app.inject({
      method: "PUT",
      url: `/api/teams/${id}/`,
      headers: authHeader(owner.token),
      payload: { title: "QA team", users: [outsider.user.id] },
    });
    expect(badUsers.json()).toEqual({
      users: [`These users are not members of the organization: ${outsider.user.id}.`],
    });
    const blank = await t.app.inject({
      method: "POST",
      url: "/api/teams/",
      headers: authHeader(owner.token),
      payload: { title: " ", organization: organization.id },
    });
    expect(blank.json()).toEqual({ title: ["This field may not be blank."] });
    const denied = await t.app.inject({
      method: "DELETE",
      url: `/api/teams/${id}/`,
      headers: authHeader(member.token),
    });
    expect(denied.statusCode).toBe(403);
    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/teams/${id}/`,
      headers: authHeader(owner.token),
    });
    expect(deleted.statusCode).toBe(204);
    expect(
      (await t.app.inject({ url: `/api/teams/${id}/`, headers: authHeader(owner.token) })).statusCode,
    ).toBe(404);
  });

  it("lets team managers change members of their own teams only", async () => {
    const { organization } = await createOrganization(t);
    const manager = await addMember(t, organization.id, 4);
    const mate = await addMember(t, organization.id, 3);
    const own = await createTeam(t, organization.id, [manager.user.id], "Mine");
    const foreign = await createTeam(t, organization.id, [], "Theirs");
    const put = (teamId: number, payload: object) =>
      t.app.inject({
        method: "PUT",
        url: `/api/teams/${teamId}/`,
        headers: authHeader(manager.token),
        payload,
      });
    const ok = await put(own.id, { title: "Mine", users: [manager.user.id, mate.user.id] });
    expect(ok.json().users).toEqual([manager.user.id, mate.user.id].sort((a, b) => a - b));
    expect((await put(own.id, { title: "Renamed", users: [manager.user.id] })).statusCode).toBe(403);
    expect((await put(foreign.id, { title: "Theirs", users: [manager.user.id] })).statusCode).toBe(403);
    const del = await t.app.inject({
      method: "DELETE",
      url: `/api/teams/${own.id}/`,
      headers: authHeader(manager.token),
    });
    expect(del.statusCode).toBe(403);
  });
});

describe("plans and usage", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ DEFAULT_PLAN: "unlimited" });
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
  }, 60_000);
  afterAll(() => t.close());

  it("lists tariffs publicly", async () => {
    const response = await t.app.inject("/api/tariffs/");
    expect(response.statusCode).toBe(200);
    expect(response.json().map((plan: { code: string }) => plan.code)).toEqual([
      "free",
      "team",
      "business",
      "unlimited",
    ]);
    expect(response.json()[1]).toMatchObject({
      code: "team",
      title: "Team",
      price: 29,
      currency: "usd",
      space_limit: 51200,
      build_limit: 2000,
      projects_limit: 25,
      user_limit: 25,
    });
  });

  it("gives new organizations DEFAULT_PLAN", async () => {
    const user = await createUserWithToken(t);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/organizations/",
      headers: authHeader(user.token),
      payload: { title: "Self hosted", subdomain: "self-hosted" },
    });
    expect(created.json()).toMatchObject({ plan: { code: "unlimited" }, user_limit: 0 });
  });

  it("reports usage and criticality, and mails the owner at most once a day", async () => {
    const { organization, owner } = await createOrganization(t);
    const tester = await addMember(t, organization.id, 5);
    const usageUrl = `/api/organization/usage/?org=${organization.id}`;
    expect((await t.app.inject({ url: usageUrl, headers: authHeader(tester.token) })).json()).toEqual({
      org_id: organization.id,
      space_used: 0,
      space_limit: 2048,
      builds_count: 0,
      build_limit: 100,
      projects_count: 0,
      projects_limit: 3,
      users_count: 2,
      user_limit: 5,
      pending_uploads: 0,
      pending_space: 0,
      critical: false,
      limits_managed_by: "administrator",
      administrator_email: "admin@tarmac.test",
    });
    const noticeUrl = `/api/organizations/${organization.id}/?sendemaillimit=1`;
    const calm = await t.app.inject({ url: noticeUrl, headers: authHeader(tester.token) });
    expect(calm.json().limit_notice_sent).toBe(false);

    // 1600 MB of 2048 MB is above the 75 % warning line.
    await t.database.sql.executeSql("update organizations set space_used_bytes = $1 where id = $2", [
      1600 * 1024 * 1024,
      organization.id,
    ]);
    const usage = (await t.app.inject({ url: usageUrl, headers: authHeader(tester.token) })).json();
    expect(usage).toMatchObject({ space_used: 1600, critical: true });
    const first = await t.app.inject({ url: noticeUrl, headers: authHeader(tester.token) });
    expect(first.json().limit_notice_sent).toBe(true);
    const second = await t.app.inject({ url: noticeUrl, headers: authHeader(tester.token) });
    expect(second.json().limit_notice_sent).toBe(false);
    await waitFor(async () => {
      const { rows } = await t.database.sql.executeSql(
        "select subject from mail_outbox where to_address = $1",
        [owner.user.email],
      );
      return rows.length === 1 ? rows[0]?.subject : undefined;
    });
    expect((await t.app.inject(usageUrl)).statusCode).toBe(401);
    // Without ?org= the caller's only organization is meant.
    const implicit = await t.app.inject({
      url: "/api/organization/usage/",
      headers: authHeader(owner.token),
    });
    expect(implicit.json()).toMatchObject({ space_used: 1600, critical: true });
  });
});
