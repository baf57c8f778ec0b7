import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { makeApp, makeVersion, pageOf } from "../../test/application-fixtures.ts";
import { makeLink } from "../../test/distribution-fixtures.ts";
import { renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";
import { defaultFilter, newestFirst } from "./mobile-apps-page.tsx";

const OLD = makeApp({
  id: 1,
  project_title: "Rocket",
  current_version: makeVersion({ date: "2026-01-01T00:00:00Z" }),
});
const NEW = makeApp({
  id: 2,
  project_title: "Comet",
  app_type: 1,
  current_version: makeVersion({ id: 200, app: 2, version: "3.0.0", date: "2026-03-01T00:00:00Z" }),
});

function serve(extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    "GET /api/profiles/": { status: 200, body: [makeProfile({ org_data: [makeOrg({ role: 3 })] })] },
    "GET /api/m/applications/?org=7&page=1&page_size=20": { status: 200, body: pageOf([OLD, NEW]) },
    ...extra,
  });
}

describe("mobile app area", () => {
  useSignedInTestSession();

  it("orders apps by their newest build and picks the phone's platform", () => {
    expect(newestFirst([OLD, NEW]).map((app) => app.id)).toEqual([2, 1]);
    expect(defaultFilter("android")).toBe("0");
    expect(defaultFilter("iphone")).toBe("1");
    expect(defaultFilter("ipad")).toBe("1");
    expect(defaultFilter("windows")).toBe("all");
  });

  it("lists the apps newest first and opens the app's install page", async () => {
    const user = userEvent.setup();
    const calls = serve({
      "GET /api/distributions/?app=2&page_size=100": {
        status: 200,
        body: pageOf([
          makeLink({ id: 9, app: 2, version: 200, key: "v" }),
          makeLink({ id: 8, app: 2, key: "comet-app" }),
        ]),
      },
      "GET /api/getapp/comet-app/": {
        status: 200,
        body: {
          title: "Comet",
          icon: null,
          organization: "Acme",
          description: "",
          access: "public",
          needs_password: false,
          expired: false,
          limit_reached: false,
          https: true,
          builds: [],
        },
      },
    });
    const { router } = renderApp("/dashboard/m");
    await screen.findByRole("heading", { name: "My apps" }, { timeout: 5000 });
    const cards = await screen.findAllByRole("article");
    expect(cards.map((card) => card.getAttribute("aria-label"))).toEqual(["Comet", "Rocket"]);
    expect(within(cards[0] as HTMLElement).getByText(/^3\.0\.0 \(42\)/)).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Install Comet" }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe("/getapp/comet-app"));
    expect(calls.some((call) => call.url === "/api/distributions/?app=2&page_size=100")).toBe(true);
  });

  it("filters by platform", async () => {
    const user = userEvent.setup();
    const calls = serve({
      "GET /api/m/applications/?org=7&page=1&page_size=20&mobile_type=1": {
        status: 200,
        body: pageOf([NEW]),
      },
    });
    renderApp("/dashboard/m");
    await screen.findAllByRole("article", {}, { timeout: 5000 });
    await user.click(screen.getByRole("radio", { name: "iOS" }));
    await vi.waitFor(() => expect(calls.some((call) => call.url.endsWith("mobile_type=1"))).toBe(true));
    await vi.waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(1));
    // Desktop builds are listed too, so their platforms are offered as filters.
    for (const platform of ["Windows", "macOS"])
      expect(screen.getByRole("radio", { name: platform })).toBeTruthy();
  });
});
