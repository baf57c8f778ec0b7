import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { pageOf } from "../../test/application-fixtures.ts";
import { makeActivity, makeAdminOrganization, TARIFFS } from "../../test/plan-fixtures.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";

const PAGE_URL = "/dashboard/admin/organizations";
const LIST_URL = "GET /api/admin/organizations/?page=1&page_size=20";
const ACTIVITY_URL = "GET /api/admin/organizations/7/activity/?page=1&page_size=10";

const ACME = makeAdminOrganization();
const GLOBEX = makeAdminOrganization({
  id: 8,
  title: "Globex",
  subdomain: "globex",
  owner: { id: 12, email: "gus@globex.test", name: "" },
  plan: { id: 1, code: "free", title: "Free" },
  limits: { space_limit: 2048, build_limit: 100, projects_limit: 3, user_limit: 1 },
  overrides: { user_limit: 1 },
  usage: { space_used: 1536, builds_count: 1, projects_count: 3, users_count: 1 },
});

function serve(replies: Record<string, ApiReply | (() => ApiReply)> = {}, isInstanceAdmin = true) {
  return stubApi({
    "GET /api/profiles/": {
      status: 200,
      body: [makeProfile({ org_data: [makeOrg()], is_instance_admin: isInstanceAdmin })],
    },
    [LIST_URL]: { status: 200, body: pageOf([ACME, GLOBEX]) },
    "GET /api/tariffs/": { status: 200, body: TARIFFS },
    [ACTIVITY_URL]: { status: 200, body: pageOf([]) },
    ...replies,
  });
}

