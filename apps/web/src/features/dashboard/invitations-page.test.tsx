import type { MyInvitation } from "@tarmac/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Profile } from "../../api/account.ts";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";

const BETA: MyInvitation = {
  id: 4,
  organization: { id: 8, title: "Beta", subdomain: "beta" },
  role: 2,
  invited_by: "Olga Owner",
  created_at: "2026-11-20T10:00:00Z",
  expires_at: "2026-12-04T10:00:00Z",
};

function serve(invitations: () => MyInvitation[], extra: Record<string, ApiReply | (() => ApiReply)> = {}) {
  let profile: Profile = makeProfile();
  const calls = stubApi({
    "GET /api/profiles/": () => ({ status: 200, body: [profile] }),
    "GET /api/invitations/": () => ({ status: 200, body: invitations() }),
    ...extra,
  });
  const join = () => {
    profile = makeProfile({ org_data: [makeOrg(), makeOrg({ org_id: 8, title: "Beta", role: 2 })] });
  };
  return { calls, join };
}

describe("invitations", () => {
  useSignedInTestSession();

  it("prompts on the dashboard, leads to the invitations page and stays hidden once closed", async () => {
    serve(() => [BETA]);
    const user = userEvent.setup();
    const first = renderApp("/dashboard");
    const prompt = await screen.findByTestId("invitations-prompt");
    expect(within(prompt).getByText("Beta invited you to join.")).toBeTruthy();
    await user.click(within(prompt).getByRole("link", { name: "See invitations" }));
    expect(await screen.findByRole("heading", { name: "Invitations", level: 1 })).toBeTruthy();
    expect(first.router.state.location.pathname).toBe("/dashboard/invitations");
    // The page itself is where the answer is given: no prompt there.
    expect(screen.queryByTestId("invitations-prompt")).toBeNull();
    expect(screen.getByText("Olga Owner invited you on November 20, 2026.")).toBeTruthy();
    expect(screen.getByText("The invitation expires on December 4, 2026.")).toBeTruthy();

    await first.router.navigate("/dashboard");
    await user.click(
      within(await screen.findByTestId("invitations-prompt")).getByRole("button", { name: "Hide for now" }),
    );
    expect(screen.queryByTestId("invitations-prompt")).toBeNull();
    first.unmount();
    renderApp("/dashboard");
    await screen.findByText("Welcome, Ann.");
    expect(screen.queryByTestId("invitations-prompt")).toBeNull();
  });

  it("accepts: the organization joins the menu and becomes the current one", async () => {
    let invitations = [BETA];
    const server = serve(() => invitations, {
      "POST /api/invitations/4/accept/": () => {
        invitations = [];
        server.join();
        return { status: 200, body: { id: 30, organization: 8, role: 2 } };
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/invitations");
    await user.click(await screen.findByRole("button", { name: "Accept the invitation to Beta" }));
    expect(await screen.findByText("You are now a member of Beta.")).toBeTruthy();
    expect(await screen.findByText("No invitations are waiting for your answer.")).toBeTruthy();
    const organizations = screen.getByRole("list", { name: "Organizations" });
    await waitFor(() =>
      expect(within(organizations).getByRole("button", { name: /Beta$/ }).getAttribute("aria-pressed")).toBe(
        "true",
      ),
    );
  });

  it("declines after asking, and says when an invitation is no longer open", async () => {
    let invitations = [BETA, { ...BETA, id: 5, organization: { id: 9, title: "Gamma", subdomain: "gamma" } }];
    const { calls } = serve(() => invitations, {
      "POST /api/invitations/4/decline/": () => {
        invitations = invitations.filter((invitation) => invitation.id !== 4);
        return { status: 204, body: null };
      },
      "POST /api/invitations/5/accept/": () => {
        invitations = [];
        return { status: 404, body: { detail: "Not found." } };
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/invitations");
    await user.click(await screen.findByRole("button", { name: "Decline the invitation to Beta" }));
    const dialog = await screen.findByRole("dialog", { name: "Decline the invitation to Beta?" });
    await user.click(within(dialog).getByRole("button", { name: "Decline" }));
    expect(await screen.findByText("You declined the invitation to Beta.")).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("heading", { name: "Beta" })).toBeNull());

    await user.click(screen.getByRole("button", { name: "Accept the invitation to Gamma" }));
    expect(
      await screen.findByText("This invitation is no longer open: it was cancelled or has expired."),
    ).toBeTruthy();
    expect(await screen.findByText("No invitations are waiting for your answer.")).toBeTruthy();
    expect(calls.filter((call) => call.method === "POST").map((call) => call.url)).toEqual([
      "/api/invitations/4/decline/",
      "/api/invitations/5/accept/",
    ]);
  });

  it("offers a retry when the invitations cannot be loaded", async () => {
    stubApi({
      "GET /api/profiles/": { status: 200, body: [makeProfile()] },
      "GET /api/invitations/": { status: 500, body: { detail: "boom" } },
    });
    renderApp("/dashboard/invitations");
    expect(await screen.findByRole("button", { name: "Try again" }, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByTestId("invitations-prompt")).toBeNull();
  });
});
