import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { getToken, setToken } from "../../api/client.ts";
import { CURRENT_APP_ID_KEY, CURRENT_ORG_ID_KEY } from "../../api/token.ts";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { renderApp, stubApi } from "../../test/render.tsx";

describe("dashboard layout", () => {
  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => {});
  });

  it("logs out on the server from the menu, forgets the session and returns to /login", async () => {
    setToken("tok");
    localStorage.setItem(CURRENT_ORG_ID_KEY, "7");
    localStorage.setItem(CURRENT_APP_ID_KEY, "3");
    const calls = stubApi({
      "GET /api/profiles/": { status: 200, body: [makeProfile()] },
      "POST /api/user/logout/": { status: 204, body: null },
    });
    const user = userEvent.setup();
    const { router } = renderApp("/dashboard");
    await screen.findByText("Welcome, Ann.");
    await user.click(screen.getByRole("button", { name: "Log out" }));
    await screen.findByRole("heading", { name: "Log in" });
    expect(router.state.location.pathname).toBe("/login");
    expect(getToken()).toBeNull();
    expect(localStorage.getItem(CURRENT_ORG_ID_KEY)).toBeNull();
    expect(localStorage.getItem(CURRENT_APP_ID_KEY)).toBeNull();
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      "GET /api/profiles/",
      // The invitations prompt asks once the profile says the account is active.
      "GET /api/invitations/",
      "POST /api/user/logout/",
    ]);
  });

  it("shows a not-found panel for unknown dashboard paths", async () => {
    setToken("tok");
    stubApi({ "GET /api/profiles/": { status: 200, body: [makeProfile()] } });
    renderApp("/dashboard/unknown");
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Back to the dashboard" }).getAttribute("href")).toBe(
      "/dashboard",
    );
  });

  it("offers the first-run organization form to a user without organizations", async () => {
    setToken("tok");
    const newOrg = { id: 31, title: "Blue Sky Labs", subdomain: "blue-sky-labs", role: 1 };
    let created = false;
    const calls = stubApi({
      "GET /api/profiles/": () => ({
        status: 200,
        body: [
          makeProfile({
            org_data: created ? [makeOrg({ org_id: 31, title: "Blue Sky Labs" })] : [],
          }),
        ],
      }),
      "POST /api/organizations/": () => {
        created = true;
        return { status: 201, body: newOrg };
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard");
    await screen.findByRole("heading", { name: "Create your organization" });
    await user.type(screen.getByLabelText(/^Organization name/), "Blue Sky Labs");
    expect((screen.getByLabelText(/^Subdomain/) as HTMLInputElement).value).toBe("blue-sky-labs");
    await user.click(screen.getByRole("button", { name: "Create organization" }));
    expect(await screen.findByRole("heading", { name: "Blue Sky Labs" })).toBeTruthy();
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({
      title: "Blue Sky Labs",
      subdomain: "blue-sky-labs",
    });
    expect(localStorage.getItem(CURRENT_ORG_ID_KEY)).toBe("31");
  });
});
