import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { OrgData } from "../../api/account.ts";
import type { OrganizationUsage } from "../../api/plans.ts";
import { CURRENT_ORG_ID_KEY } from "../../api/token.ts";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { makeUsage } from "../../test/plan-fixtures.ts";
import { renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";
import { buildMenuSections } from "./side-menu.tsx";

function serveProfile(orgs: OrgData[], isInstanceAdmin = false, usage?: OrganizationUsage) {
  return stubApi({
    ...(usage ? { "GET /api/organization/usage/?org=7": { status: 200, body: usage } } : {}),
    "GET /api/profiles/": {
      status: 200,
      body: [makeProfile({ org_data: orgs, is_instance_admin: isInstanceAdmin })],
    },
    "GET /api/organizations/7/?sendemaillimit=1": { status: 200, body: { id: 7, limit_notice_sent: true } },
  });
}

const WARNING_TEXT = /^Storage is almost full/;

describe("side menu", () => {
  useSignedInTestSession();

  it("keeps one submenu open at a time and closes the open one when chosen again", async () => {
    serveProfile([makeOrg()]);
    const user = userEvent.setup();
    renderApp("/dashboard");
    const menu = await screen.findByRole("navigation", { name: "Main menu" });
    const organization = within(menu).getByRole("button", { name: "Organization" });
    const account = within(menu).getByRole("button", { name: "Account" });
    expect(organization.getAttribute("aria-expanded")).toBe("false");

    await user.click(organization);
    expect(organization.getAttribute("aria-expanded")).toBe("true");
    expect(within(menu).getByRole("link", { name: "Staff" }).getAttribute("href")).toBe(
      "/dashboard/organization/staff",
    );

    await user.click(account);
    expect(account.getAttribute("aria-expanded")).toBe("true");
    expect(organization.getAttribute("aria-expanded")).toBe("false");
    expect(within(menu).queryByRole("link", { name: "Staff" })).toBeNull();
    expect(within(menu).getByRole("link", { name: "Profile" })).toBeTruthy();

    await user.click(account);
    expect(account.getAttribute("aria-expanded")).toBe("false");
    expect(within(menu).queryByRole("link", { name: "Profile" })).toBeNull();
  });

  it("adds the Administration section for instance administrators only, with or without an organization", () => {
    const ids = (sections: { id: string }[]) => sections.map((section) => section.id);
    expect(ids(buildMenuSections(1, true))).toEqual(["organization", "account"]);
    expect(ids(buildMenuSections(1, true, false))).toEqual(["organization", "account"]);
    const admin = buildMenuSections(undefined, false, true);
    expect(ids(admin)).toEqual(["organization", "account", "admin"]);
    expect(admin[2]?.links).toEqual([
      { to: "/dashboard/admin/organizations", labelKey: "menu.admin_organizations" },
      { to: "/dashboard/admin/content", labelKey: "menu.admin_content" },
    ]);
  });

  it("links Administration → Organizations for an instance administrator", async () => {
    serveProfile([makeOrg()], true);
    const user = userEvent.setup();
    renderApp("/dashboard");
    const menu = await screen.findByRole("navigation", { name: "Main menu" });
    await user.click(await within(menu).findByRole("button", { name: "Administration" }));
    expect(within(menu).getByRole("link", { name: "Organizations" }).getAttribute("href")).toBe(
      "/dashboard/admin/organizations",
    );
  });

  it("shows no Administration section to other people", async () => {
    serveProfile([makeOrg()]);
    renderApp("/dashboard");
    const menu = await screen.findByRole("navigation", { name: "Main menu" });
    await screen.findByText("Welcome, Ann.");
    expect(within(menu).queryByRole("button", { name: "Administration" })).toBeNull();
  });

  it("opens the submenu of the current page and marks the active item", async () => {
    serveProfile([makeOrg()]);
    renderApp("/dashboard/profile");
    const menu = await screen.findByRole("navigation", { name: "Main menu" });
    expect(within(menu).getByRole("button", { name: "Account" }).getAttribute("aria-expanded")).toBe("true");
    expect(within(menu).getByRole("link", { name: "Profile" }).getAttribute("aria-current")).toBe("page");
  });

  it("warns the owner when more than 75% of a non-zero storage limit is used, and names whom to ask", async () => {
    serveProfile([makeOrg({ role: 1, space_used: 80, space_limit: 100 })], false, makeUsage());
    renderApp("/dashboard");
    const warning = await screen.findByTestId("storage-warning");
    expect(within(warning).getByText("Storage is almost full: 80.00 MB of 100.00 MB used.")).toBeTruthy();
    expect(
      await within(warning).findByText(
        "Ask the administrator of this Tarmac instance (root@tarmac.test) to raise the limit.",
      ),
    ).toBeTruthy();
    expect(within(warning).getByRole("link", { name: "See plan and usage" })).toBeTruthy();
  });

  it("tells the owner to upgrade where organizations pay for plans", async () => {
    const usage = makeUsage({ limits_managed_by: "billing", administrator_email: null });
    serveProfile([makeOrg({ role: 1, space_used: 80, space_limit: 100 })], false, usage);
    renderApp("/dashboard");
    const warning = await screen.findByTestId("storage-warning");
    expect(
      await within(warning).findByText("Upgrade the plan on the Plan and usage page to raise the limit."),
    ).toBeTruthy();
  });

  it.each([
    ["exactly 75% used", makeOrg({ role: 1, space_used: 75, space_limit: 100 })],
    ["no limit", makeOrg({ role: 1, space_used: 5000, space_limit: 0 })],
    ["an admin, not the owner", makeOrg({ role: 2, space_used: 90, space_limit: 100 })],
  ])("shows no storage warning with %s", async (_case, org) => {
    serveProfile([org]);
    renderApp("/dashboard");
    await screen.findByText("Welcome, Ann.");
    expect(screen.queryByText(WARNING_TEXT)).toBeNull();
  });

  it("makes other roles at a critical limit fetch the company so the owner is told", async () => {
    const calls = serveProfile([makeOrg({ role: 2, space_used: 100, space_limit: 100 })]);
    renderApp("/dashboard");
    await waitFor(() =>
      expect(calls.map((call) => `${call.method} ${call.url}`)).toContain(
        "GET /api/organizations/7/?sendemaillimit=1",
      ),
    );
    expect(screen.queryByText(WARNING_TEXT)).toBeNull();
  });

  it("counts a full build limit as critical, and never notifies for the owner or below the limits", async () => {
    const member = serveProfile([makeOrg({ role: 5, builds_count: 50, build_limit: 50 })]);
    const first = renderApp("/dashboard");
    await waitFor(() =>
      expect(member.map((call) => call.url)).toContain("/api/organizations/7/?sendemaillimit=1"),
    );
    first.unmount();

    for (const org of [
      makeOrg({ role: 1, space_used: 100, space_limit: 100 }),
      makeOrg({ role: 2, space_used: 99, space_limit: 100, builds_count: 49 }),
    ]) {
      const calls = serveProfile([org]);
      const view = renderApp("/dashboard");
      await screen.findByText("Welcome, Ann.");
      // Besides the profile, only the invitations prompt's question and the storage warning's usage.
      const asked = calls.map((call) => call.url);
      expect(
        asked.filter((url) => url !== "/api/invitations/" && !url.startsWith("/api/organization/usage/")),
      ).toEqual(["/api/profiles/"]);
      view.unmount();
    }
  });

  it("lists the organizations and remembers the one switched to", async () => {
    localStorage.setItem(CURRENT_ORG_ID_KEY, "7");
    serveProfile([makeOrg(), makeOrg({ org_id: 8, title: "Globex", role: 3 })]);
    const user = userEvent.setup();
    renderApp("/dashboard");
    const acme = await screen.findByRole("button", { name: "A Acme" });
    const globex = screen.getByRole("button", { name: "G Globex" });
    expect(acme.getAttribute("aria-pressed")).toBe("true");
    await user.click(globex);
    expect(globex.getAttribute("aria-pressed")).toBe("true");
    expect(acme.getAttribute("aria-pressed")).toBe("false");
    expect(localStorage.getItem(CURRENT_ORG_ID_KEY)).toBe("8");
    expect(await screen.findByRole("heading", { name: "Globex" })).toBeTruthy();
  });

  it("shows no message when the profile cannot be loaded", async () => {
    stubApi({ "GET /api/profiles/": { status: 404, body: { detail: "Not found." } } });
    renderApp("/dashboard");
    const menu = await screen.findByRole("navigation", { name: "Main menu" });
    await waitFor(() => expect(screen.getByText("You are logged in.")).toBeTruthy());
    expect(screen.queryAllByRole("alert")).toEqual([]);
    expect(within(menu).getByRole("button", { name: "Organization" })).toBeTruthy();
  });
});
