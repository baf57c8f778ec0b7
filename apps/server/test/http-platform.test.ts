import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "../src/http/errors.ts";
import { authHeader, createUserWithToken } from "./helpers/factories.ts";
import { createTestApp, type TestApp } from "./helpers/test-app.ts";

let t: TestApp;

beforeAll(async () => {
  // Routes that exist only to exercise the shared HTTP machinery.
  t = await createTestApp({}, (app) => {
    app.get("/api/test/app-error/", async () => {
      throw new AppError("upload_error", 400, "INCORRECT FILE", undefined, 1);
    });
    app.get("/api/test/crash/", async () => {
      throw new Error("database password is hunter2");
    });
    app.post(
      "/api/test/echo/",
      { schema: { body: z.object({ email: z.email(), age: z.number().int() }) } },
      async (request) => ({
        ok: true,
        actor: request.actor?.userId ?? null,
      }),
    );
    app.get("/api/test/whoami/", async (request) => ({ actor: request.actor?.userId ?? null }));
    app.get("/api/test/limited/", { config: { rateLimit: { max: 2, timeWindow: 60_000 } } }, async () => ({
      ok: true,
    }));
  });
}, 60_000);

afterAll(() => t.close());

describe("health", () => {
  it("answers liveness", async () => {
    const response = await t.app.inject("/api/health/");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok" });
  });

  it("answers readiness after touching database and storage", async () => {
    const response = await t.app.inject("/api/health/ready/");
    expect(response.json()).toEqual({
      status: "ok",
      checks: { database: { ok: true }, storage: { ok: true } },
    });
  });
});

describe("readiness when storage fails", () => {
  it("answers 503 and names the failing check", async () => {
    const broken = await createTestApp({ STORAGE_LOCAL_DIR: "/dev/null/storage" });
    try {
      const response = await broken.app.inject("/api/health/ready/");
      expect(response.statusCode).toBe(503);
      const body = response.json();
      expect(body.status).toBe("unavailable");
      expect(body.checks.database).toEqual({ ok: true });
      expect(body.checks.storage.ok).toBe(false);
      expect(body.checks.storage.error).toMatch(/ENOTDIR|EEXIST|ENOENT/);
    } finally {
      await broken.close();
    }
  });
});

describe("rate limits", () => {
  it("throttles a route that opts in, with a JSON 429 and Retry-After", async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof t.app.inject>> | undefined;
    for (let i = 0; i < 3; i++) {
      last = await t.app.inject({ url: "/api/test/limited/", remoteAddress: "10.9.8.7" });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(last?.headers["retry-after"]).toBeDefined();
    expect(last?.json().detail).toMatch(/rate limit/i);
    const other = await t.app.inject({ url: "/api/test/limited/", remoteAddress: "10.9.8.8" });
    expect(other.statusCode).toBe(200);
  });
});

describe("errors", () => {
  it("renders an AppError with an error code as {error_code, detail}", async () => {
    const response = await t.app.inject("/api/test/app-error/");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error_code: 1, detail: "INCORRECT FILE" });
  });

  it("renders validation failures per field", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/test/echo/",
      payload: { email: "nope", age: 1.5 },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(["age", "email"]);
    expect(body.email).toHaveLength(1);
  });

  it("hides unknown errors behind a 500 with the request id", async () => {
    const response = await t.app.inject({
      url: "/api/test/crash/",
      headers: { "x-request-id": "req-12345678" },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ detail: "Internal server error.", request_id: "req-12345678" });
    expect(response.body).not.toContain("hunter2");
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const response = await t.app.inject("/api/no-such-thing/");
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: "Not found." });
  });
});

