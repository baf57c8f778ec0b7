import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loggerOptions, serializeError } from "../../src/http/logging.ts";
import { redactUrl } from "../../src/http/redact-url.ts";
import { fixture, multipart, uploadNewApp } from "../builds/upload-helpers.ts";
import { authHeader } from "../helpers/factories.ts";
import { createOrganization } from "../helpers/org-factories.ts";
import { users } from "../helpers/tables.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

const nul = "\u0000";

describe("NUL characters and what the logs keep", () => {
  let t: TestApp;
  const lines: string[] = [];
  let owner: Awaited<ReturnType<typeof createOrganization>>["owner"];
  let organizationId: number;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    });
    t = await createTestApp({}, undefined, pino({ ...(loggerOptions("info") as object) }, sink));
    const created = await createOrganization(t);
    owner = created.owner;
    organizationId = created.organization.id;
  });
  afterAll(() => t.close());

  it("answers 400, never 500, wherever a NUL arrives", async () => {
    const json = (method: "POST" | "PUT" | "PATCH", url: string, payload: unknown, token?: string) =>
      t.app.inject({ method, url, payload: payload as object, headers: token ? authHeader(token) : {} });
    const attempts = [
      t.app.inject({ url: "/api/getapp/%00/" }),
      t.app.inject({ url: "/api/applications/?title=a%00b", headers: authHeader(owner.token) }),
      t.app.inject({ url: "/api/usersinorgs/?org=1&s=%00", headers: authHeader(owner.token) }),
      t.app.inject({ url: "/api/udid/lookup/?udid=%00", headers: authHeader(owner.token) }),
      json("POST", "/api/user/login/", { email: `a${nul}@example.test`, password: "x" }),
      json("POST", "/api/user/register/", {
        email: "nul@example.test",
        password: "Correct-Horse-Battery-91",
        first_name: `Ann${nul}`,
        last_name: "N",
      }),
      json("POST", "/api/user/password/update/", { email: `x${nul}@example.test` }),
      json("POST", "/api/organizations/", { title: `Org${nul}`, subdomain: "nul-org" }, owner.token),
      json("PATCH", `/api/organizations/${organizationId}/`, { title: `T${nul}` }, owner.token),
      json(
        "POST",
        "/api/teams/",
        { title: `Team${nul}`, organization: organizationId, users: [] },
        owner.token,
      ),
      json("PUT", `/api/profiles/${owner.user.id}/`, { first_name: nul, last_name: "x" }, owner.token),
      json("POST", "/api/testers/", { [`e${nul}mail`]: "a@b.c", app: 1 }, owner.token),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode, response.body).toBe(400);
    }
    const named = await json(
      "POST",
      "/api/organizations/",
      { title: `Org${nul}`, subdomain: "x-org" },
      owner.token,
    );
    expect(named.json()).toEqual({ title: ["NUL characters are not allowed."] });
  });

  it("refuses a NUL in a multipart field or file name", async () => {
    const field = multipart({ organization: `${organizationId}${nul}` }, fixture("android/modern.apk"));
    const name = multipart(
      { organization: organizationId },
      { ...fixture("android/modern.apk"), name: `a${nul}.apk` },
    );
    for (const body of [field, name]) {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/applicationadd/?preload=1",
        payload: body.payload,
        headers: { ...body.headers, ...authHeader(owner.token) },
      });
      expect(response.statusCode, response.body).toBe(400);
    }
  });

  it("never logs the API key of a CI upload URL", async () => {
    const app = await uploadNewApp(t, owner.token, organizationId, fixture("android/modern.apk"));
    const apiKey = await t.services.tokens.issueApiKey(owner.user.id);
    const body = multipart({}, { ...fixture("android/modern.apk"), field: "app" });
    await t.app.inject({
      method: "PUT",
      url: `/api/app_upload/${app.app_key}/${apiKey}/`,
      payload: body.payload,
      headers: body.headers,
    });
    const logged = lines.join("");
    expect(logged).toContain(`/api/app_upload/${app.app_key}/[redacted]/`);
    expect(logged).not.toContain(apiKey);
  });

  it("logs a failed query without its parameters", async () => {
    const secret = `$argon2id$v=19$secret-hash-${Date.now()}`;
    const error = await t.database.db
      .insert(users)
      .values({ email: `bad${nul}@example.test`, passwordHash: secret })
      .then(
        () => null,
        (failure: Error) => failure,
      );
    expect(error).not.toBeNull();
    const serialized = JSON.stringify(serializeError(error as Error));
    expect(serialized).toContain("Failed query");
    expect(serialized).not.toContain(secret);
  });

  it("redacts secrets in logged addresses", () => {
    expect(redactUrl("/api/user/activate/abc123/")).toBe("/api/user/activate/[redacted]/");
    expect(redactUrl("/api/dl/5/file/?expires=1&signature=zzz")).toBe(
      "/api/dl/5/file/?expires=1&signature=[redacted]",
    );
    expect(redactUrl("/api/applications/?title=x")).toBe("/api/applications/?title=x");
  });
});
