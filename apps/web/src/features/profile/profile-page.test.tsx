import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { getToken } from "../../api/client.ts";
import { makeProfile } from "../../test/account-fixtures.ts";
import { type ApiReply, renderApp, stubApi, useSignedInTestSession } from "../../test/render.tsx";

const CODES = Array.from({ length: 10 }, (_, index) => `code-${index}-abcd`);
const OWN_MEMBERSHIP_URL = "GET /api/usersinorgs/?org=7&page=1&page_size=20&s=ann%40example.com";

function serveProfilePage(extra: Record<string, ApiReply | (() => ApiReply)>) {
  let twoFactor = false;
  const calls = stubApi({
    "GET /api/profiles/": () => ({ status: 200, body: [makeProfile({ two_factor_enabled: twoFactor })] }),
    "GET /api/data-gdpr/": { status: 200, body: [] },
    "GET /api/profiles/api-key/": { status: 200, body: { has_api_key: true } },
    [OWN_MEMBERSHIP_URL]: {
      status: 200,
      body: { count: 1, next: null, previous: null, results: [{ id: 55, userid: 11, role: 1 }] },
    },
    ...extra,
  });
  return { calls, enableTwoFactor: () => (twoFactor = true) };
}

/** Opens the profile page and asks for a new API key, once the page knows whether one exists. */
async function openApiKeyConfirmation() {
  const user = userEvent.setup();
  renderApp("/dashboard/profile");
  const generate = await screen.findByRole("button", { name: "Generate a new API key" });
  await waitFor(() =>
    expect(generate.hasAttribute("disabled") || generate.hasAttribute("data-loading")).toBe(false),
  );
  await user.click(generate);
  return { user, dialog: await screen.findByRole("dialog", { name: "Generate a new API key" }) };
}

