import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeFromMail, createUserWithPassword, strongPassword, waitForMail } from "../accounts/helpers.ts";
import { authHeader } from "../helpers/factories.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

describe("credentials someone else may hold can all be revoked", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.platform.jobs.work({ pollingIntervalSeconds: 0.5 });
  });
  afterAll(() => t.close());

  const works = async (token: string) =>
    (await t.app.inject({ url: "/api/profiles/", headers: authHeader(token) })).statusCode === 200;
  const signIn = async (email: string) =>
    (
      await t.app.inject({
        method: "POST",
        url: "/api/user/login/",
        payload: { email, password: strongPassword },
      })
    ).json().token as string;
  async function resetWith(email: string, extra: Record<string, unknown>) {
    await t.app.inject({ method: "POST", url: "/api/user/password/update/", payload: { email } });
    const [mail] = await waitForMail(t, email);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/user/password/update/",
      payload: {
        code: codeFromMail(mail as NonNullable<typeof mail>),
        password: "A-new-long-passphrase",
        ...extra,
      },
    });
    expect(response.statusCode).toBe(200);
  }

  it("revokes API keys on a password reset when asked to", async () => {
    const person = await createUserWithPassword(t);
    const apiKey = await t.services.tokens.issueApiKey(person.id);
    const session = await signIn(person.email);
    await resetWith(person.email, { revoke_api_keys: true });
    expect(await works(session)).toBe(false);
    expect(await works(apiKey)).toBe(false);
  });

  it("keeps API keys on a plain reset, so CI keeps running", async () => {
    const person = await createUserWithPassword(t);
    const apiKey = await t.services.tokens.issueApiKey(person.id);
    await resetWith(person.email, {});
    expect(await works(apiKey)).toBe(true);
  });

  it("signs out everywhere: every session, this one included, and the API keys", async () => {
    const person = await createUserWithPassword(t);
    const apiKey = await t.services.tokens.issueApiKey(person.id);
    const laptop = await signIn(person.email);
    const phone = await signIn(person.email);
    const other = await createUserWithPassword(t);
    const bystander = await signIn(other.email);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/user/logout/everywhere/",
      headers: authHeader(laptop),
    });
    expect(response.statusCode).toBe(204);
    expect(await works(laptop)).toBe(false);
    expect(await works(phone)).toBe(false);
    expect(await works(apiKey)).toBe(false);
    expect(await works(bystander)).toBe(true);
    expect((await t.app.inject({ method: "POST", url: "/api/user/logout/everywhere/" })).statusCode).toBe(
      401,
    );
  });
});
