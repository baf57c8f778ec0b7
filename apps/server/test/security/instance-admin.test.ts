import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeFromMail, waitForMail } from "../accounts/helpers.ts";
import { authHeader } from "../helpers/factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

// The test app lists admin@tarmac.test in ADMIN_EMAILS.
const adminEmail = "admin@tarmac.test";
const password = "Correct-Horse-Battery-91";

describe("instance administrators", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
  });
  afterAll(() => t.close());

  const outbox = (headers: Record<string, string>) => t.app.inject({ url: "/api/admin/outbox/", headers });

  it("are not administrators before the address is confirmed, and are after", async () => {
    const registered = await t.app.inject({
      method: "POST",
      url: "/api/user/register/",
      payload: { email: adminEmail, password, first_name: "Ada", last_name: "Admin" },
    });
    expect(registered.statusCode).toBe(201);
    const { token } = registered.json();
    // Someone who merely registered the address must not read other people's reset codes.
    expect((await outbox(authHeader(token))).statusCode).toBe(403);

    const [activation] = await waitForMail(t, adminEmail);
    const code = codeFromMail(activation as NonNullable<typeof activation>);
    const activated = await t.app.inject({
      method: "POST",
      url: `/api/user/activate/${code}/`,
      payload: {},
    });
    expect(activated.statusCode).toBe(200);
    const session = activated.json().token as string;
    expect((await outbox(authHeader(session))).statusCode).toBe(200);
  });

  it("with two-factor authentication, act through a session, not an API key", async () => {
    const { rows } = await t.database.sql.executeSql("select id from users where email = $1", [adminEmail]);
    const userId = Number(rows[0]?.id);
    const apiKey = await t.services.tokens.issueApiKey(userId);
    expect((await outbox(authHeader(apiKey))).statusCode).toBe(200);
    await t.database.sql.executeSql("update users set two_factor_enabled = true where id = $1", [userId]);
    const refused = await outbox(authHeader(apiKey));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/second factor/);
    const session = await t.services.tokens.issueSession(userId);
    expect((await outbox(authHeader(session.token))).statusCode).toBe(200);
  });
});
