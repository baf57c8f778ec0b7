import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { getToken } from "../../api/client.ts";
import { type ApiReply, renderApp, stubApi } from "../../test/render.tsx";

const CODE = "c".repeat(32);

describe("single sign-on page", () => {
  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => {});
  });

  it("says a link was mailed as information, and why other sign-ins did not finish as errors", async () => {
    stubApi({});
    const sent = renderApp("/login-custom-client?sso_error=link_sent");
    const info = await screen.findByText(/We have sent it an e-mail with a link/);
    expect(info.closest("[data-alert-type]")?.getAttribute("data-alert-type")).toBe("info");
    sent.unmount();

    renderApp("/login-custom-client?sso_error=user_limit");
    const error = await screen.findByText(/has no free seat for another member/);
    expect(error.closest("[data-alert-type]")?.getAttribute("data-alert-type")).toBe("error");
  });

  it("ignores a reason it does not know", async () => {
    stubApi({});
    renderApp("/login-custom-client?sso_error=whatever");
    await screen.findByRole("heading", { name: "Log in with your organization" });
    expect(document.querySelector("[data-alert-type]")).toBeNull();
  });

  it("asks for the account's own code after the provider, shows a wrong one, then signs in", async () => {
    let tries = 0;
    const calls = stubApi({
      "POST /api/sso/second-factor/": (): ApiReply => {
        tries += 1;
        return tries === 1
          ? { status: 400, body: { otp: ["Invalid code."] } }
          : { status: 200, body: { token: "sso-tok", next: "/dashboard/apps" } };
      },
    });
    const user = userEvent.setup();
    const { router } = renderApp("/login-custom-client?sso_second_factor=ticket-1");
    const code = await screen.findByLabelText(/^Verification code/);
    expect(code.getAttribute("autocomplete")).toBe("one-time-code");
    await user.type(code, "123456{enter}");
    expect(await screen.findByText("Invalid code.")).toBeTruthy();
    expect(getToken()).toBeNull();

    await user.clear(code);
    await user.type(code, " 654321 ");
    await user.click(screen.getByRole("button", { name: "Verify and log in" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard/apps"));
    expect(getToken()).toBe("sso-tok");
    expect(calls.filter((call) => call.method === "POST").map((call) => call.body)).toEqual([
      { ticket: "ticket-1", otp: "123456" },
      { ticket: "ticket-1", otp: "654321" },
    ]);
  });

  it("says an expired second-factor sign-in must start again", async () => {
    stubApi({
      "POST /api/sso/second-factor/": {
        status: 400,
        body: { ticket: ["This sign-in has expired. Sign in with single sign-on again."] },
      },
    });
    const user = userEvent.setup();
    renderApp("/login-custom-client?sso_second_factor=old");
    await user.type(await screen.findByLabelText(/^Verification code/), "123456{enter}");
    expect(
      await screen.findByText("This sign-in has expired. Start the sign-in with your organization again."),
    ).toBeTruthy();
    expect(screen.getByRole("link", { name: "Start the sign-in again" }).getAttribute("href")).toBe(
      "/login-custom-client",
    );
  });

  it("links the account from the mailed link, then offers the organization's sign-in", async () => {
    const calls = stubApi({
      [`GET /api/sso/link-requests/${CODE}/`]: {
        status: 200,
        body: { email: "dana@acme.test", organization: { title: "Acme", subdomain: "acme" } },
      },
      [`POST /api/sso/link-requests/${CODE}/`]: {
        status: 200,
        body: { organization: "acme", login_url: "/api/sso/acme/start/" },
      },
    });
    const user = userEvent.setup();
    renderApp(`/login-custom-client?sso_link=${CODE}`);
    expect(
      await screen.findByText("Let the sign-in of Acme open your Tarmac account dana@acme.test from now on?"),
    ).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Link my account" }));
    const signIn = await screen.findByRole("link", { name: "Sign in with Acme" });
    expect(signIn.getAttribute("href")).toBe("/api/sso/acme/start/?login_hint=dana%40acme.test");
    expect(calls.filter((call) => call.method === "POST")).toHaveLength(1);
  });

  it("says an invalid or expired mailed link is no longer valid", async () => {
    stubApi({
      [`GET /api/sso/link-requests/${CODE}/`]: {
        status: 404,
        body: { detail: "This link is invalid or has expired." },
      },
    });
    renderApp(`/login-custom-client?sso_link=${CODE}`);
    expect(await screen.findByText(/This link is invalid or has expired\. Sign in with your/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Link my account" })).toBeNull();
  });

  it("says so when the link expired between opening and confirming it", async () => {
    stubApi({
      [`GET /api/sso/link-requests/${CODE}/`]: {
        status: 200,
        body: { email: "dana@acme.test", organization: { title: "Acme", subdomain: "acme" } },
      },
      [`POST /api/sso/link-requests/${CODE}/`]: {
        status: 404,
        body: { detail: "This link is invalid or has expired." },
      },
    });
    const user = userEvent.setup();
    renderApp(`/login-custom-client?sso_link=${CODE}`);
    await user.click(await screen.findByRole("button", { name: "Link my account" }));
    expect(await screen.findByText(/This link is invalid or has expired\. Sign in with your/)).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Sign in with Acme" })).toBeNull();
  });
});
