import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ProjectMember } from "../../../api/project-members.ts";
import { openTab, serveDistribution } from "../../../test/app-page-api.ts";
import { pageOf } from "../../../test/application-fixtures.ts";
import { chooseMenuItem, pickOption } from "../../../test/mantine-actions.ts";
import { useSignedInTestSession } from "../../../test/render.tsx";
import { projectEnvironments } from "./members-tab.tsx";

function makeMember(overrides: Partial<ProjectMember> = {}): ProjectMember {
  return {
    id: 71,
    user: 12,
    project: 9,
    role: 3,
    is_access_all_envs: false,
    access_envs: ["qa"],
    email: "mo@example.com",
    first_name: "Mo",
    last_name: "Bile",
    is_pending: true,
    ...overrides,
  };
}

const MEMBERS = "GET /api/usersinproject/?project=9&page=1&page_size=20";

describe("project members tab", () => {
  useSignedInTestSession();

  it("offers the project's environments", () => {
    expect(
      projectEnvironments({
        environment: "production",
        environments: [
          { id: 1, title: "R", app_type: 0, environment: "production" },
          { id: 5, title: "R", app_type: 0, environment: "qa" },
        ],
      } as never),
    ).toEqual(["production", "qa"]);
  });

  it("lists members with role and environments and resends an invitation", async () => {
    serveDistribution({
      [MEMBERS]: { status: 200, body: pageOf([makeMember()]) },
      "GET /api/usersinproject/?project=9&resend=1&id=71": { status: 200, body: { detail: "Sent." } },
    });
    const { user } = await openTab("Members");
    const row = (await screen.findByText("Mo Bile (mo@example.com)")).closest("tr") as HTMLElement;
    expect(within(row).getByText("Mobile user")).toBeTruthy();
    expect(within(row).getByText("qa")).toBeTruthy();
    expect(within(row).getByText("Invitation pending")).toBeTruthy();

    await chooseMenuItem(
      user,
      within(row).getByRole("button", { name: "Actions for mo@example.com" }),
      "Resend invitation",
    );
    expect(await screen.findByText("The invitation has been sent again.")).toBeTruthy();
  });

  it("removes a member after confirmation", async () => {
    const calls = serveDistribution({
      [MEMBERS]: { status: 200, body: pageOf([makeMember()]) },
      "DELETE /api/usersinproject/71/": { status: 204, body: null },
    });
    const { user } = await openTab("Members");
    const row = (await screen.findByText("Mo Bile (mo@example.com)")).closest("tr") as HTMLElement;
    await chooseMenuItem(
      user,
      within(row).getByRole("button", { name: "Actions for mo@example.com" }),
      "Remove from project",
    );
    const confirm = await screen.findByRole("dialog", { name: "Remove from project" });
    await user.click(within(confirm).getByRole("button", { name: "Remove from project" }));
    expect(await screen.findByText("The member has been removed from the project.")).toBeTruthy();
    expect(calls.some((call) => call.method === "DELETE" && call.url === "/api/usersinproject/71/")).toBe(
      true,
    );
  });

  it("adds an organization member with access to chosen environments", async () => {
    const calls = serveDistribution({
      [MEMBERS]: { status: 200, body: pageOf([]) },
      "GET /api/orgs-users/?org=7&search=": {
        status: 200,
        body: pageOf([{ id: 12, email: "mo@example.com", first_name: "Mo", last_name: "Bile", role: 3 }]),
      },
      "POST /api/usersinproject/": { status: 201, body: makeMember({ is_pending: false }) },
    });
    const { user } = await openTab("Members");
    expect(await screen.findByText("No members in this project yet.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Add member" }));
    const dialog = await screen.findByRole("dialog", { name: "Add member" });
    await pickOption(
      user,
      within(dialog).getByRole("combobox", { name: /Organization member/ }),
      "Mo Bile <mo@example.com>",
    );
    await pickOption(user, within(dialog).getByRole("combobox", { name: /Role/ }), "Team manager");
    await user.click(within(dialog).getByRole("switch", { name: "Access to all environments" }));
    const envs = within(dialog).getByLabelText(/^Environments/);
    await user.type(envs, "qa{Enter}");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await screen.findByText("The member has been saved.")).toBeTruthy();
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({
      user: 12,
      project: 9,
      role: 4,
      is_access_all_envs: false,
      access_envs: ["qa"],
    });
  });

  it("edits a member's role and environments with PUT", async () => {
    const calls = serveDistribution({
      [MEMBERS]: { status: 200, body: pageOf([makeMember()]) },
      "PUT /api/usersinproject/71/": { status: 200, body: makeMember({ is_access_all_envs: true }) },
    });
    const { user } = await openTab("Members");
    const row = (await screen.findByText("Mo Bile (mo@example.com)")).closest("tr") as HTMLElement;
    await chooseMenuItem(
      user,
      within(row).getByRole("button", { name: "Actions for mo@example.com" }),
      "Edit role and environments",
    );
    const dialog = await screen.findByRole("dialog", { name: "Edit mo@example.com" });
    await user.click(within(dialog).getByRole("switch", { name: "Access to all environments" }));
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === "PUT")?.body).toEqual({
        role: 3,
        is_access_all_envs: true,
        access_envs: [],
      }),
    );
  });

  it("shows everyone with access: admins and members", async () => {
    serveDistribution({
      [MEMBERS]: { status: 200, body: pageOf([]) },
      "GET /api/applications/1/project_combined_users/?project=9&page=1&page_size=10": {
        status: 200,
        body: pageOf([
          {
            id: null,
            user: 11,
            email: "ann@example.com",
            first_name: "Ann",
            last_name: "Lee",
            org_role: 1,
            role: 1,
            is_admin: true,
            is_access_all_envs: true,
            access_envs: [],
          },
          {
            id: 71,
            user: 12,
            email: "mo@example.com",
            first_name: "",
            last_name: "",
            org_role: 3,
            role: 5,
            is_admin: false,
            is_access_all_envs: false,
            access_envs: ["qa", "staging"],
          },
        ]),
      },
    });
    const { user } = await openTab("Members");
    await user.click(await screen.findByText("Everyone with access"));
    const admin = (await screen.findByText("Ann Lee (ann@example.com)")).closest("tr") as HTMLElement;
    expect(within(admin).getByText("Owner")).toBeTruthy();
    expect(within(admin).getByText("Organization admin")).toBeTruthy();
    expect(within(admin).getByText("All environments")).toBeTruthy();
    const member = screen.getByText("mo@example.com").closest("tr") as HTMLElement;
    expect(within(member).getByText("Tester")).toBeTruthy();
    expect(within(member).getByText("staging")).toBeTruthy();
  });
});
