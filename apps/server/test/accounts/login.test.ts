import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { addMembership, createUserWithPassword, strongPassword, uniqueEmail } from "./helpers.ts";

const badCredentials = { non_field_errors: ["Unable to log in with provided credentials."] };
const locked = { detail: "Too many failed attempts. Try again in 15 minutes." };

describe("login", () => {
  let t: TestApp;
  const login = (
    payload: object,
    options: { query?: string; remoteAddress?: string; headers?: Record<string, string> } = {},
  ) =>
    t.app.inject({
      method: "POST",
      url: `/api/user/login/${options.query ?? ""}`,
      payload,
      remoteAddress: options.remoteAddress ?? "192.0.2.1",
      headers: options.headers ?? {},
    });

  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(() => t.close());

  it("signs in with a token, sets the 14-day cookie, and the token works", async () => {
    const user = await createUserWithPassword(t);
    const response = await login({ email: user.email.toUpperCase(), password: strongPassword });
    expect(response.statusCode).toBe(200);
    const { token } = response.json();
    const cookie = response.cookies.find((c) => c.name === "tarmac_token");
    expect(cookie?.value).toBe(token);
    const lifetime = new Date(cookie?.expires ?? 0).getTime() - Date.now();
    expect(Math.round(lifetime / 86_400_000)).toBe(14);
    const out = await t.app.inject({
      method: "POST",
      url: "/api/user/logout/",
      headers: { authorization: `Token ${token}` },
    });
    expect(out.statusCode).toBe(204);
  });

  it("answers bad credentials the same for unknown users and wrong passwords, and validates fields", async () => {
    const user = await createUserWithPassword(t);
    const wrong = await login(
      { email: user.email, password: "not-the-password" },
      { remoteAddress: "192.0.2.50" },
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual(badCredentials);
    const unknown = await login(
      { email: uniqueEmail("ghost"), password: strongPassword },
      { remoteAddress: "192.0.2.50" },
    );
    expect(unknown.json()).toEqual(badCredentials);
    const empty = await login({ email: "", password: "" });
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json()).sort()).toEqual(["email", "password"]);
  });

  it("locks an account for 15 minutes after 5 failures; the right password is refused meanwhile", async () => {
    const user = await createUserWithPassword(t);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await login(
        { email: user.email, password: `wrong-${attempt}` },
        { remoteAddress: `198.51.100.${attempt}` },
      );
      expect(response.json()).toEqual(badCredentials);
    }
    const refused = await login(
      { email: user.email, password: strongPassword },
      { remoteAddress: "198.51.100.99" },
    );
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(locked);
    expect(refused.headers["retry-after"]).toBe("900");
    await t.database.sql.executeSql(
      "update login_throttle set locked_until = now() - interval '1 second', window_started_at = now() - interval '16 minutes' where key = $1",
      [`login:account:${user.email}`],
    );
    expect((await login({ email: user.email, password: strongPassword })).statusCode).toBe(200);
  });

  it("resets the account counter on success", async () => {
    const user = await createUserWithPassword(t);
    const fail = () =>
      login({ email: user.email, password: "wrong-password" }, { remoteAddress: "203.0.113.7" });
    for (let attempt = 0; attempt < 4; attempt += 1) expect((await fail()).statusCode).toBe(400);
    expect(
      (await login({ email: user.email, password: strongPassword }, { remoteAddress: "203.0.113.7" }))
        .statusCode,
    ).toBe(200);
    for (let attempt = 0; attempt < 4; attempt += 1) expect((await fail()).statusCode).toBe(400);
    expect(
      (await login({ email: user.email, password: strongPassword }, { remoteAddress: "203.0.113.7" }))
        .statusCode,
    ).toBe(200);
  });

  it("locks a client address after 20 failures across accounts; X-Forwarded-For is ignored without TRUST_PROXY", async () => {
    const address = "203.0.113.200";
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const response = await login(
        { email: uniqueEmail("spray"), password: "wrong-password" },
        { remoteAddress: address, headers: { "x-forwarded-for": `10.1.0.${attempt}` } },
      );
      expect(response.statusCode).toBe(400);
    }
    const user = await createUserWithPassword(t);
    const refused = await login(
      { email: user.email, password: strongPassword },
      { remoteAddress: address, headers: { "x-forwarded-for": "10.9.9.9" } },
    );
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(locked);
    expect(
      (await login({ email: user.email, password: strongPassword }, { remoteAddress: "203.0.113.201" }))
        .statusCode,
    ).toBe(200);
  });

  describe("mobile_only", () => {
    it("keeps web tokens from users who are only mobile users or testers; ?m=1 gets one", async () => {
      const user = await createUserWithPassword(t);
      await addMembership(t, user.id, 3);
      await addMembership(t, user.id, 5);
      const web = await login({ email: user.email, password: strongPassword });
      expect(web.statusCode).toBe(200);
      expect(web.json()).toEqual({ mobile_only: true });
      expect(web.cookies.find((c) => c.name === "tarmac_token")).toBeUndefined();
      const mobile = await login({ email: user.email, password: strongPassword }, { query: "?m=1" });
      expect(mobile.json()).toEqual({ token: expect.any(String) });
    });

    it("lets in users with any other role, and users without organizations", async () => {
      const lone = await createUserWithPassword(t);
      expect((await login({ email: lone.email, password: strongPassword })).json()).toEqual({
        token: expect.any(String),
      });
      const mixed = await createUserWithPassword(t);
      await addMembership(t, mixed.id, 3);
      await addMembership(t, mixed.id, 4);
      expect((await login({ email: mixed.email, password: strongPassword })).json()).toEqual({
        token: expect.any(String),
      });
    });
  });
});

describe("login behind a trusted proxy", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: "true" });
  }, 60_000);
  afterAll(() => t.close());

  it("counts failures per X-Forwarded-For client", async () => {
    const login = (email: string, password: string, client: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/user/login/",
        payload: { email, password },
        remoteAddress: "127.0.0.1",
        headers: { "x-forwarded-for": client },
      });
    for (let attempt = 0; attempt < 20; attempt += 1) {
      expect((await login(uniqueEmail("proxy"), "wrong-password", "198.18.0.1")).statusCode).toBe(400);
    }
    const user = await createUserWithPassword(t);
    expect((await login(user.email, strongPassword, "198.18.0.1")).statusCode).toBe(429);
    expect((await login(user.email, strongPassword, "198.18.0.2")).statusCode).toBe(200);
  });
});
