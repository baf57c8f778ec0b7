import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setToken } from "./api/client.ts";
import { routes } from "./router.tsx";
import { jsonResponse, renderApp } from "./test/render.tsx";

function describeRoute(route: { index?: boolean; path?: string }): string {
  return route.index ? "(index)" : (route.path ?? "");
}

describe("route table", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("keeps the order of spec §2, with pricing, blog and promo before ':page' and the catch-all", () => {
    expect(routes[0]?.children?.map(describeRoute)).toEqual([
      "(index)",
      "dashboard",
      "get-my-udid",
      "getapp",
      "getapp/*",
      "signup",
      "activate",
      "activate/:code",
      "login",
      "login-custom-client",
      "reset",
      "update-password",
      "not-found",
      "pricing",
      "blog",
      "blog/:slug",
      "promo",
      "faq",
      "whats-new",
      "sdk",
      ":page",
      "*",
    ]);
  });

  it("loads every area lazily", () => {
    const areas = routes[0]?.children?.filter((route) => !route.index && route.path !== "*") ?? [];
    expect(areas.filter((route) => typeof route.lazy !== "function").map(describeRoute)).toEqual([]);
  });

  it("redirects the empty path to /login", async () => {
    const { router } = renderApp("/");
    expect(await screen.findByRole("heading", { name: "Log in" })).toBeTruthy();
    expect(router.state.location.pathname).toBe("/login");
  });

  it("sends /dashboard without a token to /login", async () => {
    const { router } = renderApp("/dashboard");
    expect(await screen.findByRole("heading", { name: "Log in" })).toBeTruthy();
    expect(router.state.location.pathname).toBe("/login");
  });

  it("guards deeper dashboard paths too", async () => {
    const { router } = renderApp("/dashboard/apps/7");
    await screen.findByRole("heading", { name: "Log in" });
    expect(router.state.location.pathname).toBe("/login");
  });

  it("opens the dashboard with a stored token", async () => {
    setToken("abc");
    const { router } = renderApp("/dashboard");
    expect(await screen.findByRole("heading", { name: "Dashboard" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Log out" })).toBeTruthy();
    expect(router.state.location.pathname).toBe("/dashboard");
  });

  it("redirects unknown nested paths to /not-found", async () => {
    const { router } = renderApp("/no/such/place");
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeTruthy();
    expect(router.state.location.pathname).toBe("/not-found");
    expect(screen.getByRole("link", { name: "Go to the home page" }).getAttribute("href")).toBe("/");
  });

  it("sends a content page the server does not know to /not-found", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => jsonResponse(404, { detail: "Not found." })),
    );
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { router } = renderApp("/imprint");
    await screen.findByRole("heading", { name: "Page not found" });
    expect(router.state.location.pathname).toBe("/not-found");
    const asked = vi.mocked(fetch).mock.calls.map((call) => call[0]);
    expect(asked).toContain("/api/pages/imprint/?lang=en");
    // Before giving up it asked whether the address moved.
    expect(asked).toContain("/api/url-redirect/?url_old=%2Fimprint");
  });

  it("follows a redirect the server knows for a missing page", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) =>
        url.startsWith("/api/url-redirect/")
          ? jsonResponse(200, { url_old: "/impressum", url_new: "/pricing" })
          : url === "/api/tariffs/"
            ? jsonResponse(200, [])
            : jsonResponse(404, { detail: "Not found." }),
      ),
    );
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { router } = renderApp("/impressum");
    await waitFor(() => expect(router.state.location.pathname).toBe("/pricing"));
  });

  it("shows a content page's title and body", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) =>
        url.startsWith("/api/pages/imprint/")
          ? jsonResponse(200, {
              title: "Imprint",
              body: "Tarmac GmbH\n\nMain street 1",
              html: "<p>Tarmac GmbH</p>\n<p>Main street 1</p>",
            })
          : jsonResponse(404, { detail: "Not found." }),
      ),
    );
    renderApp("/imprint");
    expect(await screen.findByRole("heading", { name: "Imprint" })).toBeTruthy();
    expect(screen.getByText("Main street 1")).toBeTruthy();
    await waitFor(() => expect(document.title).toBe("Imprint · Tarmac"));
  });

  it("reaches /pricing instead of the generic page", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) =>
        url === "/api/tariffs/"
          ? jsonResponse(200, [
              { id: 1, title: "Team", price: 0, space_limit: 2048, build_limit: 0, projects_limit: 5 },
            ])
          : jsonResponse(404, { detail: "Not found." }),
      ),
    );
    const { router } = renderApp("/pricing");
    expect(await screen.findByRole("heading", { name: "Team" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Pricing" })).toBeTruthy();
    expect(screen.getByText("Storage: 2 GB")).toBeTruthy();
    expect(screen.getByText("Builds: unlimited")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/pricing");
    expect(vi.mocked(fetch).mock.calls.map((call) => call[0])).toContain("/api/tariffs/");
  });

  it("reaches /promo and /blog", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) =>
        url.startsWith("/api/blog/")
          ? jsonResponse(200, { count: 0, next: null, previous: null, results: [] })
          : jsonResponse(404, { detail: "Not found." }),
      ),
    );
    const promo = renderApp("/promo");
    expect(
      await screen.findByRole("heading", { name: "Ship your app builds to the right people" }),
    ).toBeTruthy();
    promo.unmount();
    renderApp("/blog");
    expect(await screen.findByText("No posts yet.")).toBeTruthy();
  });
});
