import type { Invitation } from "@tarmac/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";

const INVITATIONS_URL = "GET /api/orgs-invitations/?org=7&page=1&page_size=20";
const NO_MEMBERS = { count: 0, next: null, previous: null, results: [] };

function invitation(overrides: Partial<Invitation> = {}): Invitation {
  return {
    id: 4,
    email: "cy@example.com",
    first_name: "Cy",
    last_name: "",
    role: 5,
    organization: 7,
    teams: [],
    projects: [],
    status: "invited",
    created_at: "2026-11-20T10:00:00Z",
    expires_at: "2026-12-04T10:00:00Z",
    ...overrides,
  };
}

function pageOf(results: Invitation[]) {
  return { count: results.length, next: null, previous: null, results };
}

function serve(extra: Record<string, ApiReply | (() => ApiReply)>) {
  return stubApi({
    "GET /api/profiles/": { status: 200, body: [makeProfile({ org_data: [makeOrg({ role: 2 })] })] },
    "GET /api/usersinorgs/?org=7&page=1&page_size=20": { status: 200, body: NO_MEMBERS },
    "GET /api/orgs-teams/?org=7&page_size=100": { status: 200, body: NO_MEMBERS },
    ...extra,
  });
}

const section = async () =>
  (await screen.findByRole("heading", { name: /^Pending invitations/ })).closest("section") as HTMLElement;

describe("pending invitations on the staff page", () => {
  useSignedInTestSession();

  it("lists invitations with their dates, resends one and says when the address was invited too often", async () => {
    let resends = 0;
    serve({
      [INVITATIONS_URL]: { status: 200, body: pageOf([invitation()]) },
      "POST /api/orgs-invitations/4/resend/": (): ApiReply => {
        resends += 1;
        return resends === 1
          ? { status: 200, body: { detail: "The invitation has been sent again." } }
          : { status: 429, body: { detail: "Too many requests. Try again in 40 minutes." } };
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/staff");
    const list = await section();
    expect(within(list).getByRole("heading").textContent).toBe("Pending invitations (1)");
    const row = within(list).getByText("cy@example.com").closest("tr") as HTMLElement;
    expect(within(row).getByText("Tester")).toBeTruthy();
    expect(within(row).getByText("November 20, 2026")).toBeTruthy();
    expect(within(row).getByText("December 4, 2026")).toBeTruthy();

    const resend = within(row).getByRole("button", { name: "Resend invitation to cy@example.com" });
    await user.click(resend);
    expect(await screen.findByText("The invitation has been sent again.")).toBeTruthy();
    await user.click(resend);
    expect(await screen.findByText(/This address has been invited too often/)).toBeTruthy();
  });

  it("cancels an invitation after asking, and hides the section once none is left", async () => {
    let invitations = [invitation()];
    const calls = serve({
      [INVITATIONS_URL]: () => ({ status: 200, body: pageOf(invitations) }),
      "DELETE /api/orgs-invitations/4/": () => {
        invitations = [];
        return { status: 204, body: null };
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/staff");
    const list = await section();
    await user.click(within(list).getByRole("button", { name: "Cancel invitation of cy@example.com" }));
    const dialog = await screen.findByRole("dialog", { name: "Cancel invitation" });
    expect(within(dialog).getByText(/Cancel the invitation of cy@example\.com\?/)).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "Cancel invitation" }));
    expect(await screen.findByText("The invitation has been cancelled.")).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("heading", { name: /^Pending invitations/ })).toBeNull());
    // The seat is free again: the profile (with the user count) is read again.
    expect(calls.filter((call) => call.url === "/api/profiles/").length).toBeGreaterThan(1);
  });

  it("shows nothing while there are no invitations, and the new one after the add-user dialog", async () => {
    let invitations: Invitation[] = [];
    serve({
      [INVITATIONS_URL]: () => ({ status: 200, body: pageOf(invitations) }),
      "POST /api/usersinorgs/": () => {
        invitations = [invitation({ id: 9, email: "dee@example.com", first_name: "" })];
        return { status: 201, body: invitations[0] };
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/staff");
    expect(await screen.findByText("No members found.")).toBeTruthy();
    expect(screen.queryByRole("heading", { name: /^Pending invitations/ })).toBeNull();

    await user.click(screen.getByRole("button", { name: "Add user" }));
    const dialog = await screen.findByRole("dialog", { name: "Add user" });
    await user.type(within(dialog).getByLabelText(/^Email/), "dee@example.com");
    await user.click(within(dialog).getByRole("button", { name: "Add user" }));
    expect(
      await screen.findByText(
        "The invitation has been sent. The person joins the organization once they accept it.",
      ),
    ).toBeTruthy();
    expect(within(await section()).getByText("dee@example.com")).toBeTruthy();
  });
});
