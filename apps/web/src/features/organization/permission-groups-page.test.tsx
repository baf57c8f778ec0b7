import type { Membership, PermissionGroup } from "@tarmac/contracts";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { makeApp, pageOf } from "../../test/application-fixtures.ts";
import { pickOption } from "../../test/mantine-actions.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";

const GROUPS_URL = "GET /api/groupsinorgs/?org=7&page=1&page_size=20";

const QA_GROUP: PermissionGroup = {
  id: 3,
  title: "QA",
  organization: 7,
  members: 2,
  users: [11, 12],
  projects: [9, 10],
  created_at: "2026-03-01T00:00:00Z",
};

function makeMember(userid: number, email: string): Membership {
  return {
    id: userid,
    userid,
    email,
    first_name: "",
    last_name: "",
    role: 3,
    organization: 7,
    teams: [],
    projects: [],
    is_active: true,
    two_factor_enabled: false,
    created_at: "",
  };
}

function serve(
  role: number,
  groups: PermissionGroup[],
  extra: Record<string, ApiReply | (() => ApiReply)> = {},
) {
  return stubApi({
    "GET /api/profiles/": { status: 200, body: [makeProfile({ org_data: [makeOrg({ role })] })] },
    [GROUPS_URL]: { status: 200, body: pageOf(groups) },
    // Two platforms of Rocket share project 9; one project appears once among the choices.
    "GET /api/applications/?org=7&page_size=100": {
      status: 200,
      body: pageOf([
        makeApp({ id: 1, project_app: 9, project_title: "Rocket" }),
        makeApp({ id: 2, project_app: 9, project_title: "Rocket", app_type: 1 }),
        makeApp({ id: 3, project_app: 10, project_title: "Comet" }),
      ]),
    },
    "GET /api/usersinorgs/?org=7&page=1&page_size=20": {
      status: 200,
      body: pageOf([makeMember(11, "ann@example.com"), makeMember(12, "cy@example.com")]),
    },
    ...extra,
  });
}

describe("permission groups page", () => {
  useSignedInTestSession();

  it("lists the groups with their member count and project titles", async () => {
    serve(2, [QA_GROUP, { ...QA_GROUP, id: 4, title: "Beta", members: 0, users: [], projects: [] }]);
    renderApp("/dashboard/organization/permission-groups");
    const row = (await screen.findByRole("cell", { name: "QA" })).closest("tr") as HTMLElement;
    expect(within(row).getByRole("cell", { name: "2" })).toBeTruthy();
    expect(await within(row).findByRole("cell", { name: "Rocket, Comet" })).toBeTruthy();
    const empty = screen.getByRole("cell", { name: "Beta" }).closest("tr") as HTMLElement;
    expect(within(empty).getByText("No projects")).toBeTruthy();
    const menu = screen.getByRole("navigation", { name: "Main menu" });
    expect(within(menu).getByRole("link", { name: "Permission groups" }).getAttribute("aria-current")).toBe(
      "page",
    );
  });

  it("creates a group with projects and members and shows a server field error", async () => {
    let posts = 0;
    const calls = serve(1, [], {
      "POST /api/groupsinorgs/": () => {
        posts += 1;
        return posts === 1
          ? { status: 400, body: { title: ["A group with this title already exists."] } }
          : { status: 201, body: { ...QA_GROUP, title: "Testers" } };
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/permission-groups");
    expect(await screen.findByText("No permission groups yet")).toBeTruthy();
    const [, emptyStateButton] = screen.getAllByRole("button", { name: "New group" });
    await user.click(emptyStateButton as HTMLElement);
    const dialog = await screen.findByRole("dialog", { name: "New group" });
    await user.type(within(dialog).getByLabelText(/^Group name/), " QA ");
    await pickOption(user, within(dialog).getByLabelText("Projects"), "Comet");
    await pickOption(user, within(dialog).getByLabelText("Members"), "cy@example.com");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText("A group with this title already exists.")).toBeTruthy();
    const title = within(dialog).getByLabelText(/^Group name/);
    expect(title.getAttribute("aria-invalid")).toBe("true");

    await user.clear(title);
    await user.type(title, "Testers");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await screen.findByText("The group has been saved.")).toBeTruthy();
    expect(calls.filter((call) => call.method === "POST").map((call) => call.body)).toEqual([
      { title: "QA", organization: 7, projects: [10], users: [12] },
      { title: "Testers", organization: 7, projects: [10], users: [12] },
    ]);
  });

  it("saves an edited group by PATCH, keeping its projects and members", async () => {
    const calls = serve(2, [QA_GROUP], {
      "PATCH /api/groupsinorgs/3/": { status: 200, body: { ...QA_GROUP, title: "QA team" } },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/permission-groups");
    await user.click(await screen.findByRole("button", { name: "Edit group QA" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit group" });
    expect(await within(dialog).findByText("cy@example.com")).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/^Group name/), " team");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await screen.findByText("The group has been saved.")).toBeTruthy();
    expect(calls.filter((call) => call.method === "PATCH").map((call) => [call.url, call.body])).toEqual([
      ["/api/groupsinorgs/3/", { title: "QA team", projects: [9, 10], users: [11, 12] }],
    ]);
  });

  it("asks before deleting a group and then sends DELETE", async () => {
    const calls = serve(2, [QA_GROUP], {
      "DELETE /api/groupsinorgs/3/": { status: 204, body: null },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/permission-groups");
    await user.click(await screen.findByRole("button", { name: "Delete group QA" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete group" });
    expect(within(dialog).getByText(/^Delete the group QA\?/)).toBeTruthy();
    expect(calls.some((call) => call.method === "DELETE")).toBe(false);
    await user.click(within(dialog).getByRole("button", { name: "Delete group" }));
    expect(await screen.findByText("The group has been deleted.")).toBeTruthy();
    expect(calls.filter((call) => call.method === "DELETE").map((call) => call.url)).toEqual([
      "/api/groupsinorgs/3/",
    ]);
  });

  it("hides the menu entry from a team manager and keeps the page closed", async () => {
    const calls = serve(4, [QA_GROUP]);
    renderApp("/dashboard/organization/permission-groups");
    expect(
      await screen.findByText("Your role in this organization does not give access to this page."),
    ).toBeTruthy();
    // The page's path opens the Organization submenu, where the entry would be.
    const menu = screen.getByRole("navigation", { name: "Main menu" });
    expect(within(menu).getByRole("link", { name: "Teams" })).toBeTruthy();
    expect(within(menu).queryByRole("link", { name: "Permission groups" })).toBeNull();
    expect(calls.map((call) => `${call.method} ${call.url}`)).not.toContain(GROUPS_URL);
  });
});
