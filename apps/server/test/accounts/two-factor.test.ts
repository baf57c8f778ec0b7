import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/platform/crypto/tokens.ts";
import { authHeader } from "../helpers/factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { createUserWithPassword, strongPassword } from "./helpers.ts";

describe("two-factor authentication", () => {
  let t: TestApp;
  const call = (method: "GET" | "POST", url: string, token?: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: token ? authHeader(token) : {} });
  const login = (email: string, otp?: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/user/login/",
      payload: { email, password: strongPassword, otp },
    });

  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(() => t.close());

  it("answers 401 without a token", async () => {
    expect((await call("GET", "/api/user/get-2fa-key/")).statusCode).toBe(401);
    expect(
      (await call("POST", "/api/user/check-2fa-token/", undefined, { token: "123456" })).statusCode,
    ).toBe(401);
    expect((await call("GET", "/api/user/recovery-codes-2fa/")).statusCode).toBe(401);
    expect((await call("POST", "/api/user/disable-2fa/", undefined, { password: "x" })).statusCode).toBe(401);
  });

  it("runs setup, login with TOTP, replay refusal, recovery codes and disabling end to end", async () => {
    const user = await createUserWithPassword(t);
    const session = (await login(user.email)).json().token as string;

    expect((await call("GET", "/api/user/recovery-codes-2fa/", session)).statusCode).toBe(400);
    expect((await call("POST", "/api/user/check-2fa-token/", session, { token: "123456" })).json()).toEqual({
      detail: "Request a two-factor key first.",
    });
    const keyResponse = await call("GET", "/api/user/get-2fa-key/", session);
    expect(keyResponse.statusCode).toBe(200);
    const key = keyResponse.json();
    expect(key.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(key.otpauth_uri).toBe(
      `otpauth://totp/Tarmac:${encodeURIComponent(user.email)}?secret=${key.secret}&issuer=Tarmac`,
    );
    expect(key.qr_code).toMatch(/^data:image\/png;base64,/);

    const wrong = await call("POST", "/api/user/check-2fa-token/", session, { token: "000000" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ token: ["Invalid code."] });
    expect((await call("POST", "/api/user/check-2fa-token/", session, {})).statusCode).toBe(400);

    const now = Math.floor(Date.now() / 1000);
    const enable = await call("POST", "/api/user/check-2fa-token/", session, {
      token: await generate({ secret: key.secret, epoch: now }),
    });
    expect(enable.statusCode).toBe(200);
    const { two_factor_enabled, recovery_codes } = enable.json();
    expect(two_factor_enabled).toBe(true);
    expect(recovery_codes).toHaveLength(10);
    expect(new Set(recovery_codes).size).toBe(10);
    for (const code of recovery_codes)
      expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect((await call("GET", "/api/user/get-2fa-key/", session)).json()).toEqual({
      detail: "Two-factor authentication is already enabled.",
    });

    // The secret is sealed and the recovery codes hashed.
    const { rows: userRows } = await t.database.sql.executeSql(
      "select two_factor_secret, two_factor_enabled from users where id = $1",
      [user.id],
    );
    expect(userRows[0]?.two_factor_enabled).toBe(true);
    expect(String(userRows[0]?.two_factor_secret)).toMatch(/^v1\./);
    expect(String(userRows[0]?.two_factor_secret)).not.toContain(key.secret);
    const { rows: codeRows } = await t.database.sql.executeSql(
      "select code_hash from recovery_codes where user_id = $1 order by id",
      [user.id],
    );
    expect(codeRows.map((row) => row.code_hash).sort()).toEqual(
      recovery_codes.map((code: string) => hashToken(code.replaceAll("-", ""))).sort(),
    );

    expect((await login(user.email)).json()).toEqual({ two_factor_required: true });
    expect((await login(user.email, "")).json()).toEqual({ two_factor_required: true });
    const bad = await login(user.email, "999999");
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ otp: ["Invalid code."] });

    // The code used to enable belongs to an accepted step, so it cannot sign in.
    const replayedEnable = await login(user.email, await generate({ secret: key.secret, epoch: now }));
    expect(replayedEnable.json()).toEqual({ otp: ["Invalid code."] });
    const nextCode = await generate({ secret: key.secret, epoch: now + 30 });
    const withTotp = await login(user.email, nextCode);
    expect(withTotp.statusCode).toBe(200);
    expect(withTotp.json()).toEqual({ token: expect.any(String) });
    expect((await login(user.email, nextCode)).json()).toEqual({ otp: ["Invalid code."] });

    const recovery = recovery_codes[0] as string;
    expect((await login(user.email, recovery.toUpperCase())).json()).toEqual({ token: expect.any(String) });
    expect((await login(user.email, recovery)).json()).toEqual({ otp: ["Invalid code."] });

    const renewed = await call("GET", "/api/user/recovery-codes-2fa/", session);
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json().recovery_codes as string[];
    expect(fresh).toHaveLength(10);
    expect((await login(user.email, recovery_codes[1])).json()).toEqual({ otp: ["Invalid code."] });
    expect((await login(user.email, fresh[0])).json()).toEqual({ token: expect.any(String) });

    const noProof = await call("POST", "/api/user/disable-2fa/", session, {});
    expect(noProof.json()).toEqual({ non_field_errors: ["Enter a code from your app or your password."] });
    const wrongPassword = await call("POST", "/api/user/disable-2fa/", session, {
      password: "wrong-password",
    });
    expect(wrongPassword.json()).toEqual({ password: ["Wrong password."] });
    const wrongToken = await call("POST", "/api/user/disable-2fa/", session, { token: "111111" });
    expect(wrongToken.json()).toEqual({ token: ["Invalid code."] });
    const disabled = await call("POST", "/api/user/disable-2fa/", session, { password: strongPassword });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toEqual({ two_factor_enabled: false });
    expect((await login(user.email)).json()).toEqual({ token: expect.any(String) });
    const { rows: after } = await t.database.sql.executeSql(
      "select (select count(*)::int from recovery_codes where user_id = $1) as codes, two_factor_secret from users where id = $1",
      [user.id],
    );
    expect(after[0]).toEqual({ codes: 0, two_factor_secret: null });
  });

  it("disables with a current TOTP code, and disableTwoFactor() works without proof", async () => {
    const user = await createUserWithPassword(t);
    const session = (await login(user.email)).json().token as string;
    const { secret } = (await call("GET", "/api/user/get-2fa-key/", session)).json();
    const now = Math.floor(Date.now() / 1000);
    await call("POST", "/api/user/check-2fa-token/", session, {
      token: await generate({ secret, epoch: now - 30 }),
    });
    const disabled = await call("POST", "/api/user/disable-2fa/", session, {
      token: await generate({ secret, epoch: now }),
    });
    expect(disabled.json()).toEqual({ two_factor_enabled: false });

    const again = (await call("GET", "/api/user/get-2fa-key/", session)).json();
    await call("POST", "/api/user/check-2fa-token/", session, {
      token: await generate({ secret: again.secret }),
    });
    expect(await t.services.twoFactor.isEnabled(user.id)).toBe(true);
    await t.services.twoFactor.disableTwoFactor(user.id);
    expect(await t.services.twoFactor.isEnabled(user.id)).toBe(false);
  });
});
