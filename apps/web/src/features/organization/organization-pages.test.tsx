import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { chooseMenuItem } from "../../test/mantine-actions.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";

const MEMBERS = {
  count: 2,
  next: null,
  previous: null,
  results: [
    {
      id: 1,
      userid: 11,
      email: "ann@example.com",
      first_name: "Ann",
      last_name: "Lee",
      role: 1,
      organization: 7,
      teams: [],
      projects: [],
      is_active: true,
      two_factor_enabled: false,
      created_at: "",
    },
    {
      id: 2,
      userid: 12,
      email: "cy@example.com",
      first_name: "",
      last_name: "",
      role: 5,
      organization: 7,
      teams: [],
      projects: [],
      is_active: false,
      two_factor_enabled: false,
      created_at: "",
    },
  ],
};

function serve(role: number, extra: Record<string, ApiReply | (() => ApiReply)> = {}) {
  return stubApi({
    "GET /api/profiles/": { status: 200, body: [makeProfile({ org_data: [makeOrg({ role })] })] },
    "GET /api/usersinorgs/?org=7&page=1&page_size=20": { status: 200, body: MEMBERS },
    "GET /api/orgs-teams/?org=7&page_size=100": {
      status: 200,
      body: { count: 0, next: null, previous: null, results: [] },
    },
    ...extra,
  });
}

describe("organization pages by role", () => {
  useSignedInTestSession();

  it("lets an admin add users and act on members, and resends a pending invitation", async () => {
    const calls = serve(2, {
      "GET /api/usersinorgs/2/?resend=1": { status: 200, body: { detail: "Sent." } },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/staff");
    expect(await screen.findByText("cy@example.com")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Add user" })).toBeTruthy();
    expect(screen.getByText("Invitation pending")).toBeTruthy();
    expect(screen.getByText("Users: 2 of 10")).toBeTruthy();
    await chooseMenuItem(
      user,
      screen.getByRole("button", { name: "Actions for cy@example.com" }),
      "Resend invitation",
    );
    expect(await screen.findByText("The invitation has been sent again.")).toBeTruthy();
    expect(calls.map((call) => call.url)).toContain("/api/usersinorgs/2/?resend=1");
  });

  it("shows a team manager the list without management actions", async () => {
    serve(4);
    renderApp("/dashboard/organization/staff");
    expect(await screen.findByText("cy@example.com")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Add user" })).toBeNull();
    expect(screen.queryByRole("button", { name: /^Actions for/ })).toBeNull();
  });

  it("keeps staff, teams, settings and plan away from testers and mobile users", async () => {
    const calls = serve(5);
    const user = userEvent.setup();
    renderApp("/dashboard/organization/staff");
    expect(
      await screen.findByText("Your role in this organization does not give access to this page."),
    ).toBeTruthy();
    const menu = screen.getByRole("navigation", { name: "Main menu" });
    await waitFor(() =>
      expect(
        within(menu)
          .getAllByRole("link")
          .map((link) => link.textContent),
      ).toEqual(["Overview", "Apps", "Install apps", "New organization"]),
    );
    await user.click(within(menu).getByRole("button", { name: "Account" }));
    expect(within(menu).getByRole("link", { name: "Profile" })).toBeTruthy();
    expect(calls.map((call) => call.url)).not.toContain("/api/usersinorgs/?org=7&page=1&page_size=20");
  });

  it("creates a team with a title and no members", async () => {
    const calls = serve(1, { "POST /api/teams/": { status: 201, body: { id: 4, title: "QA" } } });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/teams");
    expect(await screen.findByText("No teams yet.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Create team" }));
    const dialog = await screen.findByRole("dialog", { name: "Create team" });
    await user.type(within(dialog).getByLabelText(/^Team name/), " QA ");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await screen.findByText("The team has been saved.")).toBeTruthy();
    expect(calls.filter((call) => call.method === "POST").map((call) => call.body)).toEqual([
      { title: "QA", organization: 7, users: [] },
    ]);
  });
});
