import type { MailServer } from "@tarmac/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { makeOrg, makeProfile } from "../../test/account-fixtures.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";

const NONE: MailServer = {
  enabled: false,
  configured: false,
  host: "",
  port: 587,
  security: "starttls",
  username: "",
  password_set: false,
  from_name: "",
  from_email: "",
  reply_to: "",
  updated_at: null,
};

function serve(role: number, saved: MailServer, extra: Record<string, ApiReply | (() => ApiReply)> = {}) {
  return stubApi({
    "GET /api/profiles/": { status: 200, body: [makeProfile({ org_data: [makeOrg({ role })] })] },
    "GET /api/orgs-smtp/7/": { status: 200, body: saved },
    ...extra,
  });
}

describe("mail server page", () => {
  useSignedInTestSession();

  it("checks and saves the server, showing the server's refusal under its field", async () => {
    let puts = 0;
    const calls = serve(1, NONE, {
      "PUT /api/orgs-smtp/7/": () => {
        puts += 1;
        return puts === 1
          ? {
              status: 400,
              body: { password: ["The server refused the login: 535 Invalid username or password"] },
            }
          : {
              status: 200,
              body: { ...NONE, configured: true, enabled: true, host: "smtp.acme.test", password_set: true },
            };
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/mail-server");
    expect((await screen.findByTestId("mail-server-status")).textContent).toBe(
      "Mail about this organization leaves through Tarmac's mail server.",
    );
    const form = screen.getByRole("form", { name: "Mail server" });
    await user.type(within(form).getByLabelText(/^SMTP host/), "smtp.acme.test");
    await user.type(within(form).getByLabelText(/^User name/), "relay");
    await user.type(within(form).getByLabelText(/^Password/), "wrong");
    await user.type(within(form).getByLabelText(/^Sender address/), "builds@acme.test");
    await user.click(within(form).getByRole("button", { name: "Check and save" }));
    expect(await within(form).findByText(/The server refused the login/)).toBeTruthy();
    await user.click(within(form).getByRole("button", { name: "Check and save" }));
    expect(await screen.findByText("The server answered: settings saved.")).toBeTruthy();
    expect(calls.filter((call) => call.method === "PUT")[0]?.body).toMatchObject({
      host: "smtp.acme.test",
      port: 587,
      security: "starttls",
      username: "relay",
      password: "wrong",
      from_email: "builds@acme.test",
      enabled: true,
    });
    expect((await screen.findByTestId("mail-server-status")).textContent).toBe(
      "Mail about this organization leaves through smtp.acme.test.",
    );
  });

  it("sends a test mail and keeps a saved password when the field is empty", async () => {
    const saved = {
      ...NONE,
      configured: true,
      enabled: true,
      host: "smtp.acme.test",
      password_set: true,
      from_email: "b@acme.test",
    };
    const calls = serve(2, saved, {
      "POST /api/orgs-smtp/7/test/": {
        status: 200,
        body: { detail: "A test mail was sent to me@acme.test." },
      },
      "PUT /api/orgs-smtp/7/": { status: 200, body: saved },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/organization/mail-server");
    await user.click(await screen.findByRole("button", { name: "Send a test mail to me" }));
    expect(await screen.findByText("A test mail was sent to me@acme.test.")).toBeTruthy();
    expect(screen.getByText("A password is saved; leave this empty to keep it.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Check and save" }));
    await waitFor(() => expect(calls.some((call) => call.method === "PUT")).toBe(true));
    expect(calls.find((call) => call.method === "PUT")?.body).not.toHaveProperty("password");
  });
});
