import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHeader, createUserWithToken } from "../helpers/factories.ts";
import { addMember, createOrganization, createTeam } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe("staff (users in organizations)", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
  }, 60_000);
  afterAll(() => t.close());

  const add = (token: string, payload: object) =>
    t.app.inject({ method: "POST", url: "/api/usersinorgs/", headers: authHeader(token), payload });

  it("validates input", async () => {
    const { organization, owner } = await createOrganization(t);
    const other = await createOrganization(t);
    const foreignTeam = await createTeam(t, other.organization.id);
    const cases: [object, string][] = [
      [{ userid: "not an email", organization: organization.id, role: 2 }, "userid"],
      [{ userid: "x@example.test", organization: organization.id, role: 1 }, "role"],
      [{ userid: "x@example.test", organization: organization.id }, "role"],
      // Ids are refused: adding and removing them would read other people's accounts.
      [{ userid: 1, organization: organization.id, role: 2 }, "userid"],
      [
        { userid: "x@example.test", organization: organization.id, role: 2, teams: [foreignTeam.id] },
        "teams",
      ],
    ];
    for (const [payload, field] of cases) {
      const response = await add(owner.token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(response.json()), JSON.stringify(payload)).toEqual([field]);
    }
  });

  it("stops at the plan's user limit with error_code user_limit_reached", async () => {
    const { organization, owner } = await createOrganization(t); // free plan: 5 users
    for (let index = 0; index < 4; index += 1) await addMember(t, organization.id, 3);
    const response = await add(owner.token, {
      userid: "sixth@example.test",
      organization: organization.id,
      role: 3,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error_code: "user_limit_reached",
      detail:
        "The organization has reached its user limit. Ask the administrator of this Tarmac instance (admin@tarmac.test) to raise it.",
    });
  });

  it("gives the last seat to exactly one of two racing requests", async () => {
    // A few rounds: without the row lock the loser slips through often, but not every time.
    for (let round = 0; round < 4; round += 1) {
      const { organization, owner } = await createOrganization(t);
      for (let index = 0; index < 3; index += 1) await addMember(t, organization.id, 3);
      const [first, second] = await Promise.all(
        ["a", "b"].map((name) =>
          add(owner.token, {
            userid: `racer-${name}${round}@example.test`,
            organization: organization.id,
            role: 3,
          }),
        ),
      );
      expect([first?.statusCode, second?.statusCode].sort()).toEqual([201, 400]);
      const loser = first?.statusCode === 400 ? first : second;
      expect(loser?.json().error_code).toBe("user_limit_reached");
      const usage = await t.app.inject({
        url: `/api/organization/usage/?org=${organization.id}`,
        headers: authHeader(owner.token),
      });
      expect(usage.json()).toMatchObject({ users_count: 5, user_limit: 5 });
    }
  });

  it("shows roles 3/5 only themselves and team managers their teams", async () => {
    const { organization, owner } = await createOrganization(t, { plan: "team" });
    const manager = await addMember(t, organization.id, 4);
    const mate = await addMember(t, organization.id, 3);
    const tester = await addMember(t, organization.id, 5);
    await createTeam(t, organization.id, [manager.user.id, mate.user.id]);
    const list = async (token: string) =>
      (
        await t.app.inject({ url: `/api/usersinorgs/?org=${organization.id}`, headers: authHeader(token) })
      ).json();
    expect((await list(owner.token)).count).toBe(4);
    expect((await list(tester.token)).results.map((row: { userid: number }) => row.userid)).toEqual([
      tester.user.id,
    ]);
    const seen = (await list(manager.token)).results.map((row: { userid: number }) => row.userid).sort();
    expect(seen).toEqual([manager.user.id, mate.user.id].sort());
    const hidden = await t.app.inject({
      url: `/api/usersinorgs/${mate.membershipId}/`,
      headers: authHeader(tester.token),
    });
    expect(hidden.statusCode).toBe(404);
    const search = await t.app.inject({
      url: `/api/usersinorgs/?org=${organization.id}&s=${encodeURIComponent(tester.user.email)}`,
      headers: authHeader(owner.token),
    });
    expect(search.json().count).toBe(1);
  });

  it("updates roles, protects the owner, removes members", async () => {
    const { organization, owner } = await createOrganization(t);
    const ownerMembership = (
      await t.app.inject({
        url: `/api/usersinorgs/?org=${organization.id}`,
        headers: authHeader(owner.token),
      })
    ).json().results[0].id;
    const member = await addMember(t, organization.id, 3);
    const put = await t.app.inject({
      method: "PUT",
      url: `/api/usersinorgs/${member.membershipId}/`,
      headers: authHeader(owner.token),
      payload: { role: 2, teams: [], projects: [] },
    });
    expect(put.json()).toMatchObject({ role: 2 });
    const demote = await t.app.inject({
      method: "PATCH",
      url: `/api/usersinorgs/${ownerMembership}/`,
      headers: authHeader(member.token),
      payload: { role: 3 },
    });
    expect(demote.statusCode).toBe(400);
    expect(demote.json()).toEqual({ role: ["The owner's role changes only by transferring ownership."] });
    const removeOwner = await t.app.inject({
      method: "DELETE",
      url: `/api/usersinorgs/${ownerMembership}/`,
      headers: authHeader(member.token),
    });
    expect(removeOwner.statusCode).toBe(400);
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/usersinorgs/${member.membershipId}/`,
      headers: authHeader(owner.token),
    });
    expect(removed.statusCode).toBe(204);
  });

  it("rotates only the caller's own API key and disables 2FA as admin", async () => {
    const { organization, owner } = await createOrganization(t);
    const admin = await addMember(t, organization.id, 2);
    const ownerMembership = (
      await t.app.inject({
        url: `/api/usersinorgs/?org=${organization.id}`,
        headers: authHeader(owner.token),
      })
    ).json().results[0].id;
    const own = await t.app.inject({
      url: `/api/usersinorgs/${admin.membershipId}/?newapikey=1`,
      headers: authHeader(admin.token),
    });
    expect(own.statusCode).toBe(200);
    const apiKey: string = own.json().api_key;
    const withKey = await t.app.inject({ url: "/api/organizations/", headers: authHeader(apiKey) });
    expect(withKey.json().count).toBe(1);
    const others = await t.app.inject({
      url: `/api/usersinorgs/${ownerMembership}/?newapikey=1`,
      headers: authHeader(admin.token),
    });
    expect(others.statusCode).toBe(403);

    await t.database.sql.executeSql("update users set two_factor_enabled = true where id = $1", [
      admin.user.id,
    ]);
    const disabled = await t.app.inject({
      url: `/api/usersinorgs/${admin.membershipId}/disable2fa/`,
      headers: authHeader(owner.token),
    });
    expect(disabled.json()).toEqual({ two_factor_enabled: false });
    const ownersByAdmin = await t.app.inject({
      method: "POST",
      url: `/api/usersinorgs/${ownerMembership}/disable2fa/`,
      headers: authHeader(admin.token),
    });
    expect(ownersByAdmin.statusCode).toBe(403);
  });

  it("lists the directory and searches teams and users", async () => {
    const { organization, owner } = await createOrganization(t);
    await createTeam(t, organization.id, [], "Android squad");
    const carol = await addMember(
      t,
      organization.id,
      5,
      await createUserWithToken(t, { email: "carol@android.test" }),
    );
    const users = await t.app.inject({
      url: `/api/orgs-users/?org=${organization.id}&search=carol&page_size=5`,
      headers: authHeader(owner.token),
    });
    expect(users.json()).toMatchObject({
      count: 1,
      results: [{ id: carol.user.id, email: "carol@android.test", role: 5 }],
    });
    const search = await t.app.inject({
      url: `/api/teams-users-search/?org=${organization.id}&s=android`,
      headers: authHeader(owner.token),
    });
    expect(search.json()).toMatchObject({
      teams: [{ title: "Android squad" }],
      users: [{ id: carol.user.id, email: "carol@android.test" }],
    });
    const denied = await t.app.inject({
      url: `/api/orgs-users/?org=${organization.id}`,
      headers: authHeader(carol.token),
    });
    expect(denied.statusCode).toBe(403);
    expect((await t.app.inject({ url: `/api/orgs-users/?org=${organization.id}` })).statusCode).toBe(401);
  });
});
