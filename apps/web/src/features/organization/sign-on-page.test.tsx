import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";
import { NO_OIDC as NONE } from "../../test/sso-fixtures.ts";

const NO_SAML = {
  kind: "entra",
  configured: false,
  enabled: false,
  idp_entity_id: "",
  idp_sso_url: "",
  idp_certificate_expires: null,
  metadata_url: "",
  sp_certificate_set: false,
  sp_private_key_set: false,
  default_role: 3,
  allowed_domains: [],
  require_sso: false,
  sp_entity_id: "https://tarmac.test/api/sso/saml/7/metadata/",
  acs_url: "https://tarmac.test/api/sso/saml/7/acs/",
  sp_metadata_url: "https://tarmac.test/api/sso/saml/7/metadata/",
  login_url: "https://tarmac.test/login-custom-client?org=acme",
  updated_at: null,
};

describe("sign-on page", () => {
  useSignedInTestSession();

  it("uploads an Entra ID metadata file as multipart and shows the provider's refusal", async () => {
    const calls = stubApi({
      "GET /api/profiles/": { status: 200, body: [makeProfile({ org_data: [makeOrg({ role: 1 })] })] },
      "GET /api/orgs-oidc/7/": { status: 200, body: NONE },
      "GET /api/orgs-sso-sessions/7/": { status: 200, body: [] },
      "GET /api/orgs-sso-entra/7/": { status: 200, body: NO_SAML },
      "PUT /api/orgs-sso-entra/7/": {
        status: 400,
        body: { metadata: ["The identity provider's signing certificate expired on 2026-01-01."] },
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/sign-on");
    await user.click(await screen.findByRole("tab", { name: "Microsoft Entra ID" }));
    const form = await screen.findByRole("form", { name: "Microsoft Entra ID" });
    expect(within(form.parentElement as HTMLElement).getByText(NO_SAML.acs_url)).toBeTruthy();
    const file = new File(["<EntityDescriptor/>"], "entra.xml", { type: "application/xml" });
    // Mantine's FileInput is a button with a hidden file input behind it; the metadata's is the first.
    expect(within(form).getByRole("button", { name: /^Identity provider metadata/ })).toBeTruthy();
    await user.upload(form.querySelector('input[type="file"]') as HTMLInputElement, file);
    await user.click(within(form).getByRole("button", { name: "Check and save" }));
    expect(await within(form).findByText(/signing certificate expired on 2026-01-01/)).toBeTruthy();
    const sent = calls.find((call) => call.method === "PUT")?.body as FormData;
    expect(sent.get("entra_id_metadata")).toBeInstanceOf(File);
    expect(sent.get("enabled")).toBe("true");
  });

  it("checks the provider, shows its refusal under the issuer, then saves", async () => {
    let patches = 0;
    const calls = stubApi({
      "GET /api/profiles/": { status: 200, body: [makeProfile({ org_data: [makeOrg({ role: 1 })] })] },
      "GET /api/orgs-oidc/7/": { status: 200, body: NONE },
      "GET /api/orgs-sso-sessions/7/": {
        status: 200,
        body: [
          {
            user: { id: 31, email: "dana@acme.test", first_name: "Dana", last_name: "Scully" },
            sessions: 2,
            signed_in_at: "2026-11-24T09:00:00Z",
            last_used_at: null,
          },
        ],
      },
      "POST /api/orgs-sso-sessions/7/revoke/": { status: 200, body: { revoked: 2 } },
      "PATCH /api/orgs-oidc/7/": (): ApiReply => {
        patches += 1;
        return patches === 1
          ? { status: 400, body: { issuer: ["Could not read the provider's configuration: 404 Not Found"] } }
          : {
              status: 200,
              body: {
                ...NONE,
                configured: true,
                enabled: true,
                issuer: "https://login.acme.test",
                client_id: "tarmac",
                client_secret_set: true,
                allowed_domains: ["acme.test"],
                updated_at: "2026-11-25T00:00:00Z",
              },
            };
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/sign-on");
    expect((await screen.findByTestId("redirect-uri")).textContent).toBe(NONE.redirect_uri);
    const form = screen.getByRole("form", { name: "OpenID Connect" });
    await user.type(within(form).getByLabelText(/^Issuer URL/), "https://login.acme.test");
    await user.type(within(form).getByLabelText(/^Client ID/), "tarmac");
    await user.type(within(form).getByLabelText(/^Client secret/), "s3cret");
    await user.type(within(form).getByLabelText(/^E-mail domains/), "acme.test{enter}");
    await user.click(within(form).getByRole("button", { name: "Check and save" }));
    expect(await within(form).findByText(/Could not read the provider's configuration/)).toBeTruthy();
    await user.click(within(form).getByRole("button", { name: "Check and save" }));
    expect(await screen.findByText("Members sign in through https://login.acme.test.")).toBeTruthy();
    await user.click(await screen.findByRole("button", { name: "End the sessions of dana@acme.test" }));
    expect(await screen.findByText("Sessions ended: 2.")).toBeTruthy();
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({ user: 31 });
    expect(calls.filter((call) => call.method === "PATCH")[1]?.body).toEqual({
      issuer: "https://login.acme.test",
      client_id: "tarmac",
      client_secret: "s3cret",
      scopes: "openid email profile",
      enabled: true,
      default_role: 3,
      allowed_domains: ["acme.test"],
      require_sso: false,
    });
  });
});