describe("Administration → Organizations", () => {
  useSignedInTestSession();

  it("lists every organization with owner, plan, usage against its limits and creation date", async () => {
    serve();
    renderApp(PAGE_URL);
    expect(await screen.findByRole("heading", { name: "Organizations", level: 1 })).toBeTruthy();
    expect(await screen.findByText("2 organizations")).toBeTruthy();
    const rows = screen.getAllByRole("row");
    const acme = within(rows[1] as HTMLElement);
    expect(acme.getByText("Acme")).toBeTruthy();
    expect(acme.getByText("acme")).toBeTruthy();
    expect(acme.getByText("Olga Owner")).toBeTruthy();
    expect(acme.getByText("olga@acme.test")).toBeTruthy();
    expect(acme.getByText("Unlimited")).toBeTruthy();
    expect(acme.getByText("12.5 MB storage, no limit")).toBeTruthy();
    expect(acme.getByText("5 builds, no limit")).toBeTruthy();
    expect(acme.getByText("2 projects, no limit")).toBeTruthy();
    expect(acme.getByText("1 user, no limit")).toBeTruthy();
    expect(acme.getByText("March 4, 2026")).toBeTruthy();

    const globex = within(rows[2] as HTMLElement);
    expect(globex.getByText("gus@globex.test")).toBeTruthy();
    expect(globex.getByText("Free")).toBeTruthy();
    expect(globex.getByText("Own limits")).toBeTruthy();
    expect(globex.getByText("1.5 GB of 2 GB storage")).toBeTruthy();
    expect(globex.getByText("1 of 100 builds")).toBeTruthy();
    expect(globex.getByText("3 of 3 projects")).toBeTruthy();
    expect(globex.getByText("1 of 1 user")).toBeTruthy();
    expect(globex.getByRole("button", { name: "Manage the plan and limits of Globex" })).toBeTruthy();
  });

  it("searches by what was typed once typing pauses, and says when nothing matches", async () => {
    const calls = serve({
      "GET /api/admin/organizations/?page=1&page_size=20&search=nobody%40x.test": {
        status: 200,
        body: pageOf([]),
      },
    });
    const user = userEvent.setup();
    renderApp(PAGE_URL);
    await screen.findByText("2 organizations");
    await user.type(
      screen.getByRole("searchbox", { name: "Search by name, subdomain or owner's e-mail" }),
      "nobody@x.test",
    );
    expect(await screen.findByText("No organization matches this search.")).toBeTruthy();
    expect(screen.getByText("0 organizations")).toBeTruthy();
    const searches = calls.filter((call) => call.url.startsWith("/api/admin/organizations/?"));
    expect(searches.map((call) => call.url)).toEqual([
      "/api/admin/organizations/?page=1&page_size=20",
      "/api/admin/organizations/?page=1&page_size=20&search=nobody%40x.test",
    ]);
  });

  it("says so when there are no organizations, and offers a retry when the list fails", async () => {
    serve({ [LIST_URL]: { status: 200, body: pageOf([]) } });
    const first = renderApp(PAGE_URL);
    expect(await screen.findByText("There are no organizations on this instance yet.")).toBeTruthy();
    first.unmount();

    let answers = 0;
    serve({
      [LIST_URL]: () => {
        answers += 1;
        return answers === 1
          ? { status: 403, body: { detail: "Forbidden" } }
          : { status: 200, body: pageOf([ACME]) };
      },
    });
    const user = userEvent.setup();
    renderApp(PAGE_URL);
    const alert = await screen.findByRole("alert");
    expect(
      within(alert).getByText("We could not load this page. Check your connection and try again."),
    ).toBeTruthy();
    await user.click(within(alert).getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("1 organization")).toBeTruthy();
  });

  it("keeps the page from people who do not administer the instance", async () => {
    const calls = serve({}, false);
    renderApp(PAGE_URL);
    expect(
      await screen.findByText("This page is for the administrators of this Tarmac instance."),
    ).toBeTruthy();
    expect(calls.some((call) => call.url.startsWith("/api/admin/"))).toBe(false);
  });

  it("puts an organization on another plan with its own project limit, then shows the log", async () => {
    const saved = makeAdminOrganization({
      plan: { id: 1, code: "free", title: "Free" },
      limits: { space_limit: 2048, build_limit: 100, projects_limit: 1, user_limit: 5 },
      overrides: { projects_limit: 1 },
    });
    let activity = pageOf<ReturnType<typeof makeActivity>>([]);
    const calls = serve({
      "PATCH /api/admin/organizations/7/": () => {
        activity = pageOf([
          makeActivity({
            id: 2,
            action: "limits.changed",
            details: { from: {}, to: { projects_limit: 1 }, source: "admin" },
          }),
          makeActivity(),
        ]);
        return { status: 200, body: saved };
      },
      [ACTIVITY_URL]: () => ({ status: 200, body: activity }),
    });
    const user = userEvent.setup();
    renderApp(PAGE_URL);
    await user.click(await screen.findByRole("button", { name: "Manage the plan and limits of Acme" }));
    const dialog = await screen.findByRole("dialog", { name: "Acme: plan and limits" });
    expect(within(dialog).getByText("Subdomain acme · owner olga@acme.test")).toBeTruthy();
    expect(await within(dialog).findByText("No plan or limit changes yet.")).toBeTruthy();

    const plan = (await within(dialog).findByLabelText(/^Plan/)) as HTMLSelectElement;
    expect(plan.value).toBe("unlimited");
    expect(
      within(dialog).getAllByRole("radio", { name: "The plan's (unlimited)", checked: true }),
    ).toHaveLength(4);
    await user.selectOptions(plan, "free");
    // The plan's values follow the plan chosen, with their units.
    expect(within(dialog).getByRole("radio", { name: "The plan's (2 GB)" })).toBeTruthy();
    expect(within(dialog).getByRole("radio", { name: "The plan's (3)" })).toBeTruthy();

    const projects = within(dialog).getByRole("radiogroup", { name: "Projects" });
    await user.click(within(projects).getByRole("radio", { name: "Own limit" }));
    const input = within(dialog).getByLabelText("Own project limit");
    await user.clear(input);
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText("Enter a whole number, or 0 for unlimited.")).toBeTruthy();
    expect(calls.some((call) => call.method === "PATCH")).toBe(false);

    await user.type(input, "1");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await screen.findByText("The plan and limits of Acme have been saved.")).toBeTruthy();
    expect(calls.find((call) => call.method === "PATCH")?.body).toEqual({
      plan: "free",
      limits: { projects_limit: 1 },
    });
    // The dialog stays on the saved organization, its log brought up to date.
    const log = await within(dialog).findByTestId("activity-log");
    expect(within(log).getByText("Own limits changed:")).toBeTruthy();
    expect(within(log).getByText("Projects: the plan's → 1")).toBeTruthy();
    expect(within(log).getByText("Plan changed: Unlimited → Free")).toBeTruthy();
    expect(within(log).getAllByText(/^by root@tarmac\.test/)).toHaveLength(2);
    expect((within(dialog).getByLabelText(/^Plan/) as HTMLSelectElement).value).toBe("free");
    await waitFor(() =>
      expect(calls.filter((call) => `${call.method} ${call.url}` === LIST_URL).length).toBeGreaterThan(1),
    );
  });

  it("gives a limit back to the plan, and shows the server's field errors", async () => {
    const acme = makeAdminOrganization({
      plan: { id: 1, code: "free", title: "Free" },
      limits: { space_limit: 500, build_limit: 100, projects_limit: 3, user_limit: 5 },
      overrides: { space_limit: 500 },
    });
    let patches = 0;
    const calls = serve({
      [LIST_URL]: { status: 200, body: pageOf([acme]) },
      "PATCH /api/admin/organizations/7/": () => {
        patches += 1;
        return patches === 1
          ? { status: 400, body: { "limits.build_limit": ["Too big."] } }
          : { status: 200, body: acme };
      },
    });
    const user = userEvent.setup();
    renderApp(PAGE_URL);
    await user.click(await screen.findByRole("button", { name: "Manage the plan and limits of Acme" }));
    const dialog = await screen.findByRole("dialog", { name: "Acme: plan and limits" });
    const storage = await within(dialog).findByRole("radiogroup", { name: "Storage" });
    expect(within(dialog).getByLabelText("Own storage limit (MB)")).toHaveProperty("value", "500");
    await user.click(within(storage).getByRole("radio", { name: "The plan's (2 GB)" }));
    const builds = within(dialog).getByRole("radiogroup", { name: "Builds" });
    await user.click(within(builds).getByRole("radio", { name: "Own limit" }));
    await user.clear(within(dialog).getByLabelText("Own build limit"));
    await user.type(within(dialog).getByLabelText("Own build limit"), "2000000000");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText("Too big.")).toBeTruthy();
    expect(calls.find((call) => call.method === "PATCH")?.body).toEqual({
      limits: { space_limit: null, build_limit: 2000000000 },
    });
  });

  it("saves nothing when nothing changed", async () => {
    const calls = serve();
    const user = userEvent.setup();
    renderApp(PAGE_URL);
    await user.click(await screen.findByRole("button", { name: "Manage the plan and limits of Acme" }));
    const dialog = await screen.findByRole("dialog", { name: "Acme: plan and limits" });
    await within(dialog).findByLabelText(/^Plan/);
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Nothing has changed.")).toBeTruthy();
    expect(calls.some((call) => call.method === "PATCH")).toBe(false);
  });
});
