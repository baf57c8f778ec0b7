import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHeader } from "../helpers/factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { addMembership, createUserWithPassword, strongPassword } from "./helpers.ts";

describe("profile", () => {
  let t: TestApp;
  const signIn = async (email: string) =>
    (
      await t.app.inject({
        method: "POST",
        url: "/api/user/login/?m=1",
        payload: { email, password: strongPassword },
      })
    ).json().token as string;

  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(() => t.close());

  it("answers 401 without a token", async () => {
    expect((await t.app.inject({ url: "/api/profiles/" })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "PUT", url: "/api/profiles/1/", payload: {} })).statusCode).toBe(
      401,
    );
    expect((await t.app.inject({ method: "DELETE", url: "/api/profiles/0/", payload: {} })).statusCode).toBe(
      401,
    );
  });

  it("lists the user with org_data, filters it, and closes the welcome", async () => {
    const user = await createUserWithPassword(t);
    const token = await signIn(user.email);
    const acme = await addMembership(t, user.id, 1, "Acme Builds");
    const other = await addMembership(t, user.id, 5, "Other Co");
    await t.database.sql.executeSql(
      "update organizations set space_used_bytes = 1572864, builds_count = 3, projects_count = 2 where id = $1",
      [acme],
    );
    const { rows } = await t.database.sql.executeSql(
      "select p.id, p.code, p.title, p.space_limit_mb, p.build_limit, p.projects_limit, p.user_limit, o.subdomain from organizations o join plans p on p.id = o.plan_id where o.id = $1",
      [acme],
    );
    const plan = rows[0] as Record<string, unknown>;
    const response = await t.app.inject({ url: "/api/profiles/", headers: authHeader(token) });
    expect(response.statusCode).toBe(200);
    const [item] = response.json();
    expect(item).toEqual({
      user_id: user.id,
      username: user.email,
      email: user.email,
      first_name: "Pat",
      last_name: "Word",
      is_active: true,
      two_factor_enabled: false,
      welcome_closed: false,
      date_joined: user.createdAt.toISOString(),
      is_instance_admin: false,
      org_data: [
        {
          org_id: acme,
          title: "Acme Builds",
          subdomain: plan.subdomain,
          logo: null,
          role: 1,
          space_used: 1.5,
          space_limit: Number(plan.space_limit_mb),
          builds_count: 3,
          build_limit: plan.build_limit,
          projects_count: 2,
          projects_limit: plan.projects_limit,
          users_count: 1,
          user_limit: plan.user_limit,
        },
        expect.objectContaining({ org_id: other, title: "Other Co", role: 5 }),
      ],
    });
    const byOrg = await t.app.inject({ url: `/api/profiles/?org=${other}`, headers: authHeader(token) });
    expect(byOrg.json()[0].org_data.map((o: { org_id: number }) => o.org_id)).toEqual([other]);
    const bySub = await t.app.inject({
      url: `/api/profiles/?subdomain=${plan.subdomain}`,
      headers: authHeader(token),
    });
    expect(bySub.json()[0].org_data.map((o: { org_id: number }) => o.org_id)).toEqual([acme]);
    const bySearch = await t.app.inject({ url: "/api/profiles/?s=other", headers: authHeader(token) });
    expect(bySearch.json()[0].org_data.map((o: { title: string }) => o.title)).toEqual(["Other Co"]);
    const full = await t.app.inject({ url: `/api/profiles/?full=1&org=${acme}`, headers: authHeader(token) });
    expect(full.json()[0].org_data[0].plan).toEqual({
      id: Number(plan.id),
      code: plan.code,
      title: plan.title,
    });
    const closed = await t.app.inject({ url: "/api/profiles/?close_welcome=1", headers: authHeader(token) });
    expect(closed.json()[0].welcome_closed).toBe(true);
    expect(
      (await t.app.inject({ url: "/api/profiles/?org=abc", headers: authHeader(token) })).statusCode,
    ).toBe(400);
  });

  it("tells whether the caller holds an API key, without showing it", async () => {
    const user = await createUserWithPassword(t);
    const token = await signIn(user.email);
    const state = async () =>
      (await t.app.inject({ url: "/api/profiles/api-key/", headers: authHeader(token) })).json();
    expect(await state()).toEqual({ has_api_key: false });
    await t.services.tokens.rotateApiKey(user.id);
    expect(await state()).toEqual({ has_api_key: true });
    await t.services.tokens.revokeApiKeys(user.id);
    expect(await state()).toEqual({ has_api_key: false });
    expect((await t.app.inject({ url: "/api/profiles/api-key/" })).statusCode).toBe(401);
  });

  it("updates only one's own name; another id answers 404", async () => {
    const user = await createUserWithPassword(t);
    const other = await createUserWithPassword(t);
    const token = await signIn(user.email);
    const own = await t.app.inject({
      method: "PUT",
      url: `/api/profiles/${user.id}/`,
      headers: authHeader(token),
      payload: { first_name: " Grace ", last_name: "Hopper" },
    });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({
      user_id: user.id,
      first_name: "Grace",
      last_name: "Hopper",
      org_data: [],
    });
    const foreign = await t.app.inject({
      method: "PUT",
      url: `/api/profiles/${other.id}/`,
      headers: authHeader(token),
      payload: { first_name: "X", last_name: "Y" },
    });
    expect(foreign.statusCode).toBe(404);
    const invalid = await t.app.inject({
      method: "PUT",
      url: `/api/profiles/${user.id}/`,
      headers: authHeader(token),
      payload: { first_name: "X" },
    });
    expect(invalid.statusCode).toBe(400);
    expect(Object.keys(invalid.json())).toEqual(["last_name"]);
  });

  it("closes the account with the password; refused while owning an organization with members", async () => {
    const owner = await createUserWithPassword(t);
    const member = await createUserWithPassword(t);
    const token = await signIn(owner.email);
    const shared = await addMembership(t, owner.id, 1, "Shared");
    await t.database.sql.executeSql(
      "insert into memberships (organization_id, user_id, role) values ($1, $2, 2)",
      [shared, member.id],
    );
    const del = (password?: string) =>
      t.app.inject({
        method: "DELETE",
        url: "/api/profiles/0/",
        headers: authHeader(token),
        payload: { password },
      });
    expect((await del()).statusCode).toBe(400);
    expect((await del("wrong-password")).json()).toEqual({ password: ["Wrong password."] });
    const refused = await del(strongPassword);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      detail:
        "You own an organization with other members: transfer the ownership or remove the members first.",
    });
    await t.database.sql.executeSql("delete from memberships where user_id = $1", [member.id]);
    expect((await del(strongPassword)).statusCode).toBe(204);
    const { rows } = await t.database.sql.executeSql(
      "select (select count(*)::int from users where id = $1) as users, (select deleting_at is not null from organizations where id = $2) as deleting",
      [owner.id, shared],
    );
    expect(rows[0]).toEqual({ users: 0, deleting: true });
    expect((await t.app.inject({ url: "/api/profiles/", headers: authHeader(token) })).statusCode).toBe(401);
  });

  it("closes only the caller's own account: another id answers 404 before the password counts", async () => {
    const caller = await createUserWithPassword(t);
    const other = await createUserWithPassword(t);
    const token = await signIn(caller.email);
    const del = (id: number, password: string) =>
      t.app.inject({
        method: "DELETE",
        url: `/api/profiles/${id}/`,
        headers: authHeader(token),
        payload: { password },
      });
    const usersLeft = async () =>
      (
        await t.database.sql.executeSql("select id from users where id = any($1::bigint[])", [
          [caller.id, other.id],
        ])
      ).rows.length;
    for (const password of [strongPassword, "wrong-password"]) {
      const refused = await del(other.id, password);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ detail: "Not found." });
    }
    expect(await usersLeft()).toBe(2);
    expect((await del(caller.id, strongPassword)).statusCode).toBe(204);
    expect(await usersLeft()).toBe(1);

    const second = await createUserWithPassword(t);
    expect(
      (
        await t.app.inject({
          method: "DELETE",
          url: "/api/profiles/0/",
          headers: authHeader(await signIn(second.email)),
          payload: { password: strongPassword },
        })
      ).statusCode,
    ).toBe(204);
  });
});
