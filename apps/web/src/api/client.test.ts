import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setTestCookie } from "../test/cookies.ts";
import { logout } from "./auth.ts";
import { ApiError, api, getToken, registerNavigator, setToken } from "./client.ts";
import { buildTokenCookieName, CURRENT_APP_ID_KEY, CURRENT_ORG_ID_KEY, isLoggedIn } from "./token.ts";

interface RecordedCall {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

function stubFetch(status: number, body: unknown): RecordedCall[] {
  const calls: RecordedCall[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method ?? "GET", headers: new Headers(init.headers), body: init.body });
      const text = body === null ? null : typeof body === "string" ? body : JSON.stringify(body);
      return new Response(text, { status, headers: { "Content-Type": "application/json" } });
    }),
  );
  return calls;
}

function firstCall(calls: RecordedCall[]): RecordedCall {
  const call = calls[0];
  if (!call) throw new Error("fetch was not called");
  return call;
}

describe("api client", () => {
  const navigations: string[] = [];

  beforeEach(() => {
    navigations.length = 0;
    registerNavigator((path) => navigations.push(path));
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "debug").mockImplementation(() => {});
  });

  it("sends the stored token as 'Authorization: Token <token>' and JSON bodies", async () => {
    setToken("abc123");
    const calls = stubFetch(200, { ok: true });
    const reply = await api.post<{ ok: boolean }>("/api/teams/", { title: "QA" });
    const call = firstCall(calls);
    expect(reply).toEqual({ ok: true });
    expect(call.headers.get("Authorization")).toBe("Token abc123");
    expect(call.headers.get("Content-Type")).toBe("application/json");
    expect(call.body).toBe('{"title":"QA"}');
  });

  it("sends no Authorization header without a token", async () => {
    const calls = stubFetch(200, []);
    await api.get("/api/teams/");
    expect(firstCall(calls).headers.has("Authorization")).toBe(false);
  });

  it("passes FormData through without a JSON content type", async () => {
    const calls = stubFetch(201, {});
    const form = new FormData();
    form.append("title", "x");
    await api.post("/api/upload-csv-app-group/", form);
    const call = firstCall(calls);
    expect(call.body).toBe(form);
    expect(call.headers.has("Content-Type")).toBe(false);
  });

  it("adds query parameters and skips empty ones", async () => {
    const calls = stubFetch(200, []);
    await api.get("/api/orgs-users/", { query: { org: 4, page: 2, search: undefined, s: null } });
    expect(firstCall(calls).url).toBe("/api/orgs-users/?org=4&page=2");
  });

  it("sends X-XSRF-TOKEN from the XSRF-TOKEN cookie on non-GET requests to relative URLs", async () => {
    setTestCookie("XSRF-TOKEN", "xsrf-value");
    const calls = stubFetch(200, {});
    await api.delete("/api/teams/3/");
    expect(firstCall(calls).headers.get("X-XSRF-TOKEN")).toBe("xsrf-value");
  });

  it("sends no X-XSRF-TOKEN on GET requests", async () => {
    setTestCookie("XSRF-TOKEN", "xsrf-value");
    const calls = stubFetch(200, {});
    await api.get("/api/teams/");
    expect(firstCall(calls).headers.has("X-XSRF-TOKEN")).toBe(false);
  });

  it("sends no X-XSRF-TOKEN to absolute URLs", async () => {
    setTestCookie("XSRF-TOKEN", "xsrf-value");
    const calls = stubFetch(200, {});
    await api.post("https://other.example.org/api/teams/", {});
    await api.post("//other.example.org/api/teams/", {});
    expect(calls.map((call) => call.headers.has("X-XSRF-TOKEN"))).toEqual([false, false]);
  });

  it("navigates to /login on 401 and still rejects with the error", async () => {
    setToken("expired");
    stubFetch(401, { detail: "Invalid token." });
    const failure = api.get("/api/profiles/");
    await expect(failure).rejects.toMatchObject({
      status: 401,
      message: "Invalid token.",
      body: { detail: "Invalid token." },
    });
    expect(navigations).toEqual(["/login"]);
    expect(getToken()).toBeNull();
  });

  it("rejects with 'Server Error' when the failure has no detail, and logs it", async () => {
    stubFetch(500, null);
    const error = await api.get("/api/profiles/").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, message: "Server Error", body: null });
    expect(console.error).toHaveBeenCalledWith(error);
  });

  it("keeps field errors in the body of a 400 reply", async () => {
    stubFetch(400, { email: ["Enter a valid email address."] });
    const error = await api.post("/api/user/register/", {}).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      status: 400,
      message: "Server Error",
      body: { email: ["Enter a valid email address."] },
    });
    expect(navigations).toEqual([]);
  });

  it("logs an expected 4xx quietly, never as a console error", async () => {
    for (const status of [400, 401, 403, 404]) {
      stubFetch(status, { detail: "No." });
      const error = await api.get("/api/teams/").catch((caught: unknown) => caught);
      expect(console.debug).toHaveBeenCalledWith(error);
    }
    expect(console.error).not.toHaveBeenCalled();
  });

  it("turns a network failure into a status-0 'Server Error'", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    await expect(api.get("/api/teams/")).rejects.toMatchObject({ status: 0, message: "Server Error" });
  });
});

describe("token storage", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("names the cookie after the cookie domain with non-alphanumerics replaced", () => {
    expect(buildTokenCookieName("")).toBe("tarmac_token");
    expect(buildTokenCookieName("example.com")).toBe("tarmac_token_example_com");
    expect(buildTokenCookieName("apps-1.example.co.uk")).toBe("tarmac_token_apps_1_example_co_uk");
  });

  it("stores the token in the tarmac_token cookie and reports the session as logged in", () => {
    setToken("tok/with;chars");
    expect(document.cookie).toContain(`tarmac_token=${encodeURIComponent("tok/with;chars")}`);
    expect(getToken()).toBe("tok/with;chars");
    expect(isLoggedIn()).toBe(true);
  });

  it("logs out on the server, then clears the token and the remembered app and organization", async () => {
    setToken("abc");
    localStorage.setItem(CURRENT_APP_ID_KEY, "12");
    localStorage.setItem(CURRENT_ORG_ID_KEY, "3");
    const calls = stubFetch(200, {});
    await logout();
    const call = firstCall(calls);
    expect([call.method, call.url, call.headers.get("Authorization")]).toEqual([
      "POST",
      "/api/user/logout/",
      "Token abc",
    ]);
    expect(getToken()).toBeNull();
    expect(isLoggedIn()).toBe(false);
    expect(localStorage.getItem(CURRENT_APP_ID_KEY)).toBeNull();
    expect(localStorage.getItem(CURRENT_ORG_ID_KEY)).toBeNull();
  });
});