describe("profile page", () => {
  useSignedInTestSession();

  it("sets up 2FA: QR code and secret, a wrong code, then the recovery codes shown once", async () => {
    let tokenAttempts = 0;
    const server = serveProfilePage({
      "GET /api/user/get-2fa-key/": {
        status: 200,
        body: {
          secret: "JBSWY3DPEHPK3PXP",
          otpauth_uri: "otpauth://totp/x",
          qr_code: "data:image/png;base64,AAAA",
        },
      },
      "POST /api/user/check-2fa-token/": () => {
        tokenAttempts += 1;
        if (tokenAttempts === 1) return { status: 400, body: { token: ["Invalid code."] } };
        server.enableTwoFactor();
        return { status: 200, body: { two_factor_enabled: true, recovery_codes: CODES } };
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/profile");
    await user.click(await screen.findByRole("button", { name: "Set up two-factor authentication" }));

    const qr = await screen.findByRole("img", { name: "QR code for your authenticator app" });
    expect(qr.getAttribute("src")).toBe("data:image/png;base64,AAAA");
    expect(screen.getByTestId("twofa-secret").textContent).toBe("JBSWY3DPEHPK3PXP");

    await user.type(screen.getByLabelText(/^6-digit code/), "000000");
    await user.click(screen.getByRole("button", { name: "Confirm and turn on" }));
    expect(await screen.findByText("Invalid code.")).toBeTruthy();

    await user.clear(screen.getByLabelText(/^6-digit code/));
    await user.type(screen.getByLabelText(/^6-digit code/), "123456");
    await user.click(screen.getByRole("button", { name: "Confirm and turn on" }));
    const list = await screen.findByRole("list", { name: "Recovery codes" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(
      server.calls.filter((call) => call.url === "/api/user/check-2fa-token/").map((call) => call.body),
    ).toEqual([{ token: "000000" }, { token: "123456" }]);

    await user.click(screen.getByRole("button", { name: "Copy codes" }));
    expect(await screen.findByText("Copied to clipboard")).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(CODES.join("\n"));

    await user.click(screen.getByRole("button", { name: "I have saved the codes" }));
    expect(await screen.findByRole("button", { name: "Generate new recovery codes" })).toBeTruthy();
    expect(screen.queryByRole("list", { name: "Recovery codes" })).toBeNull();
    expect(screen.getByText("On")).toBeTruthy();
  });

  it("turns 2FA off with the password", async () => {
    const { calls } = serveProfilePage({
      "GET /api/profiles/": { status: 200, body: [makeProfile({ two_factor_enabled: true })] },
      "POST /api/user/disable-2fa/": { status: 200, body: { two_factor_enabled: false } },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/profile");
    const section = (await screen.findByRole("heading", { name: "Two-factor authentication" })).closest(
      "section",
    );
    const scope = within(section as HTMLElement);
    await user.click(await scope.findByRole("radio", { name: "With the password" }));
    await user.type(scope.getByLabelText(/^Password/), "my-password-1");
    await user.click(scope.getByRole("button", { name: "Turn off" }));
    await waitFor(() =>
      expect(calls.filter((call) => call.method === "POST").map((call) => [call.url, call.body])).toEqual([
        ["/api/user/disable-2fa/", { password: "my-password-1" }],
      ]),
    );
  });

  it("rotates the API key of the own membership and shows it once with a copy button", async () => {
    const { calls } = serveProfilePage({
      "GET /api/usersinorgs/55/?newapikey=1": { status: 200, body: { id: 55, api_key: "tk_live_secret" } },
    });
    const { user, dialog } = await openApiKeyConfirmation();
    expect(within(dialog).getByText("Your previous API key stops working at once. Continue?")).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "Generate a new API key" }));
    expect((await screen.findByTestId("api-key")).textContent).toBe("tk_live_secret");
    await user.click(screen.getByRole("button", { name: "Copy key" }));
    expect(await screen.findByText("Copied to clipboard")).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe("tk_live_secret");
    expect(calls.map((call) => call.url)).toContain("/api/usersinorgs/55/?newapikey=1");
  });

  it("does not warn of a previous API key when there is none yet", async () => {
    serveProfilePage({ "GET /api/profiles/api-key/": { status: 200, body: { has_api_key: false } } });
    const { dialog } = await openApiKeyConfirmation();
    expect(within(dialog).getByText(/This creates your first API key/)).toBeTruthy();
    expect(within(dialog).queryByText(/previous/)).toBeNull();
  });

  it("shows the server's refusal to delete the account and keeps the session", async () => {
    const refusal = "You own an organization with other members. Transfer or delete it first.";
    const { calls } = serveProfilePage({
      "DELETE /api/profiles/0/": { status: 400, body: { detail: refusal } },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/profile");
    const section = (await screen.findByRole("heading", { name: "Delete account" })).closest("section");
    const scope = within(section as HTMLElement);
    await user.type(scope.getByLabelText(/^Password/), "pw-123456789");
    await user.click(scope.getByRole("checkbox"));
    await user.click(scope.getByRole("button", { name: "Delete my account" }));
    expect(await screen.findByText(refusal)).toBeTruthy();
    expect(getToken()).toBe("tok");
    expect(calls.find((call) => call.method === "DELETE")?.body).toEqual({ password: "pw-123456789" });
  });

  it("signs out everywhere after confirmation and returns to the sign-in page", async () => {
    const { calls } = serveProfilePage({ "POST /api/user/logout/everywhere/": { status: 204, body: null } });
    const user = userEvent.setup();
    renderApp("/dashboard/profile");
    const section = (await screen.findByRole("heading", { name: "Sessions and API keys" })).closest(
      "section",
    );
    await user.click(within(section as HTMLElement).getByRole("button", { name: "Sign out everywhere" }));
    const dialog = await screen.findByRole("dialog", { name: "Sign out everywhere?" });
    expect(calls.some((call) => call.url === "/api/user/logout/everywhere/")).toBe(false);
    await user.click(within(dialog).getByRole("button", { name: "Sign out everywhere" }));
    expect(await screen.findByRole("heading", { name: /Sign in|Log in/ })).toBeTruthy();
    expect(calls.filter((call) => call.url === "/api/user/logout/everywhere/")).toHaveLength(1);
    expect(getToken()).toBeNull();
  });

  it("requests a data export and links a finished one", async () => {
    let requested = false;
    serveProfilePage({
      "GET /api/data-gdpr/": () => ({
        status: 200,
        body: requested
          ? [
              {
                id: 2,
                status: "ready",
                created_at: "2026-11-20T10:00:00Z",
                completed_at: "2026-11-20T10:01:00Z",
                size: 2048,
                download_url: "/api/data-gdpr/2/download/?sig=abc",
              },
            ]
          : [],
      }),
      "POST /api/data-gdpr/": () => {
        requested = true;
        return { status: 202, body: { id: 2, status: "pending" } };
      },
    });
    const user = userEvent.setup();
    renderApp("/dashboard/profile");
    expect(await screen.findByText("No exports requested yet.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Request a data export" }));
    const link = await screen.findByRole("link", { name: "Download" });
    expect(link.getAttribute("href")).toBe("/api/data-gdpr/2/download/?sig=abc");
    expect(screen.getByText("Ready")).toBeTruthy();
  });
});
