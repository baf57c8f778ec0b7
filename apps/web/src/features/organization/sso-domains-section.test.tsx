import type { SsoDomain } from "@tarmac/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";
import { makeDomainClaim, NO_OIDC } from "../../test/sso-fixtures.ts";

const PAGE = {
  "GET /api/profiles/": { status: 200, body: [makeProfile({ org_data: [makeOrg({ role: 2 })] })] },
  "GET /api/orgs-oidc/7/": { status: 200, body: NO_OIDC },
  "GET /api/orgs-sso-sessions/7/": { status: 200, body: [] },
};

async function domainsSection() {
  const heading = await screen.findByRole("heading", { name: "Domains" });
  return heading.closest("section") as HTMLElement;
}

function claimItem(section: HTMLElement, domain: string): HTMLElement {
  return within(section).getByText(domain).closest("li") as HTMLElement;
}

describe("sign-on domains", () => {
  useSignedInTestSession();

  it("lists claims with their status and the record to add to DNS", async () => {
    stubApi({
      ...PAGE,
      "GET /api/orgs-sso-domains/7/": {
        status: 200,
        body: [
          makeDomainClaim({ id: 1, domain: "waiting.test", txt_name: "_tarmac-challenge.waiting.test" }),
          makeDomainClaim({
            id: 2,
            domain: "proven.test",
            verified: true,
            verified_at: "2026-11-20T10:00:00Z",
          }),
          makeDomainClaim({ id: 3, domain: "lapsing.test", verified: true, failed_checks: 2 }),
        ],
      },
    });
    renderApp("/dashboard/organization/sign-on");
    const section = await domainsSection();
    const waiting = await waitFor(() => claimItem(section, "waiting.test"));
    expect(within(waiting).getByText("Waiting for the DNS record")).toBeTruthy();
    expect(within(waiting).getByText("_tarmac-challenge.waiting.test")).toBeTruthy();
    expect(within(waiting).getByText("tarmac-domain-verification=abc")).toBeTruthy();
    expect(within(waiting).getAllByRole("button", { name: "Copy" })).toHaveLength(2);

    const proven = claimItem(section, "proven.test");
    expect(within(proven).getByText("Proven")).toBeTruthy();
    expect(within(proven).queryByRole("button", { name: "Copy" })).toBeNull();

    const lapsing = claimItem(section, "lapsing.test");
    expect(within(lapsing).getByText("Re-checks failing")).toBeTruthy();
    expect(within(lapsing).getByText(/\(2 of 3 in a row\)/)).toBeTruthy();
  });

  it("adds a domain, shows the server's refusals, verifies it and removes it after asking", async () => {
    let claims: SsoDomain[] = [];
    let verifies = 0;
    const calls = stubApi({
      ...PAGE,
      "GET /api/orgs-sso-domains/7/": () => ({ status: 200, body: claims }),
      "POST /api/orgs-sso-domains/7/": (call): ApiReply => {
        const domain = (call.body as { domain: string }).domain;
        if (domain === "gmail.com") {
          return { status: 400, body: { domain: ["gmail.com is a public mail service."] } };
        }
        claims = [makeDomainClaim({ id: 5, domain })];
        return { status: 201, body: claims[0] };
      },
      "POST /api/orgs-sso-domains/7/5/verify/": (): ApiReply => {
        verifies += 1;
        return verifies === 1
          ? { status: 400, body: { domain: ['No TXT record "tarmac-domain-verification=abc" yet.'] } }
          : {
              status: 200,
              body: makeDomainClaim({ id: 5, verified: true, verified_at: "2026-11-28T10:00:00Z" }),
            };
      },
      "DELETE /api/orgs-sso-domains/7/5/": { status: 204, body: null },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/sign-on");
    const section = await domainsSection();
    expect(await within(section).findByText("No domains yet.")).toBeTruthy();

    const field = within(section).getByLabelText(/^Domain/);
    await user.type(field, "gmail.com{enter}");
    expect(await within(section).findByText("gmail.com is a public mail service.")).toBeTruthy();
    await user.clear(field);
    await user.type(field, "acme.test");
    await user.click(within(section).getByRole("button", { name: "Add domain" }));
    const item = await waitFor(() => claimItem(section, "acme.test"));
    expect((field as HTMLInputElement).value).toBe("");

    await user.click(within(item).getByRole("button", { name: "Verify now" }));
    expect(
      await within(item).findByText(/No TXT record "tarmac-domain-verification=abc" yet\./),
    ).toBeTruthy();
    await user.click(within(item).getByRole("button", { name: "Verify now" }));
    expect(await within(item).findByText("Proven")).toBeTruthy();
    expect(await screen.findByText("acme.test is proven.")).toBeTruthy();

    await user.click(within(item).getByRole("button", { name: "Remove acme.test" }));
    const dialog = await screen.findByRole("dialog", { name: "Remove acme.test" });
    await user.click(within(dialog).getByRole("button", { name: "Remove" }));
    expect(await within(section).findByText("No domains yet.")).toBeTruthy();
    expect(calls.filter((call) => call.method !== "GET").map((call) => `${call.method} ${call.url}`)).toEqual(
      [
        "POST /api/orgs-sso-domains/7/",
        "POST /api/orgs-sso-domains/7/",
        "POST /api/orgs-sso-domains/7/5/verify/",
        "POST /api/orgs-sso-domains/7/5/verify/",
        "DELETE /api/orgs-sso-domains/7/5/",
      ],
    );
  });

  it("offers a retry when the list cannot be loaded", async () => {
    stubApi(PAGE);
    renderApp("/dashboard/organization/sign-on");
    const section = await domainsSection();
    expect(await within(section).findByRole("button", { name: "Try again" })).toBeTruthy();
  });
});
