import type { SsoLinks } from "@tarmac/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeProfile } from "../../test/account-fixtures.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";

const ACME = { id: 7, title: "Acme", subdomain: "acme" };
const GLOBEX = { id: 8, title: "Globex", subdomain: "globex" };

function servePage(links: () => SsoLinks, extra: Record<string, ApiReply | (() => ApiReply)> = {}) {
  return stubApi({
    "GET /api/profiles/": { status: 200, body: [makeProfile()] },
    "GET /api/data-gdpr/": { status: 200, body: [] },
    "GET /api/sso/links/": () => ({ status: 200, body: links() }),
    ...extra,
  });
}

async function ssoSection() {
  const heading = await screen.findByRole("heading", { name: "Single sign-on" });
  return heading.closest("section") as HTMLElement;
}

describe("profile: single sign-on", () => {
  useSignedInTestSession();
  afterEach(() => vi.unstubAllGlobals());

  it("starts linking the organization that proved the address's domain", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    const calls = servePage(() => ({ linked: [], linkable: [{ organization: ACME }] }), {
      "POST /api/sso/links/start/": { status: 200, body: { url: "https://idp.acme.test/authorize?x=1" } },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/profile");
    const section = await ssoSection();
    expect(await within(section).findByText(/Acme has proven the domain of your address/)).toBeTruthy();
    await user.click(within(section).getByRole("button", { name: "Link my account to the sign-in of Acme" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://idp.acme.test/authorize?x=1"));
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({ organization: 7 });
  });

  it("shows the server's refusal to start from a single sign-on session", async () => {
    servePage(() => ({ linked: [], linkable: [{ organization: ACME }] }), {
      "POST /api/sso/links/start/": {
        status: 403,
        body: { detail: "Link your account from a session you signed in to with your password." },
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/profile");
    const section = await ssoSection();
    await user.click(
      await within(section).findByRole("button", { name: "Link my account to the sign-in of Acme" }),
    );
    expect(
      await within(section).findByText(
        "Link your account from a session you signed in to with your password.",
      ),
    ).toBeTruthy();
  });

  it("says a link just finished, and unlinks after asking; a refusal shows the server's message", async () => {
    let linked: SsoLinks["linked"] = [
      { organization: ACME, origin: "linked", since: "2026-11-20T10:00:00Z" },
      { organization: GLOBEX, origin: "created", since: "2026-10-01T10:00:00Z" },
    ];
    servePage(() => ({ linked, linkable: [] }), {
      "DELETE /api/sso/links/7/": () => {
        linked = linked.filter((link) => link.organization.id !== 7);
        return { status: 204, body: null };
      },
      "DELETE /api/sso/links/8/": {
        status: 400,
        body: { detail: "Your account has no password: this sign-in is your only way in." },
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/profile?sso_linked=acme");
    const section = await ssoSection();
    expect(
      await within(section).findByText("Your account is linked: the sign-in of Acme opens it from now on."),
    ).toBeTruthy();
    expect(within(section).getByText("Linked on November 20, 2026.")).toBeTruthy();
    expect(within(section).getByText("This sign-in created your account on October 1, 2026.")).toBeTruthy();

    await user.click(within(section).getByRole("button", { name: "Unlink the sign-in of Acme" }));
    const dialog = await screen.findByRole("dialog", { name: "Unlink the sign-in of Acme?" });
    await user.click(within(dialog).getByRole("button", { name: "Unlink" }));
    await waitFor(() => expect(within(section).queryByText("Acme")).toBeNull());

    await user.click(within(section).getByRole("button", { name: "Unlink the sign-in of Globex" }));
    await user.click(
      within(await screen.findByRole("dialog", { name: "Unlink the sign-in of Globex?" })).getByRole(
        "button",
        { name: "Unlink" },
      ),
    );
    expect(
      await within(section).findByText("Your account has no password: this sign-in is your only way in."),
    ).toBeTruthy();
    expect(within(section).getByText("Globex")).toBeTruthy();
  });

  it("says when no organization's sign-in opens the account", async () => {
    servePage(() => ({ linked: [], linkable: [] }));
    renderApp("/dashboard/profile");
    const section = await ssoSection();
    expect(await within(section).findByText(/No organization's sign-in opens your account/)).toBeTruthy();
  });
});
