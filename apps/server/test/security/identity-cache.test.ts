import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

// The embedded database keeps token and membership lookups in the process; every change to
// them, made anywhere (here straight in SQL), must count from the very next request.
describe("token, membership and app lookups kept in the process", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  const sql = (text: string, values: unknown[]) => t.database.sql.executeSql(text, values);

  it("is on with the embedded database", () => {
    expect(Boolean(t.platform.identity)).toBe(t.database.kind === "pglite");
  });

  it("sees a revoked token, a changed role and a removed member at once", async () => {
    const { organization } = await createOrganization(t);
    const member = await addMember(t, organization.id, 5);
    const hooks = () =>
      t.app.inject({ url: `/api/webhooks/?org=${organization.id}`, headers: authHeader(member.token) });
    expect((await hooks()).statusCode).toBe(403);
    expect((await hooks()).statusCode).toBe(403);
    await sql("update memberships set role = 2 where id = $1", [member.membershipId]);
    expect((await hooks()).statusCode).toBe(200);
    await sql("delete from memberships where id = $1", [member.membershipId]);
    expect((await hooks()).statusCode).toBe(404);
    await sql("update auth_tokens set revoked_at = now() where user_id = $1", [member.user.id]);
    expect((await hooks()).statusCode).toBe(401);
  });

  it("sees an app renamed or deleted at once", async () => {
    const { organization, owner } = await createOrganization(t);
    const app = await createApp(t, organization.id, { title: "Kept" });
    const detail = () =>
      t.app.inject({ url: `/api/applications/${app.id}/`, headers: authHeader(owner.token) });
    expect((await detail()).json().title).toBe("Kept");
    expect((await detail()).json().title).toBe("Kept");
    await sql("update applications set title = $2 where id = $1", [app.id, "Renamed"]);
    expect((await detail()).json().title).toBe("Renamed");
    await sql("delete from applications where id = $1", [app.id]);
    expect((await detail()).statusCode).toBe(404);
  });
});
