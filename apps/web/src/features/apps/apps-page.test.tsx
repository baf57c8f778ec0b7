import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { makeApp, makeVersion, pageOf } from "../../test/application-fixtures.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";

const BASE = "/api/applications/?org=7";
// The first visit loads the lazy route modules, which is slow on a busy machine.
// Generous: the whole suite shares two cores, and a passing wait returns at once.
const SLOW = { timeout: 15_000 };

function serve(role: number, replies: Record<string, ApiReply | (() => ApiReply)>) {
  return stubApi({
    "GET /api/profiles/": { status: 200, body: [makeProfile({ org_data: [makeOrg({ role })] })] },
    ...replies,
  });
}

const APPS = [
  makeApp({ id: 1, icon: "/icons/rocket.png" }),
  makeApp({
    id: 2,
    project_title: "Comet",
    title: "Comet",
    app_type: 1,
    environment: "staging",
    current_version: makeVersion({ version: "3.1", build_version_number: "7", app_type: 1 }),
  }),
  makeApp({
    id: 3,
    project_title: "Nova",
    title: "Nova",
    app_type: 3,
    current_version: null,
    new_version: "",
  }),
];

describe("apps list", () => {
  useSignedInTestSession();

  it("lists apps with icon or platform placeholder, version and build, and environment", async () => {
    serve(2, { [`GET ${BASE}&page=1&page_size=20`]: { status: 200, body: pageOf(APPS) } });
    renderApp("/dashboard/apps");
    const comet = await screen.findByRole("link", { name: "Comet" }, SLOW);
    expect(comet.getAttribute("href")).toBe("/dashboard/apps/2");
    const row = comet.closest("tr") as HTMLElement;
    expect(within(row).getByText("iOS")).toBeTruthy();
    expect(within(row).getByText("3.1 (7)")).toBeTruthy();
    expect(within(row).getByText("staging")).toBeTruthy();
    expect(row.querySelector("[data-placeholder='iOS']")).not.toBeNull();
    const rocket = screen.getByRole("link", { name: "Rocket" }).closest("tr") as HTMLElement;
    expect(rocket.querySelector("img")?.getAttribute("src")).toBe("/icons/rocket.png");
    const nova = screen.getByRole("link", { name: "Nova" }).closest("tr") as HTMLElement;
    expect(within(nova).getByText("No builds yet")).toBeTruthy();
    expect(
      within(screen.getByRole("navigation", { name: "Main menu" })).getByRole("link", { name: "Apps" }),
    ).toBeTruthy();
  });

  it("searches by title after a pause and filters by platform", async () => {
    const calls = serve(2, {
      [`GET ${BASE}&page=1&page_size=20`]: { status: 200, body: pageOf(APPS) },
      [`GET ${BASE}&title=com&page=1&page_size=20`]: { status: 200, body: pageOf([APPS[1]]) },
      [`GET ${BASE}&title=com&mobile_type=1&page=1&page_size=20`]: { status: 200, body: pageOf([APPS[1]]) },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/apps");
    await screen.findByRole("link", { name: "Rocket" }, SLOW);
    await user.type(screen.getByRole("searchbox", { name: "Search by title" }), "com");
    await waitFor(() => expect(screen.queryByRole("link", { name: "Rocket" })).toBeNull(), SLOW);
    const urls = calls.map((call) => call.url).filter((url) => url.startsWith("/api/applications/"));
    // Only the settled text is searched, not every keystroke.
    expect(urls.filter((url) => url.includes("title="))).toEqual([`${BASE}&title=com&page=1&page_size=20`]);
    await user.click(screen.getByRole("radio", { name: "iOS" }));
    await waitFor(() =>
      expect(calls.map((call) => call.url)).toContain(`${BASE}&title=com&mobile_type=1&page=1&page_size=20`),
    );
  });

  it("pages through the list", async () => {
    const calls = serve(2, {
      [`GET ${BASE}&page=1&page_size=20`]: { status: 200, body: pageOf(APPS, 45) },
      [`GET ${BASE}&page=3&page_size=20`]: { status: 200, body: pageOf([APPS[2]], 45) },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/apps");
    await screen.findByRole("link", { name: "Rocket" }, SLOW);
    await user.click(screen.getByRole("button", { name: "3" }));
    await waitFor(() => expect(calls.map((call) => call.url)).toContain(`${BASE}&page=3&page_size=20`), SLOW);
    await waitFor(() => expect(screen.queryByRole("link", { name: "Rocket" })).toBeNull(), SLOW);
  });

  it("offers an admin to add the first app from the empty state", async () => {
    serve(1, { [`GET ${BASE}&page=1&page_size=20`]: { status: 200, body: pageOf([]) } });
    const user = userEvent.setup();
    renderApp("/dashboard/apps");
    expect(await screen.findByText("No apps yet", {}, SLOW)).toBeTruthy();
    const buttons = screen.getAllByRole("button", { name: "Add app" });
    expect(buttons).toHaveLength(2);
    await user.click(buttons[1] as HTMLElement);
    expect(await screen.findByRole("dialog", { name: "Add app" })).toBeTruthy();
  });

  it("shows a tester the empty state without the add action", async () => {
    serve(5, { [`GET ${BASE}&page=1&page_size=20`]: { status: 200, body: pageOf([]) } });
    renderApp("/dashboard/apps");
    expect(await screen.findByText("Apps you are given access to appear here.", {}, SLOW)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Add app" })).toBeNull();
  });

  it("shows a skeleton while loading and an error state with retry", async () => {
    let attempts = 0;
    serve(2, {
      [`GET ${BASE}&page=1&page_size=20`]: () => {
        attempts += 1;
        return attempts === 1 ? { status: 403, body: { detail: "no" } } : { status: 200, body: pageOf(APPS) };
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/apps");
    expect(await screen.findByRole("status", { name: "Loading…" }, SLOW)).toBeTruthy();
    await user.click(await screen.findByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("link", { name: "Rocket" })).toBeTruthy();
  });
});
