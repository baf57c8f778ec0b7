import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { OrganizationUsage } from "../../api/plans.ts";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { makeBilling, makeMonthPrice } from "../../test/billing-fixtures.ts";
import { makeUsage, TARIFFS } from "../../test/plan-fixtures.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";

function serve(usage: OrganizationUsage, replies: Record<string, ApiReply> = {}) {
  return stubApi({
    "GET /api/profiles/": { status: 200, body: [makeProfile({ org_data: [makeOrg()] })] },
    "GET /api/organization/usage/?org=7": { status: 200, body: usage },
    "GET /api/organizations/7/": {
      status: 200,
      body: { id: 7, title: "Acme", plan: { id: 1, code: "free", title: "Free" } },
    },
    "GET /api/tariffs/": { status: 200, body: TARIFFS },
    ...replies,
  });
}

describe("plan page", () => {
  useSignedInTestSession();

  it("where the administrator manages plans, names them with a mail link and shows no prices or choices", async () => {
    const calls = serve(makeUsage({ projects_count: 1, projects_limit: 1 }));
    renderApp("/dashboard/organization/plan");
    const section = (await screen.findByRole("heading", { name: "Plan" })).closest("section") as HTMLElement;
    expect(
      within(section).getByText(/^Plans on this instance are managed by its administrator/),
    ).toBeTruthy();
    expect(within(section).getByRole("link", { name: "root@tarmac.test" }).getAttribute("href")).toBe(
      "mailto:root@tarmac.test",
    );
    expect(await within(section).findByText("Free")).toBeTruthy();
    expect(screen.getByRole("progressbar", { name: "Projects: 1 of 1" })).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Plans" })).toBeNull();
    expect(screen.queryByText(/\/ month/)).toBeNull();
    expect(calls.some((call) => call.url === "/api/tariffs/")).toBe(false);
  });

  it("says whom to ask when a limit is reached", async () => {
    serve(makeUsage({ critical: true, builds_count: 50 }));
    renderApp("/dashboard/organization/plan");
    expect(
      await screen.findByText(
        "A plan limit has been reached: uploads stop until it is raised. Ask the administrator of this Tarmac instance (root@tarmac.test) to raise the limit.",
      ),
    ).toBeTruthy();
  });

  it("without a known administrator address, says so without a link", async () => {
    serve(makeUsage({ administrator_email: null, critical: true }));
    renderApp("/dashboard/organization/plan");
    expect(
      await screen.findByText(
        "A plan limit has been reached: uploads stop until it is raised. Ask the administrator of this Tarmac instance to raise the limit.",
      ),
    ).toBeTruthy();
    expect(screen.queryByRole("link", { name: /@/ })).toBeNull();
  });

  it("where organizations pay, lists the plans with prices and the current one, and says to upgrade", async () => {
    const team = { id: 2, code: "team", title: "Team" };
    serve(makeUsage({ limits_managed_by: "billing", administrator_email: null, critical: true }), {
      "GET /api/billing/?org=7": { status: 200, body: makeBilling() },
      "GET /api/month_price/2/?org=7&interval=month": {
        status: 200,
        body: makeMonthPrice({ plan: team, current_monthly: 29, new_monthly: 29 }),
      },
      "GET /api/invoice-history-w-pdf/?org=7&page=1": {
        status: 200,
        body: { count: 0, next: null, previous: null, results: [] },
      },
    });
    renderApp("/dashboard/organization/plan");
    const plans = (await screen.findByRole("heading", { name: "Plans" })).closest("section") as HTMLElement;
    expect(await within(plans).findByText("$29.00 / month")).toBeTruthy();
    expect(await within(plans).findByText("Current plan")).toBeTruthy();
    expect(
      screen.getByText(
        "A plan limit has been reached: uploads stop until it is raised. Upgrade the plan on the Plan and usage page to raise the limit.",
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/managed by its administrator/)).toBeNull();
  });
});
