import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithPassword, strongPassword } from "../accounts/helpers.ts";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

/**
 * Checks of one's own password or code inside a session are throttled like login: five wrong
 * answers lock them, and then even the right one is refused for a while.
 */
describe("password and code checks inside a session", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function signedIn() {
    const user = await createUserWithPassword(t);
    const { token } = await t.services.tokens.issueSession(user.id);
    return { user, headers: authHeader(token) };
  }

  async function expectLockout(
    send: (secret: string) => Promise<{ statusCode: number; headers: Record<string, unknown> }>,
    right: string,
  ) {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await send("Wrong-Password-000")).statusCode).toBe(400);
    }
    const locked = await send(right);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);
  }

  it("changing the password", async () => {
    const { headers } = await signedIn();
    await expectLockout(
      (old) =>
        t.app.inject({
          method: "POST",
          url: "/api/user/password/change/",
          headers,
          payload: { old_password: old, new_password: "Another-Strong-Pass-77" },
        }),
      strongPassword,
    );
  });

  it("turning off two-factor authentication with the password or a code", async () => {
    const { user, headers } = await signedIn();
    await t.database.sql.executeSql("update users set two_factor_enabled = true where id = $1", [user.id]);
    const disable = (payload: object) =>
      t.app.inject({ method: "POST", url: "/api/user/disable-2fa/", headers, payload });
    for (let attempt = 0; attempt < 3; attempt += 1)
      expect((await disable({ token: "000000" })).statusCode).toBe(400);
    // Wrong codes and wrong passwords count together: 3 + 2 lock.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect((await disable({ password: "Wrong-Password-000" })).statusCode).toBe(400);
    }
    expect((await disable({ password: strongPassword })).statusCode).toBe(429);
  });

  it("closing the account", async () => {
    const { headers } = await signedIn();
    await expectLockout(
      (password) =>
        t.app.inject({ method: "DELETE", url: "/api/profiles/0/", headers, payload: { password } }),
      strongPassword,
    );
  });

  it("deleting an organization", async () => {
    const { user, headers } = await signedIn();
    const { organization } = await createOrganization(t, {
      owner: { user, token: (headers.authorization ?? "").slice(6), tokenId: 0 },
    });
    await expectLockout(
      (password) =>
        t.app.inject({
          method: "POST",
          url: "/api/organization/delete/",
          headers,
          payload: { organization: organization.id, password },
        }),
      strongPassword,
    );
  });
});