describe("request ids and headers", () => {
  it("echoes a well-formed request id and replaces a malformed one", async () => {
    const good = await t.app.inject({ url: "/api/health/", headers: { "x-request-id": "abcdef12-ok" } });
    expect(good.headers["x-request-id"]).toBe("abcdef12-ok");
    const bad = await t.app.inject({ url: "/api/health/", headers: { "x-request-id": "<script>" } });
    expect(bad.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("sends security headers", async () => {
    const response = await t.app.inject("/api/health/");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(response.headers["content-security-policy"]).not.toContain("upgrade-insecure-requests");
  });
});

describe("token authentication", () => {
  it("accepts a token in the Authorization header", async () => {
    const { user, token } = await createUserWithToken(t);
    const response = await t.app.inject({ url: "/api/test/whoami/", headers: authHeader(token) });
    expect(response.json()).toEqual({ actor: user.id });
  });

  it("refuses an unknown header token with 401", async () => {
    const response = await t.app.inject({ url: "/api/test/whoami/", headers: authHeader("x".repeat(43)) });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: "Invalid token." });
  });

  it("refuses a revoked token", async () => {
    const { token, tokenId } = await createUserWithToken(t);
    await t.services.tokens.revoke(tokenId);
    const response = await t.app.inject({ url: "/api/test/whoami/", headers: authHeader(token) });
    expect(response.statusCode).toBe(401);
  });

  it("refuses an expired session", async () => {
    const { user } = await createUserWithToken(t);
    const old = await t.services.tokens.issueSession(user.id, new Date(Date.now() - 15 * 24 * 3600 * 1000));
    const response = await t.app.inject({ url: "/api/test/whoami/", headers: authHeader(old.token) });
    expect(response.statusCode).toBe(401);
  });

  it("treats a stale cookie as signed out rather than an error", async () => {
    const response = await t.app.inject({
      url: "/api/test/whoami/",
      cookies: { tarmac_token: "y".repeat(43) },
    });
    expect(response.json()).toEqual({ actor: null });
  });
});

describe("XSRF double submit", () => {
  it("allows cookie-authenticated GET without the header", async () => {
    const { user, token } = await createUserWithToken(t);
    const response = await t.app.inject({ url: "/api/test/whoami/", cookies: { tarmac_token: token } });
    expect(response.json()).toEqual({ actor: user.id });
  });

  it("refuses a cookie-authenticated POST without a matching X-XSRF-TOKEN", async () => {
    const { token } = await createUserWithToken(t);
    const payload = { email: "a@b.co", age: 3 };
    const missing = await t.app.inject({
      method: "POST",
      url: "/api/test/echo/",
      payload,
      cookies: { tarmac_token: token },
    });
    expect(missing.statusCode).toBe(403);
    const mismatched = await t.app.inject({
      method: "POST",
      url: "/api/test/echo/",
      payload,
      cookies: { tarmac_token: token, "XSRF-TOKEN": "cookie-value" },
      headers: { "x-xsrf-token": "other-value" },
    });
    expect(mismatched.statusCode).toBe(403);
    expect(mismatched.json().detail).toContain("CSRF");
  });

  it("accepts a cookie-authenticated POST with the matching header", async () => {
    const { user, token } = await createUserWithToken(t);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/test/echo/",
      payload: { email: "a@b.co", age: 3 },
      cookies: { tarmac_token: token, "XSRF-TOKEN": "same-value-123" },
      headers: { "x-xsrf-token": "same-value-123" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true, actor: user.id });
  });

  it("does not require XSRF for header-authenticated writes", async () => {
    const { token } = await createUserWithToken(t);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/test/echo/",
      payload: { email: "a@b.co", age: 3 },
      headers: authHeader(token),
    });
    expect(response.statusCode).toBe(200);
  });

  it("issues a readable XSRF-TOKEN cookie to a client that has none", async () => {
    const response = await t.app.inject("/api/health/");
    const cookie = response.cookies.find((c) => c.name === "XSRF-TOKEN");
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(cookie?.httpOnly).toBeFalsy();
  });

  it("sets no XSRF cookie for calls signed with the Authorization header, which never need one", async () => {
    const { token } = await createUserWithToken(t);
    const signed = await t.app.inject({ url: "/api/test/whoami/", headers: authHeader(token) });
    expect(signed.statusCode).toBe(200);
    expect(signed.cookies.find((c) => c.name === "XSRF-TOKEN")).toBeUndefined();
    const byCookie = await t.app.inject({ url: "/api/test/whoami/", cookies: { tarmac_token: token } });
    expect(byCookie.cookies.find((c) => c.name === "XSRF-TOKEN")).toBeDefined();
  });
});

describe("OpenAPI", () => {
  it("serves an OpenAPI 3.1 document generated from the contract schemas", async () => {
    const response = await t.app.inject("/api/openapi.json");
    const doc = response.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.paths["/api/health/"].get.responses["200"]).toBeDefined();
    expect(doc.paths["/api/admin/outbox/"].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["page", "page_size", "to"]),
    );
    expect(doc.paths["/api/files/*"]).toBeUndefined();
  });

  it("serves interactive docs", async () => {
    const response = await t.app.inject("/api/docs/");
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("swagger");
  });
});
