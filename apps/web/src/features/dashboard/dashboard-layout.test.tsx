import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getToken, setToken } from "../../api/client.ts";
import { CURRENT_ORG_ID_KEY } from "../../api/token.ts";
import { jsonResponse, renderApp } from "../../test/render.tsx";

describe("dashboard layout", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("logs out on the server, forgets the session and returns to /login", async () => {
    setToken("tok");
    localStorage.setItem(CURRENT_ORG_ID_KEY, "9");
    const fetchMock = vi.fn(async () => jsonResponse(204, null));
    vi.stubGlobal("fetch", fetchMock);
    const user = userEvent.setup();
    const { router } = renderApp("/dashboard");
    await user.click(await screen.findByRole("button", { name: "Log out" }));
    await screen.findByRole("heading", { name: "Log in" });
    expect(router.state.location.pathname).toBe("/login");
    expect(getToken()).toBeNull();
    expect(localStorage.getItem(CURRENT_ORG_ID_KEY)).toBeNull();
    expect(fetchMock.mock.calls.map((call) => (call as unknown[])[0])).toEqual(["/api/user/logout/"]);
  });

  it("shows a not-found panel for unknown dashboard paths", async () => {
    setToken("tok");
    renderApp("/dashboard/unknown");
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Back to the dashboard" }).getAttribute("href")).toBe(
      "/dashboard",
    );
  });
});
