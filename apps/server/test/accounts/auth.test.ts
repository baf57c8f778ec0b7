import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authHeader, createUserWithToken } from "../helpers/factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { codeFromMail, strongPassword, uniqueEmail, waitForMail } from "./helpers.ts";

describe("auth endpoints", () => {
  let t: TestApp;
  const post = (url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: "POST", url, payload, headers });

  async function registerUser(email = uniqueEmail()) {
    const response = await post("/api/user/register/", {
      email,
      password: strongPassword,
      first_name: "Ada",
      last_name: "Lovelace",
    });
    expect(response.statusCode).toBe(201);
    return { email, token: response.json().token as string };
  }

  beforeAll(async () => {
    t = await createTestApp();
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
  }, 60_000);
  afterAll(() => t.close());

  describe("register and activate", () => {
    it("registers an inactive user, signs them in and e-mails an activation link", async () => {
      const email = uniqueEmail("Reg");
      const response = await post("/api/user/register/", {
        email,
        password: strongPassword,
        first_name: "Ada",
        last_name: "Lovelace",
      });
      expect(response.statusCode).toBe(201);
      const { token } = response.json();
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(response.cookies.find((c) => c.name === "tarmac_token")?.value).toBe(token);
      const [mail] = await waitForMail(t, email.toLowerCase());
      expect(mail?.subject).toBe("Activate your Tarmac account");
      expect(mail?.text).toContain("http://tarmac.test/activate/");
      const code = codeFromMail(mail as NonNullable<typeof mail>);

      const info = await t.app.inject({ url: `/api/user/activate/${code}/` });
      expect(info.statusCode).toBe(200);
      expect(info.json()).toEqual({
        email: email.toLowerCase(),
        kind: "activation",
        requires_password: false,
        first_name: "Ada",
        last_name: "Lovelace",
      });

      const activated = await post(`/api/user/activate/${code}/`);
      expect(activated.statusCode).toBe(200);
      expect(activated.json().token).toEqual(expect.any(String));
      const again = await post(`/api/user/activate/${code}/`);
      expect(again.statusCode).toBe(404);
      expect((await t.app.inject({ url: `/api/user/activate/${code}/` })).statusCode).toBe(404);
      const { rows } = await t.database.sql.executeSql("select is_active from users where email = $1", [
        email.toLowerCase(),
      ]);
      expect(rows[0]?.is_active).toBe(true);
    });

    it("rejects weak passwords per field and duplicate e-mails", async () => {
      const email = uniqueEmail("weakling");
      const short = await post("/api/user/register/", { email, password: "xk3!q" });
      expect(short.statusCode).toBe(400);
      expect(short.json()).toEqual({
        password: ["This password is too short. It must contain at least 10 characters."],
      });
      const common = await post("/api/user/register/", { email, password: "Password123" });
      expect(common.json()).toEqual({ password: ["This password is too common."] });
      const similar = await post("/api/user/register/", { email, password: `${email.split("@")[0]}-2024!` });
      expect(similar.json()).toEqual({ password: ["The password is too similar to the e-mail address."] });
      const badEmail = await post("/api/user/register/", { email: "nope", password: strongPassword });
      expect(badEmail.statusCode).toBe(400);
      expect(Object.keys(badEmail.json())).toEqual(["email"]);
      await registerUser(email);
      const duplicate = await post("/api/user/register/", {
        email: email.toUpperCase(),
        password: strongPassword,
      });
      expect(duplicate.statusCode).toBe(400);
      expect(duplicate.json()).toEqual({ email: ["A user with this e-mail already exists."] });
      const both = await post("/api/user/register/", { email, password: "Password123" });
      expect(both.json()).toEqual({
        password: ["This password is too common."],
        email: ["A user with this e-mail already exists."],
      });
    });

    it("answers a duplicate, not a server error, when two sign-ups race for one address", async () => {
      const email = uniqueEmail("racer");
      const body = { email, password: strongPassword, first_name: "Ra", last_name: "Cer" };
      const answers = await Promise.all([
        post("/api/user/register/", body),
        post("/api/user/register/", body),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 400]);
      expect(answers.find((answer) => answer.statusCode === 400)?.json()).toEqual({
        email: ["A user with this e-mail already exists."],
      });
    });

    it("answers 404 for unknown and expired codes", async () => {
      expect((await t.app.inject({ url: "/api/user/activate/unknown-code-0123456789/" })).statusCode).toBe(
        404,
      );
      const email = uniqueEmail("expired");
      await registerUser(email);
      const [mail] = await waitForMail(t, email);
      const code = codeFromMail(mail as NonNullable<typeof mail>);
      await t.database.sql.executeSql(
        "update user_codes set expires_at = now() - interval '1 second' where user_id = (select id from users where email = $1)",
        [email],
      );
      expect((await t.app.inject({ url: `/api/user/activate/${code}/` })).statusCode).toBe(404);
      expect((await post(`/api/user/activate/${code}/`, {})).statusCode).toBe(404);
    });

    it("requires a valid password to accept an invitation", async () => {
      const inviter = await createUserWithToken(t);
      const email = uniqueEmail("invited");
      const invited = await post(
        "/api/user/invite/",
        { email, first_name: "In", last_name: "Vited" },
        authHeader(inviter.token),
      );
      expect(invited.statusCode).toBe(201);
      expect(invited.json()).toEqual({ detail: "The invitation has been sent." });
      const [mail] = await waitForMail(t, email);
      const code = codeFromMail(mail as NonNullable<typeof mail>);
      expect((await t.app.inject({ url: `/api/user/activate/${code}/` })).json()).toEqual({
        email,
        kind: "invitation",
        requires_password: true,
        // The names the inviter typed, for the invitation page to start from.
        first_name: "In",
        last_name: "Vited",
      });
      const missing = await post(`/api/user/activate/${code}/`, {});
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({ password: ["This field is required."] });
      const weak = await post(`/api/user/activate/${code}/`, { password: "123456789" });
      expect(weak.json().password).toContain("This password is too common.");
      const accepted = await post(`/api/user/activate/${code}/`, {
        password: strongPassword,
        first_name: "Ina",
      });
      expect(accepted.statusCode).toBe(200);
      const login = await post("/api/user/login/", { email, password: strongPassword });
      expect(login.json()).toEqual({ token: expect.any(String) });
    });
  });

  describe("invite and reinvite", () => {
    it("needs an active signed-in user and refuses known addresses", async () => {
      expect((await post("/api/user/invite/", { email: uniqueEmail() })).statusCode).toBe(401);
      const { token } = await registerUser();
      const inactive = await post("/api/user/invite/", { email: uniqueEmail() }, authHeader(token));
      expect(inactive.statusCode).toBe(403);
      expect(inactive.json()).toEqual({
        detail: "Activate your account first: check your e-mail for the activation link.",
      });
      const active = await createUserWithToken(t);
      const known = await post("/api/user/invite/", { email: active.user.email }, authHeader(active.token));
      expect(known.json()).toEqual({ email: ["A user with this e-mail already exists."] });
      const invalid = await post("/api/user/invite/", { email: "x" }, authHeader(active.token));
      expect(Object.keys(invalid.json())).toEqual(["email"]);
    });

    it("limits invitations to 30 an hour per user", async () => {
      const active = await createUserWithToken(t);
      await t.database.sql.executeSql(
        "insert into login_throttle (key, failures, window_started_at) values ($1, 30, now())",
        [`invite:user:${active.user.id}`],
      );
      const response = await post("/api/user/invite/", { email: uniqueEmail() }, authHeader(active.token));
      expect(response.statusCode).toBe(429);
      expect(response.headers["retry-after"]).toBe("3600");
      expect(response.json()).toEqual({ detail: "Too many requests. Try again in 60 minutes." });
    });

    it("resends the activation link, says the same for unknown addresses, and allows 3 an hour", async () => {
      const { email } = await registerUser();
      const detail = {
        detail: "If the address has a pending activation or invitation, a new e-mail is on its way.",
      };
      const first = await post("/api/user/reinvite/", { email });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual(detail);
      const mails = await waitForMail(t, email, 2);
      expect(mails.map((m) => m.subject)).toEqual([
        "Activate your Tarmac account",
        "Activate your Tarmac account",
      ]);
      expect((await post("/api/user/reinvite/", { email: uniqueEmail("nobody") })).json()).toEqual(detail);
      expect((await post("/api/user/reinvite/", { email })).statusCode).toBe(200);
      expect((await post("/api/user/reinvite/", { email })).statusCode).toBe(200);
      const limited = await post("/api/user/reinvite/", { email });
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(3500);
      expect((await post("/api/user/reinvite/", {})).json()).toEqual({ email: expect.any(Array) });
    });
  });

  describe("logout", () => {
    it("revokes the presented token and clears the cookie", async () => {
      const { token } = await createUserWithToken(t);
      const out = await post("/api/user/logout/", undefined, authHeader(token));
      expect(out.statusCode).toBe(204);
      const cleared = out.cookies.find((c) => c.name === "tarmac_token");
      expect(cleared?.value).toBe("");
      const after = await post("/api/user/logout/", undefined, authHeader(token));
      expect(after.statusCode).toBe(401);
      expect((await post("/api/user/logout/")).statusCode).toBe(401);
    });
  });

  describe("password reset and change", () => {
    const requested = { detail: "If the address is registered, a reset code is on its way." };

    it("e-mails a one-hour code, sets the password with it once and signs out every session", async () => {
      const { email, token } = await registerUser();
      const unknown = await post("/api/user/password/update/", { email: uniqueEmail("ghost") });
      expect(unknown.json()).toEqual(requested);
      const asked = await post("/api/user/password/update/", { email });
      expect(asked.statusCode).toBe(200);
      expect(asked.json()).toEqual(requested);
      const mails = await waitForMail(t, email, 2);
      const reset = mails.find((m) => m.subject === "Reset your Tarmac password");
      expect(reset?.text).toContain("http://tarmac.test/update-password?code=");
      const code = codeFromMail(reset as NonNullable<typeof reset>);
      const weak = await post("/api/user/password/update/", { code, password: "qwertyuiop" });
      expect(weak.json()).toEqual({ password: ["This password is too common."] });
      const noPassword = await post("/api/user/password/update/", { code });
      expect(noPassword.json()).toEqual({ password: ["This field is required."] });
      const done = await post("/api/user/password/update/", { code, password: "A-new-long-passphrase" });
      expect(done.statusCode).toBe(200);
      expect(done.json()).toEqual({ detail: "Your password has been set. Sign in with the new password." });
      const reused = await post("/api/user/password/update/", { code, password: "Another-passphrase-1" });
      expect(reused.json()).toEqual({ code: ["This code is invalid or has expired."] });
      expect((await post("/api/user/logout/", undefined, authHeader(token))).statusCode).toBe(401);
      const login = await post("/api/user/login/", { email, password: "A-new-long-passphrase" });
      expect(login.statusCode).toBe(200);
      expect((await post("/api/user/password/update/", {})).json()).toEqual({
        email: ["This field is required."],
      });
    });

    it("refuses an expired reset code", async () => {
      const { email } = await registerUser();
      await post("/api/user/password/update/", { email });
      const mails = await waitForMail(t, email, 2);
      const reset = mails.find((m) => m.subject === "Reset your Tarmac password");
      await t.database.sql.executeSql(
        "update user_codes set expires_at = now() - interval '1 second' where kind = 'password_reset'",
      );
      const response = await post("/api/user/password/update/", {
        code: codeFromMail(reset as NonNullable<typeof reset>),
        password: "A-new-long-passphrase",
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: ["This code is invalid or has expired."] });
    });

    it("changes the password with the old one and keeps only the current session", async () => {
      const { email, token } = await registerUser();
      const other = (await post("/api/user/login/", { email, password: strongPassword })).json().token;
      const url = "/api/user/password/change/";
      expect((await post(url, { old_password: "x", new_password: "y" })).statusCode).toBe(401);
      const wrong = await post(
        url,
        { old_password: "wrong-password", new_password: "A-new-long-passphrase" },
        authHeader(token),
      );
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ old_password: ["Your old password was entered incorrectly."] });
      const weak = await post(
        url,
        { old_password: strongPassword, new_password: "short" },
        authHeader(token),
      );
      expect(Object.keys(weak.json())).toEqual(["new_password"]);
      const missing = await post(url, { old_password: strongPassword }, authHeader(token));
      expect(Object.keys(missing.json())).toEqual(["new_password"]);
      const ok = await post(
        url,
        { old_password: strongPassword, new_password: "A-new-long-passphrase" },
        authHeader(token),
      );
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ detail: "Your password has been changed." });
      expect((await post("/api/user/logout/", undefined, authHeader(other))).statusCode).toBe(401);
      expect((await post("/api/user/logout/", undefined, authHeader(token))).statusCode).toBe(204);
    });
  });
});
