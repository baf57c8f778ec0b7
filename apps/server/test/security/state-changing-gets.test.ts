import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, createProject } from "../helpers/app-factories.ts";
import { authHeader } from "../helpers/factories.ts";
import { addMember, createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe("GETs that change something need the XSRF header when a cookie signs them in", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** The same request signed in by cookie alone, by cookie with the header, and by the header token. */
  async function threeWays(url: string, token: string) {
    const byCookie = await t.app.inject({
      url,
      cookies: { tarmac_token: token, "XSRF-TOKEN": "xsrf-value-1" },
    });
    const withHeader = await t.app.inject({
      url,
      cookies: { tarmac_token: token, "XSRF-TOKEN": "xsrf-value-1" },
      headers: { "x-xsrf-token": "xsrf-value-1" },
    });
    const byToken = await t.app.inject({ url, headers: authHeader(token) });
    return [byCookie.statusCode, withHeader.statusCode, byToken.statusCode];
  }

  it("regenerating recovery codes", async () => {
    const { owner } = await createOrganization(t);
    await t.database.sql.executeSql("update users set two_factor_enabled = true where id = $1", [
      owner.user.id,
    ]);
    expect(await threeWays("/api/user/recovery-codes-2fa/", owner.token)).toEqual([403, 200, 200]);
  });

  it("re-sending a project member's invitation", async () => {
    const { organization, owner } = await createOrganization(t);
    const project = await createProject(t, organization.id);
    await createApp(t, organization.id, { projectId: project.id });
    const invited = await addMember(t, organization.id, 3);
    await t.database.sql.executeSql(
      "update users set is_active = false, password_hash = null where id = $1",
      [invited.user.id],
    );
    await t.app.inject({
      method: "POST",
      url: "/api/usersinproject/",
      headers: authHeader(owner.token),
      payload: {
        user: invited.user.id,
        project: project.id,
        role: 3,
        is_access_all_envs: true,
        access_envs: [],
      },
    });
    const url = `/api/usersinproject/?project=${project.id}&resend=1&user=${invited.user.id}`;
    expect(await threeWays(url, owner.token)).toEqual([403, 200, 200]);
  });
});
